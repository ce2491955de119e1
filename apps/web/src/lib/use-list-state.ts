import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigation, useScreenRouter } from './screen-router';
import { formatSort, parseSort, type SortTerm } from '@pss/contract';
import { toggleSort as nextSort } from './sort-toggle';
import { useLiveSearchParams } from './use-live-search-params';

export const SEARCH_DEBOUNCE_MS = 300;

export interface ListState {
  page: number;
  /** The search as applied (debounced). */
  search: string;
  /** What the search box shows right now. */
  searchInput: string;
  setSearchInput(value: string): void;
  setPage(page: number): void;
  sort: SortTerm[];
  toggleSort(field: string): void;
  /** Query parameters for the list call. */
  query: { page: number; limit: number; search?: string; sort?: string };
}

/**
 * A list's page, search and sort, kept in the query string so that a reload, a shared
 * link or the back button shows the same page. The search is applied 300 ms after the
 * last keystroke and starts again at page 1.
 */
export function useListState(options: { sortable: readonly string[]; limit?: number }): ListState {
  const [params, replaceParams] = useLiveSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const search = params.get('search') ?? '';
  const parsedSort = parseSort(params.get('sort') ?? '', options.sortable);
  const sort = parsedSort.ok ? parsedSort.terms : [];
  const [searchInput, setSearchInputState] = useState(search);

  const update = useCallback(
    (changes: Record<string, string | undefined>) => {
      replaceParams((current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === undefined || value === '') next.delete(key);
          else next.set(key, value);
        }
        return next;
      });
    },
    [replaceParams],
  );

  // The URL changed from elsewhere (back button, a link): show its search in the box.
  useEffect(() => {
    setSearchInputState(search);
  }, [search]);

  // A typed search is applied once typing pauses, unless the person has meanwhile gone
  // elsewhere: a link clicked while the next screen's code loads must not be undone by it,
  // nor may the search land on the next screen's URL. The router's own state is read when
  // the timer fires: React renders a navigation later (the router updates in a
  // transition), so this list may still be on screen while the router is loading the next
  // screen, or is already there.
  const router = useScreenRouter();
  const navigating = useNavigation().state !== 'idle';
  const { pathname } = useLocation();
  useEffect(() => {
    if (searchInput.trim() === search || navigating) return;
    const timer = setTimeout(() => {
      const now = router.state;
      if (now.navigation !== 'idle' || now.location.pathname !== pathname) return;
      update({ search: searchInput.trim(), page: undefined });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchInput, search, update, navigating, router, pathname]);

  const limit = options.limit ?? 25;
  const sortString = formatSort(sort);
  const query = useMemo(
    () => ({ page, limit, search: search || undefined, sort: sortString || undefined }),
    [page, limit, search, sortString],
  );

  return {
    page,
    search,
    searchInput,
    setSearchInput: setSearchInputState,
    setPage: (next) => update({ page: next > 1 ? String(next) : undefined }),
    sort,
    toggleSort: (field) => update({ sort: formatSort(nextSort(sort, field)) || undefined, page: undefined }),
    query,
  };
}
