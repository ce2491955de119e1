import { infiniteQueryOptions } from '@tanstack/react-query';
import { auditRoutes } from '@pss/contract';
import { call } from './api-client';

/** The audit trail's cached reads: the log's pages (features/audit) and a record's history. */
export const auditKeys = {
  all: ['audit'] as const,
  history: (targetType: string, targetId: string) => ['audit', 'history', targetType, targetId] as const,
};

const HISTORY_PAGE_SIZE = 20;

/** One record's events, newest first, a page more each time older ones are asked for. */
export function historyQueryOptions(targetType: string, targetId: string) {
  return infiniteQueryOptions({
    queryKey: auditKeys.history(targetType, targetId),
    queryFn: ({ signal, pageParam }) =>
      call(
        auditRoutes.list,
        {
          query: {
            target_type: targetType,
            target_id: targetId,
            cursor: pageParam || undefined,
            limit: HISTORY_PAGE_SIZE,
          },
        },
        { signal },
      ),
    initialPageParam: '',
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

/** The Audit log's address showing one record's events. */
export function logPathFor(targetType: string, targetId: string): string {
  return `/audit-log?${new URLSearchParams({ target_type: targetType, target_id: targetId }).toString()}`;
}
