import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  emailDeliveryRoutes,
  reportRoutes,
  statisticsRoutes,
  type ParticipantStatistics,
  type ReportFormat,
  type SurveyTemplateTypeValue,
} from '@pss/contract';
import { call, callRaw } from '../../lib/api-client';
import { saveDownload } from '../../lib/download';

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

/** What a download asks for besides the report: the season, the file's format, the participant table's narrowing. */
interface ReportChoice {
  projectId: string;
  seasonName: string;
  format: ReportFormat;
  /** The participant table's search and progress filter, which the participants' report follows. */
  search?: string;
  progress?: ParticipantProgress;
}

/**
 * The season's reports the Progress Dashboard's menu offers, in its order, each with the call
 * that downloads it; its label is `progress.reports.<kind>` (lib/i18n/admin-areas/progress.ts).
 */
const offeredReports = {
  'participants-progress': ({ projectId, seasonName, format, search, progress }: ReportChoice) =>
    progress
      ? callRaw(reportRoutes.participantsProgressSubset, {
          params: { projectId },
          query: { seasonName, filter: JSON.stringify({ progress }), search, format },
        })
      : callRaw(reportRoutes.participantsProgress, { params: { projectId }, query: { seasonName, search, format } }),
  'project-progress': ({ projectId, seasonName, format }: ReportChoice) =>
    callRaw(reportRoutes.projectProgress, {
      params: { projectId },
      query: { filter: JSON.stringify({ season_name: seasonName }), format },
    }),
  'project-score': ({ projectId, seasonName, format }: ReportChoice) =>
    callRaw(reportRoutes.projectScore, { params: { projectId }, query: { seasonName, format } }),
  'project-usage': ({ projectId, format }: ReportChoice) =>
    callRaw(reportRoutes.projectUsage, { params: { projectId }, query: { format } }),
  'item-analysis': ({ projectId, seasonName, format }: ReportChoice) =>
    callRaw(reportRoutes.itemAnalysis, { params: { projectId }, query: { seasonName, format } }),
  'project-emails': ({ projectId, format }: ReportChoice) =>
    callRaw(reportRoutes.projectEmails, { params: { projectId }, query: { format } }),
};
export type OfferedReport = keyof typeof offeredReports;
export const reportKindsOffered = Object.keys(offeredReports) as OfferedReport[];

export interface ReportRequest extends ReportChoice {
  /** A report of the season, or the project's survey responses of one survey type (spec: reports per project). */
  report: OfferedReport | { surveyType: SurveyTemplateTypeValue };
}

/** Downloads a report as an attachment; the session's bearer token goes with the call. */
export function downloadReport(request: ReportRequest): Promise<void> {
  const { projectId, format } = request;
  if (typeof request.report === 'object') {
    const type = request.report.surveyType;
    return saveDownload(
      callRaw(reportRoutes.projectSurveyResponse, { params: { projectId, type }, query: { format } }),
      `survey-responses-${type.toLowerCase()}.${format}`,
    );
  }
  return saveDownload(offeredReports[request.report](request), `${request.report}.${format}`);
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
