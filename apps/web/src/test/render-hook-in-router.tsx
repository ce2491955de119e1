import type { ReactNode } from 'react';
import { renderHook } from '@testing-library/react';
import { createMemoryScreenRouter, ScreenRouterProvider } from '../lib/screen-router';

/**
 * Renders a hook inside a data router at `url`, as the app's screens are (hooks such as
 * useListState watch the router's navigations). The router is made once, for the whole test.
 */
export function renderHookInRouter<Result>(hook: () => Result, url: string) {
  let current: ReactNode = null;
  const Slot = () => <>{current}</>;
  const router = createMemoryScreenRouter([{ path: '*', element: <Slot /> }], { initialEntries: [url] });
  const wrapper = ({ children }: { children: ReactNode }) => {
    current = children;
    return <ScreenRouterProvider router={router} />;
  };
  return { ...renderHook(hook, { wrapper }), router };
}
