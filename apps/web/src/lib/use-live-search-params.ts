import { useCallback } from 'react';
import { useSearchParams } from './screen-router';

/**
 * The query string, and a way to change it in place (history replace) that starts from the
 * URL as it is now.
 *
 * A list's changes come from timers as well as clicks (a debounced search applied just after
 * a filter was picked): each must start from the query as it is when it is applied, not as
 * the render that made the timer saw it, or it drops the change made in between (the
 * delivery log once lost its status filter that way, with React Router's setter). The app's
 * router hands a functional update the current query; this names that contract, and the
 * test beside it holds the router to it.
 */
export function useLiveSearchParams(): [
  URLSearchParams,
  (update: (current: URLSearchParams) => URLSearchParams) => void,
] {
  const [params, setParams] = useSearchParams();
  const replace = useCallback(
    (update: (current: URLSearchParams) => URLSearchParams) => setParams(update, { replace: true }),
    [setParams],
  );
  return [params, replace];
}
