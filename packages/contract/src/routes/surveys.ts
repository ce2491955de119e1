import { z } from 'zod';
import { idParams } from '../clients.js';
import { route } from '../route.js';
import {
  createSurveyTemplateBody,
  deletedSurveyTemplates,
  dueSurveys,
  duplicateSurveyTemplateBody,
  endSurveyDue,
  linkedProject,
  projectSurvey,
  projectSurveyBody,
  surveyAnswerBody,
  surveyAnswerResult,
  surveyTemplate,
  surveyTemplateDeleteQuery,
  surveyTemplateListQuery,
  surveyTemplatePage,
  updateSurveyTemplateBody,
} from '../surveys.js';

const attemptParams = z.object({ userSeasonRoundCaseId: z.string().uuid() });

/**
 * Survey templates (superadmins build them; any staff member reads those their client's
 * projects may use), a project's choice of one template per type, and participants' answers.
 */
export const surveyRoutes = {
  list: route({
    method: 'GET',
    path: '/survey-templates',
    access: 'admin',
    query: surveyTemplateListQuery,
    reply: surveyTemplatePage,
  }),
  create: route({
    method: 'POST',
    path: '/survey-templates',
    access: 'superadmin',
    audit: { kind: 'change', name: 'surveys.create' },
    body: createSurveyTemplateBody,
    status: 201,
    reply: surveyTemplate,
  }),
  remove: route({
    method: 'DELETE',
    path: '/survey-templates',
    access: 'superadmin',
    audit: { kind: 'change', name: 'surveys.remove' },
    query: surveyTemplateDeleteQuery,
    reply: deletedSurveyTemplates,
  }),
  get: route({
    method: 'GET',
    path: '/survey-templates/:id',
    access: 'admin',
    params: idParams,
    reply: surveyTemplate,
  }),
  update: route({
    method: 'PUT',
    path: '/survey-templates/:id',
    access: 'superadmin',
    audit: { kind: 'change', name: 'surveys.update' },
    params: idParams,
    body: updateSurveyTemplateBody,
    reply: surveyTemplate,
  }),
  duplicate: route({
    method: 'POST',
    path: '/survey-templates/:id/duplicate',
    access: 'superadmin',
    audit: { kind: 'change', name: 'surveys.duplicate' },
    params: idParams,
    body: duplicateSurveyTemplateBody,
    status: 201,
    reply: surveyTemplate,
  }),
  projects: route({
    method: 'GET',
    path: '/survey-templates/:id/projects',
    access: 'admin',
    params: idParams,
    reply: z.array(linkedProject),
  }),
  answer: route({
    method: 'POST',
    path: '/survey-templates/:id/:userSeasonRoundCaseId/answer',
    access: 'participant',
    audit: { kind: 'change', name: 'surveys.answer' },
    params: z.object({ id: z.string().uuid(), userSeasonRoundCaseId: z.string().uuid() }),
    body: surveyAnswerBody,
    reply: surveyAnswerResult,
  }),
  getProjectSurvey: route({
    method: 'GET',
    path: '/projects/:id/survey',
    access: 'admin',
    params: idParams,
    reply: projectSurvey,
  }),
  setProjectSurvey: route({
    method: 'PUT',
    path: '/projects/:id/survey',
    access: 'admin',
    audit: { kind: 'change', name: 'surveys.setProjectSurvey' },
    params: idParams,
    body: projectSurveyBody,
    reply: projectSurvey,
  }),
  due: route({
    method: 'GET',
    path: '/users/:userSeasonRoundCaseId/surveys',
    access: 'participant',
    params: attemptParams,
    reply: dueSurveys,
  }),
  endSurvey: route({
    method: 'GET',
    path: '/users/:userSeasonRoundCaseId/endSurvey/:projectId',
    access: 'participant',
    params: z.object({ userSeasonRoundCaseId: z.string().uuid(), projectId: z.string().uuid() }),
    reply: endSurveyDue,
  }),
};
