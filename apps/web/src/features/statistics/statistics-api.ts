import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { emailDeliveryRoutes, statisticsRoutes, type ParticipantStatistics } from '@pss/contract';
import { call } from '../../lib/api-client';

export type ParticipantProgress = ParticipantStatistics['progress'];

export interface ParticipantListParams {
  page: number;
  limit: number;
  search?: string;
  sort?: string;
  filter: { progress?: ParticipantProgress };
}

export interface AccountListParams {
  page: number;
  limit: number;
  search?: string;
  sort?: string;
}

/** Every figure of one season sits under its key, so one invalidation refreshes the dashboard. */
export const progressKeys = {
  all: ['progress'] as const,
  season: (projectId: string, seasonName: string) => ['progress', projectId, seasonName] as const,
  figure: (projectId: string, seasonName: string, figure: string) =>
    ['progress', projectId, seasonName, figure] as const,
  participants: (projectId: string, seasonName: string, params: ParticipantListParams) =>
    ['progress', projectId, seasonName, 'participants', params] as const,
  accounts: (projectId: string, params: AccountListParams) => ['progress', projectId, 'accounts', params] as const,
};

function seasonQuery<T>(
  projectId: string,
  seasonName: string,
  figure: string,
  fetch: (query: { seasonName: string }, signal: AbortSignal) => Promise<T>,
) {
  return queryOptions({
    queryKey: progressKeys.figure(projectId, seasonName, figure),
    queryFn: ({ signal }) => fetch({ seasonName }, signal),
    enabled: Boolean(projectId && seasonName),
  });
}

export const participationQueryOptions = (projectId: string, seasonName: string) =>
  seasonQuery(projectId, seasonName, 'participation', (query, signal) =>
    call(statisticsRoutes.participationRate, { params: { id: projectId }, query }, { signal }),
  );

export const caseCompletionRateQueryOptions = (projectId: string, seasonName: string) =>
  seasonQuery(projectId, seasonName, 'completion-cases', (query, signal) =>
    call(
      statisticsRoutes.completionRate,
      { params: { id: projectId }, query: { ...query, type: 'CASES' } },
      { signal },
    ),
  );

export const participantCompletionRateQueryOptions = (projectId: string, seasonName: string) =>
  seasonQuery(projectId, seasonName, 'completion-participants', (query, signal) =>
    call(
      statisticsRoutes.completionRate,
      { params: { id: projectId }, query: { ...query, type: 'PARTICIPANTS' } },
      { signal },
    ),
  );

export const byRoundQueryOptions = (projectId: string, seasonName: string) =>
  seasonQuery(projectId, seasonName, 'by-round', (query, signal) =>
    call(statisticsRoutes.byRound, { params: { id: projectId }, query }, { signal }),
  );

export const caseCompletionQueryOptions = (projectId: string, seasonName: string) =>
  seasonQuery(projectId, seasonName, 'case-completion', (query, signal) =>
    call(statisticsRoutes.caseCompletion, { params: { id: projectId }, query }, { signal }),
  );

export const completionsByDayQueryOptions = (projectId: string, seasonName: string) =>
  seasonQuery(projectId, seasonName, 'by-day', (query, signal) =>
    call(statisticsRoutes.completionsByDay, { params: { id: projectId }, query }, { signal }),
  );

export const categoryUseQueryOptions = (projectId: string, seasonName: string) =>
  seasonQuery(projectId, seasonName, 'categories', (query, signal) =>
    call(statisticsRoutes.categoryUse, { params: { id: projectId }, query }, { signal }),
  );

export const itemAnalysisQueryOptions = (projectId: string, seasonName: string) =>
  seasonQuery(projectId, seasonName, 'item-analysis', (query, signal) =>
    call(statisticsRoutes.itemAnalysis, { params: { id: projectId }, query }, { signal }),
  );

export function participantProgressQueryOptions(projectId: string, seasonName: string, params: ParticipantListParams) {
  return queryOptions({
    queryKey: progressKeys.participants(projectId, seasonName, params),
    queryFn: ({ signal }) =>
      call(
        statisticsRoutes.participants,
        { params: { id: projectId }, query: { ...params, seasonName, filter: JSON.stringify(params.filter) } },
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled: Boolean(projectId && seasonName),
  });
}

export function connectedAccountsQueryOptions(projectId: string, params: AccountListParams) {
  return queryOptions({
    queryKey: progressKeys.accounts(projectId, params),
    queryFn: ({ signal }) =>
      call(
        statisticsRoutes.connectedAccounts,
        { params: { id: projectId }, query: { ...params, filter: '{}' } },
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled: Boolean(projectId),
  });
}

/** The season the dashboard opens on (the contract's rule, which the statistics calls follow too). */
export { defaultSeason } from '@pss/contract';

/** How the project's emails fared (all seasons): by type, the unsubscribed, the bounce rate. */
export function emailDeliveryQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: [...progressKeys.all, projectId, 'email-delivery'] as const,
    queryFn: ({ signal }) => call(emailDeliveryRoutes.stats, { params: { id: projectId } }, { signal }),
  });
}
