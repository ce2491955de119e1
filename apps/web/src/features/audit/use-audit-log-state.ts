import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigation, useScreenRouter } from '../../lib/screen-router';
import { useLiveSearchParams } from '../../lib/use-live-search-params';
import { cursorFromParams, type FILTER_KEYS, filtersFromParams, type AuditFilterValues } from './audit-filters';

type FilterKey = (typeof FILTER_KEYS)[number];

export interface AuditLogState {
  filters: AuditFilterValues;
  /** The page shown: the `next_cursor` that led to it, none for the newest. */
  cursor: string | undefined;
  /** How many pages older than the newest this one is, as far as this visit knows (0: the newest). */
  depth: number;
  setFilter(key: FilterKey, value: string | null): void;
  clearFilters(): void;
  older(nextCursor: string): void;
  /** Back one page; only after `older` in this visit. */
  newer(): void;
  newest(): void;
  canGoNewer: boolean;
}

/**
 * The log's filters and page, kept in the address (`?action=cases.update&cursor=812`) so that a
 * reload or a shared link shows the same events. Keyset paging goes one way: the cursors of the
 * pages passed through are kept here to step back one page at a time; a changed filter starts
 * again from the newest.
 */
export function useAuditLogState(): AuditLogState {
  const [params, replaceParams] = useLiveSearchParams();
  const query = params.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the query string, not the object
  const filters = useMemo(() => filtersFromParams(params), [query]);
  const cursor = cursorFromParams(params);
  // The cursors of the newer pages passed through, newest first ('' is the newest page).
  const [trail, setTrail] = useState<string[]>([]);

  const setCursor = useCallback(
    (next: string | undefined) =>
      replaceParams((current) => {
        const updated = new URLSearchParams(current);
        if (next) updated.set('cursor', next);
        else updated.delete('cursor');
        return updated;
      }),
    [replaceParams],
  );

  const setFilter = useCallback(
    (key: FilterKey, value: string | null) => {
      setTrail([]);
      replaceParams((current) => {
        const updated = new URLSearchParams(current);
        if (value?.trim()) updated.set(key, value.trim());
        else updated.delete(key);
        updated.delete('cursor');
        return updated;
      });
    },
    [replaceParams],
  );

  return {
    filters,
    cursor,
    depth: cursor ? Math.max(trail.length, 1) : 0,
    setFilter,
    clearFilters: () => {
      setTrail([]);
      replaceParams(() => new URLSearchParams());
    },
    older: (nextCursor) => {
      setTrail([...trail, cursor ?? '']);
      setCursor(nextCursor);
    },
    newer: () => {
      const previous = trail.at(-1);
      setTrail(trail.slice(0, -1));
      setCursor(previous || undefined);
    },
    newest: () => {
      setTrail([]);
      setCursor(undefined);
    },
    canGoNewer: trail.length > 0,
  };
}

const TYPING_PAUSE_MS = 400;

/**
 * A typed filter (an action, an ID): what the box shows, applied once typing pauses — unless the
 * person has meanwhile gone to another screen (as lib/use-list-state.ts's search), where it must
 * not land. A filter changed from elsewhere (a link, Clear) shows in the box.
 */
export function useTypedFilter(
  state: Pick<AuditLogState, 'filters' | 'setFilter'>,
  key: FilterKey,
  accept: (value: string) => boolean = acceptAny,
): { value: string; onChange(value: string): void } {
  const applied = state.filters[key] ?? '';
  const { setFilter } = state;
  const [value, setValue] = useState(applied);
  useEffect(() => setValue(applied), [applied]);
  const router = useScreenRouter();
  const navigating = useNavigation().state !== 'idle';
  const { pathname } = useLocation();
  useEffect(() => {
    const typed = value.trim();
    if (typed === applied || navigating || (typed !== '' && !accept(typed))) return;
    const timer = setTimeout(() => {
      const now = router.state;
      if (now.navigation !== 'idle' || now.location.pathname !== pathname) return;
      setFilter(key, typed);
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value, applied, navigating, router, pathname, accept, key, setFilter]);
  return { value, onChange: setValue };
}

const acceptAny = () => true;
