import {
  certificatesReportQuery,
  itemAnalysisReportQuery,
  participantsProgressQuery,
  participantsProgressSubsetQuery,
  projectProgressQuery,
  projectScoreQuery,
  reportContentTypes,
  reportFormatQuery,
  reportParams,
  surveyResponseParams,
} from '../reports.js';
import { route } from '../route.js';

/** Every report answers a file: CSV (the default) or XLSX (`format=xlsx`). */
const produces = [reportContentTypes.csv, reportContentTypes.xlsx] as const;

/** A project's downloadable reports (the Progress Dashboard's download menu). */
export const reportRoutes = {
  participantsProgress: route({
    method: 'GET',
    path: '/reports/:projectId/participants-progress',
    access: 'admin',
    audit: { kind: 'download', name: 'reports.participantsProgress' },
    params: reportParams,
    query: participantsProgressQuery,
    produces,
  }),
  participantsProgressSubset: route({
    method: 'GET',
    path: '/reports/:projectId/participants-progress-subset',
    access: 'admin',
    audit: { kind: 'download', name: 'reports.participantsProgressSubset' },
    params: reportParams,
    query: participantsProgressSubsetQuery,
    produces,
  }),
  projectProgress: route({
    method: 'GET',
    path: '/reports/:projectId/project-progress',
    access: 'admin',
    audit: { kind: 'download', name: 'reports.projectProgress' },
    params: reportParams,
    query: projectProgressQuery,
    produces,
  }),
  projectScore: route({
    method: 'GET',
    path: '/reports/:projectId/project-score',
    access: 'admin',
    audit: { kind: 'download', name: 'reports.projectScore' },
    params: reportParams,
    query: projectScoreQuery,
    produces,
  }),
  itemAnalysis: route({
    method: 'GET',
    path: '/reports/:projectId/item-analysis',
    access: 'admin',
    audit: { kind: 'download', name: 'reports.itemAnalysis' },
    params: reportParams,
    query: itemAnalysisReportQuery,
    produces,
  }),
  certificates: route({
    method: 'GET',
    path: '/reports/:projectId/certificates',
    access: 'admin',
    audit: { kind: 'download', name: 'reports.certificates' },
    params: reportParams,
    query: certificatesReportQuery,
    produces,
  }),
  projectSurveyResponse: route({
    method: 'GET',
    path: '/reports/:projectId/project-survey-response/:type',
    access: 'admin',
    audit: { kind: 'download', name: 'reports.projectSurveyResponse' },
    params: surveyResponseParams,
    query: reportFormatQuery,
    produces,
  }),
  projectUsage: route({
    method: 'GET',
    path: '/reports/:projectId/project-usage',
    access: 'admin',
    audit: { kind: 'download', name: 'reports.projectUsage' },
    params: reportParams,
    query: reportFormatQuery,
    produces,
  }),
};
