import {
  reportRoutes,
  type ParticipantStatistics,
  type ReportFormat,
  type SurveyTemplateTypeValue,
} from '@pss/contract';
import { callRaw } from '../../lib/api-client';
import { saveDownload } from '../../lib/download';

/** A participant's progress, the filter of the participant table that the participants' report follows. */
type ParticipantProgress = ParticipantStatistics['progress'];

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
