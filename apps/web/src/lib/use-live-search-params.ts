import { useCallback, useContext } from 'react';
import { UNSAFE_DataRouterContext, useSearchParams } from 'react-router';

/**
 * The query string, and a way to change it in place (history replace) that starts from the
 * URL as it is now.
 *
 * React Router's `setSearchParams` hands a functional update the query string of the render
 * the setter came from. The router renders a navigation in a transition, so for a moment
 * after one change the screen still holds the old setter: a second change made then (a
 * debounced search applied just after a filter was picked) starts from the old query and
 * drops the first (the delivery log lost its status filter that way). Here every change
 * starts from the router's own current location; outside a data router (unit tests with a
 * MemoryRouter) from the render's, as before.
 */
export function useLiveSearchParams(): [
  URLSearchParams,
  (update: (current: URLSearchParams) => URLSearchParams) => void,
] {
  const [params, setParams] = useSearchParams();
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  const replace = useCallback(
    (update: (current: URLSearchParams) => URLSearchParams) =>
      setParams(
        (rendered) => update(dataRouter ? new URLSearchParams(dataRouter.router.state.location.search) : rendered),
        { replace: true },
      ),
    [setParams, dataRouter],
  );
  return [params, replace];
}
