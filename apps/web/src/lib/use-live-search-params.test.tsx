import { describe, expect, it } from 'vitest';
import { act, render } from '@testing-library/react';
import { createMemoryScreenRouter, ScreenRouterProvider } from './screen-router';
import { useLiveSearchParams } from './use-live-search-params';

type Replace = ReturnType<typeof useLiveSearchParams>[1];

describe('changing the query string from the URL as it is now', () => {
  it('keeps a change made through a setter from an earlier render', async () => {
    // The setter of the first render, kept as a debounce timer keeps it.
    let first: Replace | undefined;
    function Probe() {
      const [params, replace] = useLiveSearchParams();
      first ??= replace;
      return <p>{params.toString()}</p>;
    }
    const router = createMemoryScreenRouter([{ path: '/log', element: <Probe /> }], {
      initialEntries: ['/log?view=log'],
    });
    render(<ScreenRouterProvider router={router} />);
    const stale = first!;
    await act(async () => stale((current) => (current.set('status', 'FAILED'), current)));
    await act(async () => stale((current) => (current.set('search', 'sm667'), current)));
    // React Router's own setter, from that render, would have started from `view=log` and
    // dropped the status.
    expect(router.state.location.search).toBe('?view=log&status=FAILED&search=sm667');
    expect(router.state.historyAction).toBe('REPLACE');
  });
});
