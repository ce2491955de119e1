import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryScreenRouter, Outlet, ScreenRouterProvider, type ScreenRoute } from '../lib/screen-router';

export interface ScreenOptions {
  /** Where the screen opens (its query string is a list's state). */
  url?: string;
  /**
   * The screen's route, with its parameters (`/clients/:id`), or its routes when the app has
   * several for it (`/verify` and `/verify/:code`); any other path renders nothing.
   */
  path?: string | string[];
  /** What the layout above hands the screen (a project, a module library), as its outlet context. */
  context?: unknown;
}

/**
 * Renders one screen or dialog as the app does: Mantine, a fresh query cache that never
 * retries (as the app's, lib/query-provider.tsx), and a router in memory at `url`, so a
 * list's state, links and navigations are the router's own. Answers the person's hands
 * (userEvent) and the router, to read where a click or a sort led.
 */
export function renderScreen(element: ReactNode, options: ScreenOptions = {}) {
  const { url = '/', path = '*', context } = options;
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
  const screens: ScreenRoute[] = (Array.isArray(path) ? path : [path]).map((one) =>
    context === undefined
      ? { path: one, element }
      : { path: one, element: <Outlet context={context} />, children: [{ index: true, element }] },
  );
  const routes: ScreenRoute[] = path === '*' ? screens : [...screens, { path: '*', element: null }];
  const router = createMemoryScreenRouter(routes, { initialEntries: [url] });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <ScreenRouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  /** The address now: its path and query string (`/clients?sort=name%3AASC`). */
  const address = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { user: userEvent.setup({ delay: null }), router, client, address };
}

/**
 * Puts a text into an empty field at once, as a paste. Typed key by key, each key renders the
 * whole form again (a project's, with its seasons): a second or more per test, for nothing a
 * test checks. Keys stay for what reacts to them (Enter in a picker, a debounced search).
 */
export async function fill(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.click(field);
  // A click on an autosizing text area (or into a dialog's focus trap) may leave the focus
  // where it was: the paste goes where the click was meant.
  if (document.activeElement !== field) field.focus();
  await user.paste(text);
}

/** The query parameters of the address now. */
export function searchOf(address: string): Record<string, string> {
  return Object.fromEntries(new URL(address, 'http://test').searchParams);
}

// Mantine's autosizing text areas listen for web fonts, which happy-dom does not have.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} } });
}
