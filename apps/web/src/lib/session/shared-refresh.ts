const running = new Map<string, Promise<unknown>>();

/**
 * Runs a session refresh so that it is never sent twice with the same refresh cookie
 * (a used refresh token is spent). In this tab, callers that come while one runs share
 * its answer. Across tabs, a Web Lock queues the tabs' refreshes, so each sends the
 * cookie the previous one left; without Web Locks the server's short grace for a token
 * presented twice covers two tabs.
 *
 * `waitForOtherTabs: false` skips the lock, leaving two tabs to that grace: for the refresh
 * a page sends as it starts (./early-start.ts). The browser grants a lock in a task of its
 * own, which waits behind React's first render, so the first screen's session went out
 * that much later (on a phone's processor, a quarter of a second).
 */
export function sharedRefresh<T>(
  name: string,
  refresh: () => Promise<T>,
  { waitForOtherTabs = true }: { waitForOtherTabs?: boolean } = {},
): Promise<T> {
  const current = running.get(name) as Promise<T> | undefined;
  if (current) return current;
  const locks = typeof navigator === 'undefined' || !waitForOtherTabs ? undefined : navigator.locks;
  // The lock's promise settles with the callback's promise, unwrapped.
  const call = locks ? (locks.request(`pss-refresh:${name}`, () => refresh()) as Promise<T>) : refresh();
  const shared = call.finally(() => running.delete(name));
  running.set(name, shared);
  return shared;
}
