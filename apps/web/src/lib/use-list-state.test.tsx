import { describe, expect, it, vi, afterEach } from 'vitest';
import { act, render } from '@testing-library/react';
import { renderHookInRouter } from '../test/render-hook-in-router';
import { createMemoryScreenRouter, ScreenRouterProvider, useLocation } from './screen-router';
import { SEARCH_DEBOUNCE_MS, useListState } from './use-list-state';

afterEach(() => vi.useRealTimers());

function setup(initialUrl: string) {
  return renderHookInRouter(
    () => ({ list: useListState({ sortable: ['name', 'created_at'] }), location: useLocation() }),
    initialUrl,
  );
}

describe('list state in the URL', () => {
  it('reads page, search and sort from the query string', () => {
    const { result } = setup('/clients?page=3&search=north&sort=name:DESC');
    expect(result.current.list.page).toBe(3);
    expect(result.current.list.search).toBe('north');
    expect(result.current.list.searchInput).toBe('north');
    expect(result.current.list.query).toEqual({ page: 3, limit: 25, search: 'north', sort: 'name:DESC' });
  });

  it('ignores bad values', () => {
    const { result } = setup('/clients?page=-4&sort=secret:ASC');
    expect(result.current.list.page).toBe(1);
    expect(result.current.list.sort).toEqual([]);
  });

  it('applies a search 300 ms after the last keystroke and goes back to page 1', () => {
    vi.useFakeTimers();
    const { result } = setup('/clients?page=4');
    act(() => result.current.list.setSearchInput('riv'));
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 50);
    });
    act(() => result.current.list.setSearchInput('river'));
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 50);
    });
    expect(result.current.location.search).toBe('?page=4');
    act(() => {
      vi.advanceTimersByTime(60);
    });
    expect(result.current.location.search).toBe('?search=river');
    expect(result.current.list.page).toBe(1);
  });

  it('keeps the page in the URL and toggles sort through the cycle', () => {
    const { result } = setup('/clients');
    act(() => result.current.list.setPage(2));
    expect(result.current.location.search).toBe('?page=2');
    act(() => result.current.list.toggleSort('name'));
    expect(result.current.location.search).toBe('?sort=name%3AASC');
    act(() => result.current.list.toggleSort('name'));
    act(() => result.current.list.toggleSort('name'));
    expect(result.current.location.search).toBe('');
  });

  it('does not undo a navigation that is still loading the next screen when the typed search comes due', async () => {
    let list: ReturnType<typeof useListState> | undefined;
    function Probe() {
      list = useListState({ sortable: ['name'] });
      return null;
    }
    const router = createMemoryScreenRouter(
      [
        { path: '/clients', element: <Probe /> },
        {
          path: '/elements',
          // The next screen's code arrives after the search would have been applied.
          lazy: () =>
            new Promise((resolve) => setTimeout(() => resolve({ Component: () => null }), SEARCH_DEBOUNCE_MS * 2)),
        },
      ],
      { initialEntries: ['/clients'] },
    );
    render(<ScreenRouterProvider router={router} />);
    act(() => list!.setSearchInput('river'));
    await act(async () => {
      void router.navigate('/elements');
      await new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS * 3));
    });
    expect(router.state.location.pathname).toBe('/elements');
  });
});
