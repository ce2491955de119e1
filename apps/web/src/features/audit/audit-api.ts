import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { auditRoutes, projectRoutes, userRoutes, type ReportFormat } from '@pss/contract';
import { call, callRaw } from '../../lib/api-client';
import { saveDownload } from '../../lib/download';
import { apiFilters, type AuditFilterValues } from './audit-filters';

const logKeys = {
  page: (filters: AuditFilterValues, cursor: string | undefined) => ['audit', 'page', filters, cursor ?? ''] as const,
};

export const LOG_PAGE_SIZE = 50;

/** One page of the log: the filtered events before `cursor` (the newest without one). */
export function auditPageQueryOptions(filters: AuditFilterValues, cursor: string | undefined) {
  return queryOptions({
    queryKey: logKeys.page(filters, cursor),
    queryFn: ({ signal }) =>
      call(auditRoutes.list, { query: { ...apiFilters(filters), cursor, limit: LOG_PAGE_SIZE } }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** The filtered events as a file, saved by the browser. */
export function downloadAuditLog(filters: AuditFilterValues, format: ReportFormat): Promise<void> {
  return saveDownload(
    callRaw(auditRoutes.export, { query: { ...apiFilters(filters), format } }),
    `audit-log.${format}`,
  );
}

/** The projects the caller may see (a client administrator's own client's), for the project filter. */
export function projectOptionsQueryOptions() {
  return queryOptions({
    queryKey: ['audit', 'project-options'] as const,
    queryFn: ({ signal }) =>
      call(projectRoutes.list, { query: { limit: 200, sort: 'client_name:ASC,name:ASC' } }, { signal }),
    staleTime: 60_000,
  });
}

/**
 * People to pick as the actor, found by name or email: every user for provider staff, the
 * client's participants for a client administrator (what the users list shows each).
 */
export function actorSearchQueryOptions(search: string) {
  return queryOptions({
    queryKey: ['audit', 'actor-options', search] as const,
    queryFn: ({ signal }) =>
      call(userRoutes.list, { query: { limit: 20, search: search || undefined, sort: 'last_name:ASC' } }, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
