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

export const reportKindsOffered = [
  'participants-progress',
  'project-progress',
  'project-score',
  'project-usage',
  'item-analysis',
] as const;
export type OfferedReport = (typeof reportKindsOffered)[number];

export interface ReportRequest {
  projectId: string;
  seasonName: string;
  /** A report of the season, or the project's survey responses of one survey type (spec: reports per project). */
  report: OfferedReport | { surveyType: SurveyTemplateTypeValue };
  format: ReportFormat;
  /** The participant table's search and progress filter, which the participants' report follows. */
  search?: string;
  progress?: ParticipantProgress;
}

/** Downloads a report as an attachment; the session's bearer token goes with the call. */
export function downloadReport(request: ReportRequest): Promise<void> {
  const { projectId, seasonName, format } = request;
  const params = { projectId };
  if (typeof request.report === 'object') {
    const type = request.report.surveyType;
    return saveDownload(
      callRaw(reportRoutes.projectSurveyResponse, { params: { projectId, type }, query: { format } }),
      `survey-responses-${type.toLowerCase()}.${format}`,
    );
  }
  const fallback = `${request.report}.${format}`;
  switch (request.report) {
    case 'participants-progress':
      return saveDownload(
        request.progress
          ? callRaw(reportRoutes.participantsProgressSubset, {
              params,
              query: {
                seasonName,
                filter: JSON.stringify({ progress: request.progress }),
                search: request.search,
                format,
              },
            })
          : callRaw(reportRoutes.participantsProgress, {
              params,
              query: { seasonName, search: request.search, format },
            }),
        fallback,
      );
    case 'project-progress':
      return saveDownload(
        callRaw(reportRoutes.projectProgress, {
          params,
          query: { filter: JSON.stringify({ season_name: seasonName }), format },
        }),
        fallback,
      );
    case 'project-score':
      return saveDownload(callRaw(reportRoutes.projectScore, { params, query: { seasonName, format } }), fallback);
    case 'project-usage':
      return saveDownload(callRaw(reportRoutes.projectUsage, { params, query: { format } }), fallback);
    case 'item-analysis':
      return saveDownload(callRaw(reportRoutes.itemAnalysis, { params, query: { seasonName, format } }), fallback);
  }
}
