import type { QueryClient } from '@tanstack/react-query';

/**
 * The app's query cache, once a screen that reads the API through TanStack Query has brought
 * it (lib/query-provider.tsx). The sign-in screens do not: they leave the query library out
 * of their first download, so the session, which must empty the cache when it
 * ends, reaches it here rather than through a provider above every screen.
 */
let client: QueryClient | null = null;

export function registerQueryClient(queryClient: QueryClient): void {
  client = queryClient;
}

/** Forgets every cached answer (the session ended: the next person must not see them). */
export function clearQueryCache(): void {
  client?.clear();
}
