import { owned, staff, superadmin, participant, type MatrixRow } from './expectations.js';
import { get, del, post, put, attemptFor } from './requests.js';

/** Reports, the participants' side of a case, and survey templates. */
export const reportsAttemptsSurveysRows: Record<string, MatrixRow> = {
  // Reports (files of client A's project; another client's administrator is told 404 and sent no file)
  'GET /api/reports/:projectId/participants-progress': {
    expect: owned(200),
    request: (w) =>
      get(`/reports/${w.project.id}/participants-progress?seasonName=${encodeURIComponent(w.season.name)}`),
  },
  'GET /api/reports/:projectId/participants-progress-subset': {
    expect: owned(200),
    request: (w) =>
      get(
        `/reports/${w.project.id}/participants-progress-subset?format=xlsx&filter=${encodeURIComponent('{"progress":"IN_PROGRESS"}')}`,
      ),
  },
  'GET /api/reports/:projectId/project-progress': {
    expect: owned(200),
    request: (w) => get(`/reports/${w.project.id}/project-progress`),
  },
  'GET /api/reports/:projectId/item-analysis': {
    expect: owned(200),
    request: (w) => get(`/reports/${w.project.id}/item-analysis?seasonName=${encodeURIComponent(w.season.name)}`),
  },
  'GET /api/reports/:projectId/certificates': {
    expect: owned(200),
    request: (w) => get(`/reports/${w.certificates.resultsProjectId}/certificates?format=xlsx`),
  },
  'GET /api/reports/:projectId/project-score': {
    expect: owned(200),
    request: (w) => get(`/reports/${w.project.id}/project-score?format=xlsx`),
  },
  'GET /api/reports/:projectId/project-survey-response/:type': {
    expect: owned(200),
    request: (w) => get(`/reports/${w.project.id}/project-survey-response/START_NEW`),
  },
  'GET /api/reports/:projectId/project-usage': {
    expect: owned(200),
    request: (w) => get(`/reports/${w.project.id}/project-usage`),
  },
  'GET /api/reports/:projectId/project-emails': {
    expect: owned(200),
    request: (w) => get(`/reports/${w.project.id}/project-emails`),
  },

  // The participants' side: each participant on their own attempt, in the order a case is taken
  'GET /api/dashboard': { expect: participant(200), request: () => get('/dashboard') },
  'GET /api/users/:userSeasonRoundCaseId/questions': {
    expect: participant(200),
    request: (w, caller) => get(`/users/${attemptFor(w, caller)}/questions`),
  },
  'GET /api/case/:caseId': { expect: participant(200), request: (w) => get(`/case/${w.runningCase.id}`) },
  'GET /api/case/:caseId/image': { expect: participant(200), request: (w) => get(`/case/${w.runningCase.id}/image`) },
  // The start survey comes first (the server keeps the order: START_SURVEY_REQUIRED).
  'POST /api/cases/:id/start': {
    expect: participant(200),
    request: async (w, caller) => {
      if (caller === 'participant' || caller === 'testUser') await w.answerStartSurvey(caller);
      return post(`/cases/${attemptFor(w, caller)}/start`);
    },
  },
  'POST /api/cases/:id/answer': {
    expect: participant(200),
    request: async (w, caller) => {
      // The other required answers first (as the caller), so that the submit after this succeeds.
      if (caller === 'participant' || caller === 'testUser') {
        await w.answerStartSurvey(caller);
        await w.answerTheRest(caller);
      }
      return post(`/cases/${attemptFor(w, caller)}/answer`, w.firstAnswer);
    },
  },
  'POST /api/cases/:id/submit': {
    expect: participant(200),
    request: async (w, caller) => {
      if (caller === 'participant' || caller === 'testUser') await w.answerStartSurvey(caller);
      return post(`/cases/${attemptFor(w, caller)}/submit`);
    },
  },
  'POST /api/cases/:id/score-accessed': {
    expect: participant(204),
    request: (w, caller) => post(`/cases/${attemptFor(w, caller)}/score-accessed`),
  },
  'POST /api/cases/:id/finish': {
    expect: participant(204),
    request: (w, caller) => post(`/cases/${attemptFor(w, caller)}/finish`),
  },
  // Survey templates: superadmins write them; staff read those their client may (the world
  // project's templates are client A's: client B's administrator is told 404).
  // By the spec's `client` and `project` (client B's administrator is shown nothing of A's).
  'GET /api/survey-templates': {
    expect: staff(200),
    request: (w) => get(`/survey-templates?search=survey&client=${w.clientA.id}&project=${w.project.id}`),
  },
  'POST /api/survey-templates': {
    expect: superadmin(201),
    request: (w) => post('/survey-templates', w.surveys.body(w.unique('Survey'), 'REVIEW')),
  },
  'DELETE /api/survey-templates': {
    expect: superadmin(200),
    request: async (w) =>
      del(`/survey-templates?filter=${encodeURIComponent(JSON.stringify({ ids: [await w.make.surveyTemplate()] }))}`),
  },
  'GET /api/survey-templates/:id': {
    expect: owned(200),
    request: (w) => get(`/survey-templates/${w.surveys.startNew}`),
  },
  'PUT /api/survey-templates/:id': {
    expect: superadmin(200),
    request: (w) => put(`/survey-templates/${w.surveys.free}`, w.surveys.body('Unused survey', 'START_NEW')),
  },
  'POST /api/survey-templates/:id/duplicate': {
    expect: superadmin(201),
    request: (w) => post(`/survey-templates/${w.surveys.startNew}/duplicate`, { name: w.unique('Copy') }),
  },
  'GET /api/survey-templates/:id/projects': {
    expect: owned(200),
    request: (w) => get(`/survey-templates/${w.surveys.startNew}/projects`),
  },
  'GET /api/projects/:id/survey': { expect: owned(200), request: (w) => get(`/projects/${w.project.id}/survey`) },
  'PUT /api/projects/:id/survey': {
    expect: owned(200),
    request: (w) => put(`/projects/${w.project.id}/survey`, { start_new_template_id: w.surveys.startNew }),
  },
  'GET /api/users/:userSeasonRoundCaseId/surveys': {
    expect: participant(200),
    request: (w, caller) => get(`/users/${attemptFor(w, caller)}/surveys`),
  },
  'GET /api/users/:userSeasonRoundCaseId/endSurvey/:projectId': {
    expect: participant(200),
    request: (w, caller) => get(`/users/${attemptFor(w, caller)}/endSurvey/${w.project.id}`),
  },
  // Answers so far (`complete: false`) to the start survey due to the caller on their case of
  // the results project (due there for ever: see the world), whatever ran before.
  'POST /api/survey-templates/:id/:userSeasonRoundCaseId/answer': {
    expect: participant(200),
    request: async (w, caller) => {
      const attempt = caller === 'testUser' ? w.resultsAttempts.testUser : w.resultsAttempts.participant;
      let template = w.surveys.startNew;
      if (caller === 'participant' || caller === 'testUser') {
        const due = await w.call<{ start: { template_id: string } | null }>(caller, 'GET', `/users/${attempt}/surveys`);
        template = due.start?.template_id ?? template;
      }
      return post(`/survey-templates/${template}/${attempt}/answer`, { answers: [], complete: false });
    },
  },
};
