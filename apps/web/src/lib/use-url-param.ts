import { useCallback } from 'react';
import { useLiveSearchParams } from './use-live-search-params';

/**
 * A list filter kept in the query string (like page and search): reading it, and setting
 * it, which also goes back to page 1.
 */
export function useUrlParam(name: string): [string | null, (value: string | null) => void] {
  const [params, replaceParams] = useLiveSearchParams();
  const set = useCallback(
    (value: string | null) =>
      replaceParams((current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        next.delete('page');
        return next;
      }),
    [name, replaceParams],
  );
  return [params.get(name), set];
}
