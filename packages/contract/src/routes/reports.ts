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
    params: reportParams,
    query: participantsProgressQuery,
    produces,
  }),
  participantsProgressSubset: route({
    method: 'GET',
    path: '/reports/:projectId/participants-progress-subset',
    access: 'admin',
    params: reportParams,
    query: participantsProgressSubsetQuery,
    produces,
  }),
  projectProgress: route({
    method: 'GET',
    path: '/reports/:projectId/project-progress',
    access: 'admin',
    params: reportParams,
    query: projectProgressQuery,
    produces,
  }),
  projectScore: route({
    method: 'GET',
    path: '/reports/:projectId/project-score',
    access: 'admin',
    params: reportParams,
    query: projectScoreQuery,
    produces,
  }),
  itemAnalysis: route({
    method: 'GET',
    path: '/reports/:projectId/item-analysis',
    access: 'admin',
    params: reportParams,
    query: itemAnalysisReportQuery,
    produces,
  }),
  certificates: route({
    method: 'GET',
    path: '/reports/:projectId/certificates',
    access: 'admin',
    params: reportParams,
    query: certificatesReportQuery,
    produces,
  }),
  projectSurveyResponse: route({
    method: 'GET',
    path: '/reports/:projectId/project-survey-response/:type',
    access: 'admin',
    params: surveyResponseParams,
    query: reportFormatQuery,
    produces,
  }),
  projectUsage: route({
    method: 'GET',
    path: '/reports/:projectId/project-usage',
    access: 'admin',
    params: reportParams,
    query: reportFormatQuery,
    produces,
  }),
  projectEmails: route({
    method: 'GET',
    path: '/reports/:projectId/project-emails',
    access: 'admin',
    params: reportParams,
    query: reportFormatQuery,
    produces,
  }),
};
