import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { registerQueryClient } from './query-cache';

/** Queries never retry and never refetch on window focus (spec §9). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** One cache for the whole visit, made when the first screen that needs it arrives. */
const queryClient = createQueryClient();
registerQueryClient(queryClient);

/**
 * TanStack Query for the screens below: the staff shell, the participant's signed-in pages
 * and the public pages that read the API import it themselves, so the screens that need
 * none (sign-in) do not download it.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
