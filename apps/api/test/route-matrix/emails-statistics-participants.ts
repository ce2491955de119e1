import { owned, staff, type MatrixRow } from './expectations.js';
import { get, post, put, upload, participantsCsv, emailBody } from './requests.js';

/** A project's emails, statistics and participants. */
export const emailsStatisticsParticipantsRows: Record<string, MatrixRow> = {
  // Emails (the id of `email`, `email-status` and the season ones is the template's)
  'GET /api/projects/:id/emails-list': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/emails-list`),
  },
  'GET /api/projects/:id/season-emails-list': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/season-emails-list?seasonName=${encodeURIComponent(w.season.name)}`),
  },
  'POST /api/projects/:id/email': {
    expect: owned(200),
    request: (w) => post(`/projects/${w.emails.project}/email`, emailBody),
  },
  'POST /api/projects/:id/email-status': {
    expect: owned(200),
    request: (w) => post(`/projects/${w.emails.project}/email-status`, { enabled: true }),
  },
  'POST /api/projects/:id/season-email': {
    expect: owned(200),
    request: (w) => post(`/projects/${w.emails.season}/season-email`, emailBody),
  },
  'POST /api/projects/:id/season-email-status': {
    expect: owned(200),
    request: (w) => post(`/projects/${w.emails.season}/season-email-status`, { enabled: true }),
  },
  'POST /api/projects/:id/disable-emails': {
    expect: owned(200),
    request: async (w) => post(`/projects/${await w.make.project()}/disable-emails`),
  },
  'POST /api/projects/:id/disable-season-emails': {
    expect: owned(200),
    // The specification's form: the season in the query (a JSON body is taken too).
    request: async (w) => post(`/projects/${await w.make.project()}/disable-season-emails?seasonName=Spring%202026`),
  },

  'POST /api/projects/:id/send-email-test': {
    expect: owned(202),
    request: (w) => post(`/projects/${w.emails.project}/send-email-test`, { emails: ['test@example.test'] }),
  },
  'POST /api/projects/:id/send-email': {
    expect: owned(202),
    request: (w) => post(`/projects/${w.emails.project}/send-email`, { ids: [w.users.participant.id] }),
  },
  'POST /api/projects/:id/email-preview': {
    expect: owned(200),
    request: (w) =>
      post(`/projects/${w.emails.project}/email-preview`, {
        subject: emailBody.subject,
        body: emailBody.body,
        button_text: emailBody.button_text,
        dashboard_url_text: emailBody.dashboard_url_text,
        participant_id: w.users.participant.id,
      }),
  },
  'GET /api/projects/:id/email-deliveries': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/email-deliveries`),
  },
  'POST /api/projects/:id/email-deliveries/:deliveryId/resend': {
    expect: owned(202),
    request: (w) => post(`/projects/${w.project.id}/email-deliveries/${w.emails.delivery}/resend`, {}),
  },
  'GET /api/projects/:id/email-delivery-stats': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/email-delivery-stats`),
  },
  'POST /api/users/:userId/:projectId/dashboard-link': {
    expect: owned(200),
    request: (w) => post(`/users/${w.users.participant.id}/${w.project.id}/dashboard-link`, {}),
  },
  'POST /api/users/:userId/:projectId/send-link': {
    expect: owned(202),
    request: (w) => post(`/users/${w.users.participant.id}/${w.project.id}/send-link`, {}),
  },
  'GET /api/projects/:id/email-schedule': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/email-schedule?date=2026-03-03`),
  },
  'GET /api/projects/:id/email-calendar': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/email-calendar`),
  },

  // Statistics (the id is the project's)
  'GET /api/statistics/:id/overal-participation-rate': {
    expect: owned(200),
    request: (w) =>
      get(`/statistics/${w.project.id}/overal-participation-rate?seasonName=${encodeURIComponent(w.season.name)}`),
  },
  'GET /api/statistics/:id/overal-completion-rate': {
    expect: owned(200),
    request: (w) =>
      get(
        `/statistics/${w.project.id}/overal-completion-rate?seasonName=${encodeURIComponent(w.season.name)}&type=PARTICIPANTS`,
      ),
  },
  'GET /api/statistics/:id/participation-completion-by-round': {
    expect: owned(200),
    request: (w) =>
      get(
        `/statistics/${w.project.id}/participation-completion-by-round?seasonName=${encodeURIComponent(w.season.name)}`,
      ),
  },
  'GET /api/statistics/:id/case-completion': {
    expect: owned(200),
    request: (w) => get(`/statistics/${w.project.id}/case-completion?seasonName=${encodeURIComponent(w.season.name)}`),
  },
  'GET /api/statistics/:id/completions-by-day': {
    expect: owned(200),
    request: (w) =>
      get(`/statistics/${w.project.id}/completions-by-day?seasonName=${encodeURIComponent(w.season.name)}`),
  },
  'GET /api/statistics/:id/question-categories': {
    expect: owned(200),
    request: (w) =>
      get(`/statistics/${w.project.id}/question-categories?seasonName=${encodeURIComponent(w.season.name)}`),
  },
  'GET /api/statistics/:id/item-analysis': {
    expect: owned(200),
    request: (w) => get(`/statistics/${w.project.id}/item-analysis?seasonName=${encodeURIComponent(w.season.name)}`),
  },
  'GET /api/statistics/:id/participants': {
    expect: owned(200),
    request: (w) => get(`/statistics/${w.project.id}/participants?seasonName=${encodeURIComponent(w.season.name)}`),
  },
  'GET /api/statistics/:id/client-connected-accounts': {
    expect: owned(200),
    request: (w) => get(`/statistics/${w.project.id}/client-connected-accounts`),
  },
  'POST /api/statistics/scoring-update': {
    expect: { ...owned(200), otherAdmin: 404 },
    request: (w) => post('/statistics/scoring-update', { project_id: w.project.id }),
  },

  // Participants
  'POST /api/projects/:id/upload': {
    // Into a project of its own: a waiting import blocks archiving in the world's project.
    expect: owned(202),
    request: async (w) => upload(`/projects/${await w.make.project()}/upload`, participantsCsv(w), 'people.csv'),
  },
  'GET /api/projects/:id/import': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/import?type=PARTICIPANTS`),
  },
  'GET /api/projects/:id/users': { expect: owned(200), request: (w) => get(`/projects/${w.project.id}/users`) },
  'GET /api/projects/:id/usersId': { expect: owned(200), request: (w) => get(`/projects/${w.project.id}/usersId`) },
  'GET /api/projects/:id/export': { expect: owned(200), request: (w) => get(`/projects/${w.project.id}/export`) },
  'PUT /api/users/:usersIds/:projectId/archive': {
    expect: owned(200),
    request: (w) => put(`/users/${w.users.testUser.id}/${w.project.id}/archive`),
  },
  'PUT /api/users/:usersIds/:projectId/unarchive': {
    expect: owned(200),
    request: (w) => put(`/users/${w.users.testUser.id}/${w.project.id}/unarchive`),
  },
  'PUT /api/users/:userId/:projectId/notes': {
    expect: owned(204),
    request: (w) => put(`/users/${w.users.participant.id}/${w.project.id}/notes`, { notes: 'Prefers email.' }),
  },
  'POST /api/users/upload': {
    expect: owned(202),
    request: (w) => upload(`/users/upload?client_id=${w.clientA.id}`, participantsCsv(w), 'new-users.csv'),
  },
  'GET /api/users/:userId/import': {
    expect: owned(200),
    request: (w) => get(`/users/${w.users.ownerAdmin.id}/import`),
  },
  'GET /api/users/:ceClientId/:projectId/import': {
    expect: owned(200),
    request: (w) => get(`/users/${w.clientA.id}/${w.project.id}/import`),
  },
  'GET /api/users/import/example': { expect: staff(200), request: () => get('/users/import/example') },
};
