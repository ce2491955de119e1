import { perfectAnswers, validCase } from './case-bodies.js';
import { multipartFile, projectBody } from './fixtures.js';
import { smallPdf, videoHead } from './summary-files.js';
import type { Caller, World, WorldRequest } from './world.js';

/**
 * The route matrix: for every route the API registers, what each kind of caller gets.
 * `route-matrix.test.ts` walks every route × caller against a populated database
 * (`world.ts`) and fails on any route without a row here, so a new route cannot be added
 * without saying who may call it and proving it.
 *
 * The owner is client A's administrator and every request names client A's records, so
 * client B's administrator ("otherAdmin") must be told 404 NOT_FOUND — never a 2xx and
 * never a hint that the record exists — unless the call is about the caller's own things
 * (lists, which must then show nothing of client A's).
 */
export type Expectation = Record<Caller, number>;

export interface MatrixRow {
  expect: Expectation;
  /** The request, made anew for each caller (calls that use up their target get a fresh one). */
  request: (w: World, caller: Caller) => WorldRequest | Promise<WorldRequest>;
}

/* ---------- what each kind of route answers ---------- */

/** Client A's record: its administrator and the superadmin may; client B's is told 404. */
const owned = (ok: number, superadmin = ok): Expectation => ({
  anonymous: 401,
  participant: 403,
  testUser: 403,
  otherAdmin: 404,
  ownerAdmin: ok,
  superadmin,
});
/** Any staff member, each seeing their own (lists are scoped to the caller's client). */
const staff = (ok: number): Expectation => ({
  anonymous: 401,
  participant: 403,
  testUser: 403,
  otherAdmin: ok,
  ownerAdmin: ok,
  superadmin: ok,
});
/** Provider staff only. */
const superadmin = (ok: number): Expectation => ({
  anonymous: 401,
  participant: 403,
  testUser: 403,
  otherAdmin: 403,
  ownerAdmin: 403,
  superadmin: ok,
});
/** Participants (a clinician and a test user), each on their own case. */
const participant = (ok: number): Expectation => ({
  anonymous: 401,
  participant: ok,
  testUser: ok,
  otherAdmin: 403,
  ownerAdmin: 403,
  superadmin: 403,
});
/** Staff as for client A's records, and the participant the record is (the test user is someone else). */
const self = (ok: number): Expectation => ({ ...owned(ok), participant: ok, testUser: 404 });
/** Anyone, signed in or not. */
const anyone = (status: number): Expectation => ({
  anonymous: status,
  participant: status,
  testUser: status,
  otherAdmin: status,
  ownerAdmin: status,
  superadmin: status,
});

/* ---------- request helpers ---------- */

const get = (url: string): WorldRequest => ({ method: 'GET', url });
const del = (url: string): WorldRequest => ({ method: 'DELETE', url });
const post = (url: string, payload?: unknown): WorldRequest => ({ method: 'POST', url, payload });
const put = (url: string, payload?: unknown): WorldRequest => ({ method: 'PUT', url, payload });
const upload = (url: string, content: string | Buffer, fileName: string): WorldRequest => {
  const file = multipartFile(content, fileName);
  return { method: 'POST', url, payload: file.payload, headers: file.headers };
};

/** The attempt a participant-side call is about: the caller's own when they have one. */
const attemptFor = (w: World, caller: Caller) => (caller === 'testUser' ? w.attempts.testUser : w.attempts.participant);

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = smallPdf();
const MP4 = videoHead('mp4');
const RTF = '{\\rtf1\\ansi Case name: Fever in a child\\par Patient name: Tom\\par}';
const participantsCsv = (w: World) =>
  'user_id,first_name,last_name,email,role,profession\n' +
  `matrix-${w.unique('u').replace(/\W/g, '')},Ann,Lee,${w.unique('ann').replace(/\W/g, '')}@example.test,USER,MD\n`;

const emailBody = {
  subject: '{project_name}: round {round_number} is open',
  body: '<p>Dear {first_name},</p><p>Your cases are waiting.</p>',
  button_text: 'Open my dashboard',
  dashboard_url_text: 'Your dashboard',
  send_mode: 'AUTOMATIC',
};

/** The world project's seasons as an update body names them, so none is removed. */
function projectUpdate(w: World) {
  return {
    name: w.project.name,
    disease_types: w.project.disease_types.map((d) => d.name),
    question_categories: w.project.question_categories.map((c) => c.name),
    status: 'ACTIVE',
    seasons: w.project.seasons.map((s) => ({
      id: s.id,
      name: s.name,
      rounds: s.rounds.map((r) => ({ number: r.number, start_date: r.start_date, end_date: r.end_date })),
    })),
  };
}

/* ---------- the matrix ---------- */

export const routeMatrix: Record<string, MatrixRow> = {
  // API documentation and service calls
  'GET /api/docs': { expect: anyone(200), request: () => get('/docs') },
  // The documentation's own page redirects to /api/docs.
  'GET /api/docs/static/index.html': { expect: anyone(302), request: () => get('/docs/static/index.html') },
  'GET /api/docs/static/swagger-initializer.js': {
    expect: anyone(200),
    request: () => get('/docs/static/swagger-initializer.js'),
  },
  'GET /api/docs/json': { expect: anyone(200), request: () => get('/docs/json') },
  'GET /api/docs/yaml': { expect: anyone(200), request: () => get('/docs/yaml') },
  'GET /api/docs/static/*': { expect: anyone(200), request: () => get('/docs/static/swagger-ui.css') },
  'GET /api/openapi.json': { expect: anyone(200), request: () => get('/openapi.json') },
  'GET /api/health': { expect: anyone(200), request: () => get('/health') },
  'GET /api/health/live': { expect: anyone(200), request: () => get('/health/live') },
  'GET /api/health/ready': { expect: anyone(200), request: () => get('/health/ready') },
  // Token-gated, not role-gated: a user's bearer token is refused, whoever the user is…
  'GET /metrics': {
    expect: anyone(401),
    request: () => ({ method: 'GET', url: '/metrics', root: true }),
  },
  'GET /api/settings': { expect: anyone(200), request: () => get('/settings') },

  // Signing in (public; the sign-ins use the right account, so everyone gets 200)
  'POST /api/auth/login/superadmin': {
    expect: anyone(200),
    request: (w) => post('/auth/login/superadmin', { email: w.users.superadmin.email, password: w.password }),
  },
  'POST /api/auth/login/admin': {
    expect: anyone(200),
    request: (w) => post('/auth/login/admin', { email: w.users.ownerAdmin.email, password: w.password }),
  },
  'POST /api/auth/admin/login': {
    expect: anyone(200),
    request: (w) => post('/auth/admin/login', { email: w.users.otherAdmin.email, password: w.password }),
  },
  'POST /api/auth/login/superfake': { expect: anyone(200), request: () => post('/auth/login/superfake') },
  // Without the refresh cookie nobody is refreshed.
  'GET /api/auth/admin/refresh': { expect: anyone(401), request: () => get('/auth/admin/refresh') },
  'GET /api/auth/admin/verify': { expect: staff(200), request: () => get('/auth/admin/verify') },
  'DELETE /api/auth/admin/logout': {
    expect: staff(204),
    // Signing out ends the session at once: each caller signs out of a session of its own.
    request: async (w, caller) => ({ ...del('/auth/admin/logout'), headers: await w.ownSessionOf(caller) }),
  },
  // Signing in through the identity provider. This app has none (OIDC_ISSUER unset): the
  // start sends every browser to /unauthorized, the callback is refused alike; with one,
  // modules/auth/oidc/oidc.test.ts drives both against a real provider.
  'GET /api/auth/oidc/start': { expect: anyone(302), request: () => get('/auth/oidc/start') },
  'POST /api/auth/oidc/callback': {
    expect: anyone(404),
    request: () => post('/auth/oidc/callback', { query: '?code=a-code&state=a-state' }),
  },
  // Without the provider's ID token cookie: the session ends and the web app shows /logged-out.
  'POST /api/auth/oidc/logout': {
    expect: staff(200),
    // Signing out ends the session at once: each caller signs out of a session of its own.
    request: async (w, caller) => ({ ...post('/auth/oidc/logout'), headers: await w.ownSessionOf(caller) }),
  },
  'POST /api/auth/login/user': {
    expect: anyone(200),
    request: (w) => post('/auth/login/user', { email: w.users.participant.email, password: w.password }),
  },
  'POST /api/auth/login/halfuser': {
    expect: anyone(401),
    request: () => post('/auth/login/halfuser', { token: 'not-a-signed-link-token' }),
  },
  'GET /api/auth/user/refresh': { expect: anyone(401), request: () => get('/auth/user/refresh') },
  'GET /api/auth/user/verify': { expect: participant(200), request: () => get('/auth/user/verify') },
  'DELETE /api/auth/user/logout': {
    expect: participant(204),
    // Signing out ends the session at once: each caller signs out of a session of its own.
    request: async (w, caller) => ({ ...del('/auth/user/logout'), headers: await w.ownSessionOf(caller) }),
  },
  'POST /api/auth/password': {
    expect: participant(204),
    request: (w) => post('/auth/password', { password: w.password, current_password: w.password }),
  },
  'POST /api/auth/verify/email': {
    // A different address each time: each address may ask three times in the window.
    expect: anyone(202),
    request: (w) => post('/auth/verify/email', { email: `${w.unique('link').replace(/\W/g, '')}@example.test` }),
  },
  'GET /api/pages/:name': { expect: anyone(200), request: () => get('/pages/support') },
  'POST /api/auth/password/code': {
    expect: anyone(202),
    request: (w) => post('/auth/password/code', { email: `${w.unique('code').replace(/\W/g, '')}@example.test` }),
  },
  // No session is needed; a code nobody was sent is refused alike for every caller.
  'POST /api/auth/password/reset': {
    expect: anyone(400),
    request: () => post('/auth/password/reset', { code: 'not-a-code-anyone-was-sent', password: 'a-new-secret' }),
  },

  // Users
  'GET /api/users/me': { expect: staff(200), request: () => get('/users/me') },
  'POST /api/users': {
    expect: superadmin(201),
    request: (w) =>
      post('/users', {
        email: `${w.unique('staff').replace(/\W/g, '')}@example.test`,
        first_name: 'New',
        last_name: 'Admin',
        role: 'ADMIN',
        client_id: w.clientA.id,
        password: w.password,
      }),
  },
  'GET /api/users': { expect: staff(200), request: () => get('/users') },
  'GET /api/users/professions': { expect: staff(200), request: () => get('/users/professions') },
  'GET /api/users/:id': { expect: owned(200), request: (w) => get(`/users/${w.users.participant.id}`) },
  'PUT /api/users/:id': {
    expect: owned(200),
    request: (w) =>
      put(`/users/${w.users.participant.id}`, {
        email: w.users.participant.email,
        first_name: 'Maria',
        last_name: 'Alvarez',
      }),
  },
  // A participant may correct their own (a survey's info review); the test user is asked about the participant.
  'PUT /api/users/:userId/display-name': {
    expect: self(204),
    request: (w) => put(`/users/${w.users.participant.id}/display-name`, { display_name: 'Dr. Alvarez' }),
  },
  'PUT /api/users/:userId/mobile-number': {
    expect: self(204),
    request: (w) => put(`/users/${w.users.participant.id}/mobile-number`, { mobile_number: '+1 555 0100' }),
  },
  'GET /api/users/:id/assignments': {
    expect: owned(200),
    request: (w) => get(`/users/${w.users.participant.id}/assignments`),
  },

  // Clients
  'GET /api/clients': { expect: staff(200), request: () => get('/clients') },
  'POST /api/clients': { expect: superadmin(201), request: (w) => post('/clients', { name: w.unique('Client') }) },
  'GET /api/clients/cap/import': { expect: superadmin(200), request: () => get('/clients/cap/import') },
  'POST /api/clients/cap/import': {
    expect: superadmin(202),
    request: (w) => upload('/clients/cap/import', `cap_id,name,status\n${w.capId},Alpha Health,Active\n`, 'cap.csv'),
  },
  'GET /api/clients/cap/:id/status': { expect: owned(200), request: (w) => get(`/clients/cap/${w.capId}/status`) },
  'GET /api/clients/:id': { expect: owned(200), request: (w) => get(`/clients/${w.clientA.id}`) },
  'PUT /api/clients/:id': {
    expect: superadmin(200),
    request: (w) => put(`/clients/${w.clientA.id}`, { name: w.clientA.name, cap_id: w.capId }),
  },
  'DELETE /api/clients/:id': {
    expect: superadmin(204),
    request: async (w) => del(`/clients/${await w.make.client()}`),
  },

  // Projects
  'GET /api/projects': { expect: staff(200), request: () => get('/projects') },
  'GET /api/clients/active-seasons': { expect: staff(200), request: () => get('/clients/active-seasons') },
  'GET /api/clients/:id/projects': { expect: owned(200), request: (w) => get(`/clients/${w.clientA.id}/projects`) },
  'POST /api/projects': { expect: owned(201), request: (w) => post('/projects', projectBody(w.clientA.id)) },
  'GET /api/projects/:id': { expect: owned(200), request: (w) => get(`/projects/${w.project.id}`) },
  'PUT /api/projects/:id': { expect: owned(200), request: (w) => put(`/projects/${w.project.id}`, projectUpdate(w)) },
  'POST /api/projects/:id/archive': {
    expect: owned(200),
    request: async (w) => post(`/projects/${await w.make.project()}/archive`),
  },
  'POST /api/projects/:id/restore': {
    expect: owned(200),
    request: async (w) => {
      const id = await w.make.project();
      await w.call('superadmin', 'POST', `/projects/${id}/archive`);
      return post(`/projects/${id}/restore`);
    },
  },
  'DELETE /api/projects/:id': { expect: owned(204), request: async (w) => del(`/projects/${await w.make.project()}`) },
  'GET /api/projects/:id/seasons': { expect: owned(200), request: (w) => get(`/projects/${w.project.id}/seasons`) },
  'GET /api/projects/:id/disease-types': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/disease-types`),
  },
  'GET /api/disease-types': { expect: staff(200), request: () => get('/disease-types') },
  'DELETE /api/disease-types/:id': {
    expect: superadmin(204),
    request: async (w) => del(`/disease-types/${(await w.make.unusedCatalogueEntries()).diseaseTypeId}`),
  },
  'GET /api/projects/:id/question-categories': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/question-categories`),
  },
  'GET /api/question-categories': { expect: staff(200), request: () => get('/question-categories') },
  'DELETE /api/question-categories/:id': {
    expect: superadmin(204),
    request: async (w) => del(`/question-categories/${(await w.make.unusedCatalogueEntries()).categoryId}`),
  },

  // CME credits
  'POST /api/cmes': {
    expect: owned(201),
    request: (w) => post('/cmes', { project_id: w.project.id, min_cases: 2, credits: 1.5, moc: true }),
  },
  'GET /api/cmes/:id': { expect: owned(200), request: (w) => get(`/cmes/${w.project.id}`) },
  'PUT /api/cmes/:id': {
    expect: owned(200),
    request: (w) => put(`/cmes/${w.cme.id}`, { min_cases: 3, credits: 2, moc: false }),
  },
  'DELETE /api/cmes/:id': { expect: owned(204), request: async (w) => del(`/cmes/${await w.make.cme()}`) },

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
    request: async (w) =>
      post(`/projects/${await w.make.project()}/disable-season-emails`, { seasonName: 'Spring 2026' }),
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
  'GET /api/projects/:id/email-schedule': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/email-schedule?date=2026-03-03`),
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

  // Case Setup
  'GET /api/projects/:id/cases': { expect: owned(200), request: (w) => get(`/projects/${w.project.id}/cases`) },
  'POST /api/cases': {
    expect: owned(201),
    request: (w) =>
      post('/cases', { project_id: w.project.id, name: 'New case', disease_type_id: w.home.diseaseTypeId }),
  },
  // Reads a file and saves nothing: any staff member.
  'POST /api/cases/rtf': { expect: staff(200), request: () => upload('/cases/rtf', RTF, 'case.rtf') },
  'GET /api/cases/:id': { expect: owned(200), request: (w) => get(`/cases/${w.draft.id}`) },
  'PUT /api/cases/:id': {
    expect: owned(200),
    request: (w) => put(`/cases/${w.draft.id}`, validCase(w.home, { name: 'Draft case' })),
  },
  'DELETE /api/cases/:id': { expect: owned(200), request: async (w) => del(`/cases/${await w.make.draftCase()}`) },
  'POST /api/cases/:id/remove-project': {
    expect: owned(204),
    request: async (w) => post(`/cases/${await w.make.draftCase()}/remove-project`),
  },
  'GET /api/cases/:id/status': { expect: owned(200), request: (w) => get(`/cases/${w.draft.id}/status`) },
  'POST /api/cases/:id/status': {
    expect: owned(200),
    request: async (w) => post(`/cases/${await w.make.draftCase()}/status`, { status: 'PUBLISHED' }),
  },
  'GET /api/cases/:id/count': { expect: owned(200), request: (w) => get(`/cases/${w.runningCase.id}/count`) },
  'POST /api/cases/:id/move': {
    expect: owned(200),
    request: async (w) =>
      post(`/cases/${await w.make.draftCase()}/move`, { project_id: await w.make.projectLikeTheWorlds() }),
  },
  'POST /api/cases/:id/move-to-module': {
    expect: superadmin(200),
    request: async (w) =>
      post(`/cases/${await w.make.draftCase(await w.make.project())}/move-to-module`, { module_id: w.module.id }),
  },
  'POST /api/cases/:id/duplicate': {
    expect: owned(201),
    request: (w) => post(`/cases/${w.draft.id}/duplicate`, { name: 'Draft case (copy)' }),
  },
  'POST /api/cases/:id/duplicate-detach': {
    expect: owned(201),
    request: (w) => post(`/cases/${w.draft.id}/duplicate-detach`, { name: 'Draft case (detached)' }),
  },
  'POST /api/cases/:id/image': {
    expect: owned(200),
    request: (w) => upload(`/cases/${w.draft.id}/image`, PNG, 'patient.png'),
  },
  'DELETE /api/cases/:id/image': { expect: owned(200), request: (w) => del(`/cases/${w.draft.id}/image`) },
  'GET /api/cases/:id/image': { expect: owned(200), request: (w) => get(`/cases/${w.imageCase.id}/image`) },
  'GET /api/cases/:id/preview': { expect: owned(200), request: (w) => get(`/cases/${w.draft.id}/preview`) },
  'GET /api/cases/:id/feedback': { expect: owned(200), request: (w) => get(`/cases/${w.draft.id}/feedback`) },
  'GET /api/cases/:id/previews': { expect: owned(200), request: (w) => get(`/cases/${w.draft.id}/previews`) },
  'POST /api/previews': {
    expect: owned(201),
    request: async (w) => {
      const now = await w.call<{ questions: Parameters<typeof perfectAnswers>[0]['questions'] }>(
        'superadmin',
        'GET',
        `/cases/${w.draft.id}`,
      );
      return post('/previews', { case_id: w.draft.id, answers: perfectAnswers(now) });
    },
  },
  'GET /api/previews/:id': { expect: owned(200), request: (w) => get(`/previews/${w.preview.id}`) },
  'DELETE /api/previews/:id': { expect: owned(204), request: async (w) => del(`/previews/${await w.make.preview()}`) },

  // Module libraries (provider staff only)
  'POST /api/module-library/cases/to-project': {
    expect: superadmin(201),
    request: async (w) =>
      post('/module-library/cases/to-project', { project_id: await w.make.project(), case_ids: [w.libraryCase.id] }),
  },
  'POST /api/module-library/cases/modules': {
    expect: superadmin(201),
    request: async (w) =>
      post('/module-library/cases/modules', {
        module_id: await w.make.module(['Diabetes'], ['Diagnosis']),
        case_ids: [w.libraryCase.id],
      }),
  },
  'GET /api/module-library': { expect: superadmin(200), request: () => get('/module-library') },
  'POST /api/module-library': {
    expect: superadmin(201),
    request: (w) =>
      post('/module-library', {
        name: w.unique('Module'),
        disease_types: ['Asthma'],
        question_categories: ['Therapy'],
      }),
  },
  'GET /api/module-library/:id': { expect: superadmin(200), request: (w) => get(`/module-library/${w.module.id}`) },
  'PUT /api/module-library/:id': {
    expect: superadmin(200),
    request: (w) =>
      put(`/module-library/${w.module.id}`, {
        name: w.module.name,
        description: 'Cases for the whole year',
        disease_types: ['Diabetes'],
        question_categories: ['Diagnosis'],
      }),
  },
  'DELETE /api/module-library/:id': {
    expect: superadmin(204),
    request: async (w) => del(`/module-library/${await w.make.module()}`),
  },
  'GET /api/module-library/:id/cases': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/cases`),
  },
  'DELETE /api/module-library/:id/remove-cases': {
    expect: superadmin(200),
    request: async (w) => {
      const filter = encodeURIComponent(JSON.stringify({ ids: [await w.make.moduleCase()] }));
      return del(`/module-library/${w.module.id}/remove-cases?filter=${filter}`);
    },
  },
  'GET /api/module-library/:id/disease-types': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/disease-types`),
  },
  'GET /api/module-library/:id/question-categories': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/question-categories`),
  },
  'GET /api/module-library/:id/associated-projects': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/associated-projects`),
  },

  // Participant dashboard content (elements)
  'GET /api/projects/:id/key-takeaways': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/key-takeaways`),
  },
  'POST /api/projects/:id/key-takeaways': {
    expect: owned(202),
    request: async (w) =>
      upload(`/projects/${await w.make.project()}/key-takeaways`, 'case_id,key_takeaway\n', 'takeaways.csv'),
  },
  'GET /api/projects/:id/answers-tags': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/answers-tags`),
  },
  'POST /api/projects/:id/answers-tags': {
    expect: owned(202),
    request: async (w) => upload(`/projects/${await w.make.project()}/answers-tags`, 'case_id,tag\n', 'tags.csv'),
  },
  'GET /api/projects/:id/cases-keys-tags': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/cases-keys-tags`),
  },
  'GET /api/module-library/:id/key-takeaways': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/key-takeaways`),
  },
  'POST /api/module-library/:id/key-takeaways': {
    expect: superadmin(202),
    request: async (w) =>
      upload(`/module-library/${await w.make.module()}/key-takeaways`, 'case_id,key_takeaway\n', 'takeaways.csv'),
  },
  'GET /api/module-library/:id/answers-tags': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/answers-tags`),
  },
  'POST /api/module-library/:id/answers-tags': {
    expect: superadmin(202),
    request: async (w) => upload(`/module-library/${await w.make.module()}/answers-tags`, 'case_id,tag\n', 'tags.csv'),
  },
  'GET /api/module-library/:id/cases-keys-tags': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/cases-keys-tags?type=KEY_TAKEAWAYS`),
  },
  'GET /api/module-library/:id/import': {
    expect: superadmin(200),
    request: (w) => get(`/module-library/${w.module.id}/import?type=SUMMARY`),
  },

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

  // The participants' side: each participant on their own attempt, in the order a case is taken
  'GET /api/dashboard': { expect: participant(200), request: () => get('/dashboard') },
  'GET /api/users/:userSeasonRoundCaseId/questions': {
    expect: participant(200),
    request: (w, caller) => get(`/users/${attemptFor(w, caller)}/questions`),
  },
  'GET /api/case/:caseId': { expect: participant(200), request: (w) => get(`/case/${w.runningCase.id}`) },
  'GET /api/case/:caseId/image': { expect: participant(200), request: (w) => get(`/case/${w.runningCase.id}/image`) },
  'POST /api/cases/:id/start': {
    expect: participant(200),
    request: (w, caller) => post(`/cases/${attemptFor(w, caller)}/start`),
  },
  'POST /api/cases/:id/answer': {
    expect: participant(200),
    request: async (w, caller) => {
      // The other required answers first (as the caller), so that the submit after this succeeds.
      if (caller === 'participant' || caller === 'testUser') await w.answerTheRest(caller);
      return post(`/cases/${attemptFor(w, caller)}/answer`, w.firstAnswer);
    },
  },
  'POST /api/cases/:id/submit': {
    expect: participant(200),
    request: (w, caller) => post(`/cases/${attemptFor(w, caller)}/submit`),
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
  'GET /api/survey-templates': { expect: staff(200), request: () => get('/survey-templates?search=survey') },
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
  // Answers so far (`complete: false`) to the start survey due to the caller on their own case.
  'POST /api/survey-templates/:id/:userSeasonRoundCaseId/answer': {
    expect: participant(200),
    request: async (w, caller) => {
      let template = w.surveys.startNew;
      if (caller === 'participant' || caller === 'testUser') {
        const due = await w.call<{ start: { template_id: string } | null }>(
          caller,
          'GET',
          `/users/${attemptFor(w, caller)}/surveys`,
        );
        template = due.start?.template_id ?? template;
      }
      return post(`/survey-templates/${template}/${attemptFor(w, caller)}/answer`, { answers: [], complete: false });
    },
  },
  // Season Results Summaries (`/projects/{id}/status`: the id is the summary's). Writes go to
  // the world project's draft; the posted one (its season completed by both participants) is only read.
  'GET /api/projects/:id/season-summary': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.project.id}/season-summary?${w.summaries.seasonQuery}`),
  },
  'POST /api/projects/:id/season-summary': {
    expect: owned(200),
    request: (w) => post(`/projects/${w.project.id}/season-summary?${w.summaries.seasonQuery}`, w.summaries.body),
  },
  'POST /api/projects/:id/status': {
    expect: owned(200),
    request: (w) => post(`/projects/${w.summaries.draft}/status`, { status: 'POSTED' }),
  },
  'POST /api/season-summaries/:id/sheet': {
    expect: owned(200),
    request: (w) => upload(`/season-summaries/${w.summaries.draft}/sheet`, PDF, 'results.pdf'),
  },
  'DELETE /api/season-summaries/:id/sheet': {
    expect: owned(200),
    request: (w) => del(`/season-summaries/${w.summaries.draft}/sheet`),
  },
  'GET /api/season-summaries/:id/sheet': {
    expect: owned(200),
    request: (w) => get(`/season-summaries/${w.summaries.posted}/sheet`),
  },
  'POST /api/season-summaries/:id/video': {
    expect: owned(200),
    request: (w) => upload(`/season-summaries/${w.summaries.draft}/video`, MP4, 'thanks.mp4'),
  },
  'DELETE /api/season-summaries/:id/video': {
    expect: owned(200),
    request: (w) => del(`/season-summaries/${w.summaries.draft}/video`),
  },
  'GET /api/season-summaries/:id/video': {
    expect: owned(200),
    request: (w) => get(`/season-summaries/${w.summaries.posted}/video`),
  },
  'GET /api/dashboard/season-summaries/:id/sheet': {
    expect: participant(200),
    request: (w) => get(`/dashboard/season-summaries/${w.summaries.posted}/sheet`),
  },
  'GET /api/dashboard/season-summaries/:id/video': {
    expect: participant(200),
    request: (w) => get(`/dashboard/season-summaries/${w.summaries.posted}/video`),
  },

  // The resource library (the provider's: superadmins manage it; the picker, categories and
  // file links also serve client administrators; a case's resources follow the case's rules).
  'GET /api/resource-library': { expect: superadmin(200), request: () => get('/resource-library') },
  'POST /api/resource-library': {
    expect: superadmin(201),
    request: (w) =>
      post('/resource-library', {
        name: 'Guideline',
        source_type: 'URL',
        link: `https://example.org/${w.unique('g').replace(/\W/g, '')}`,
      }),
  },
  'DELETE /api/resource-library': {
    expect: superadmin(200),
    request: async (w) => {
      const made = await w.call<{ id: string }>(
        'superadmin',
        'POST',
        '/resource-library',
        { name: 'To delete', source_type: 'TEXT', details: 'Gone soon.' },
        201,
      );
      return del(`/resource-library?filter=${encodeURIComponent(JSON.stringify({ ids: [made.id] }))}`);
    },
  },
  'GET /api/resource-library/categories': { expect: staff(200), request: () => get('/resource-library/categories') },
  'POST /api/resource-library/categories': {
    expect: superadmin(201),
    request: (w) => post('/resource-library/categories', { name: w.unique('Category') }),
  },
  'GET /api/resource-library/export': {
    expect: superadmin(200),
    request: () => get('/resource-library/export?format=xlsx'),
  },
  'GET /api/resource-library/modal': {
    expect: staff(200),
    request: () => get('/resource-library/modal?type=IMAGE&attachmentStatus=NOT_ATTACHED'),
  },
  'POST /api/resource-library/upload': {
    expect: superadmin(201),
    request: () => upload('/resource-library/upload', PDF, 'handout.pdf'),
  },
  'GET /api/resource-library/file/:id/details': {
    expect: staff(200),
    request: (w) => get(`/resource-library/file/${w.resources.file}/details`),
  },
  'GET /api/resource-library/file/:id/link': {
    expect: staff(200),
    request: (w) => get(`/resource-library/file/${w.resources.file}/link`),
  },
  'GET /api/resource-library/file/:id/thumbnail-link': {
    expect: staff(200),
    request: (w) => get(`/resource-library/file/${w.resources.file}/thumbnail-link`),
  },
  'GET /api/resource-library/:id/cases': {
    expect: superadmin(200),
    request: (w) => get(`/resource-library/${w.resources.file}/cases`),
  },
  'GET /api/resource-library/:id/clients': {
    expect: superadmin(200),
    request: (w) => get(`/resource-library/${w.resources.file}/clients`),
  },
  'POST /api/resource-library/:id/duplicate': {
    expect: superadmin(201),
    request: (w) => post(`/resource-library/${w.resources.file}/duplicate`),
  },
  'GET /api/resource-library/:id': {
    expect: superadmin(200),
    request: (w) => get(`/resource-library/${w.resources.text}`),
  },
  'PUT /api/resource-library/:id': {
    expect: superadmin(200),
    request: (w) =>
      put(`/resource-library/${w.resources.text}`, { name: 'Reading list', details: 'Chapter 5 instead.' }),
  },
  'GET /api/cases/:id/resources': {
    expect: owned(200),
    request: (w) => get(`/cases/${w.draft.id}/resources`),
  },
  'PUT /api/cases/:id/resources': {
    expect: owned(200),
    request: (w) => put(`/cases/${w.draft.id}/resources`, { resource_ids: [w.resources.file, w.resources.text] }),
  },
  'GET /api/users/:userSeasonRoundCaseId/resources': {
    expect: participant(200),
    request: (w, caller) => get(`/users/${attemptFor(w, caller)}/resources`),
  },
  'GET /api/resource-files/:token': { expect: anyone(200), request: (w) => get(w.resources.signedPath) },

  'GET /api/users/:userId/project/:projectId': {
    expect: owned(200),
    request: (w) => get(`/users/${w.users.participant.id}/project/${w.project.id}`),
  },
};
