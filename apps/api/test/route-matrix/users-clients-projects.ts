import { projectBody } from '../fixtures.js';
import { anyone, owned, participant, staff, superadmin, self, type MatrixRow } from './expectations.js';
import { get, del, post, put, upload, projectUpdate } from './requests.js';

/** Users, clients, projects and their catalogues, and CME credits. */
export const usersClientsProjectsRows: Record<string, MatrixRow> = {
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

  // CME certificates: the participant's own (the test user has none), the project's for its
  // administrators, and anyone's check of a code (public).
  'GET /api/certificates/verify/:code': {
    expect: anyone(200),
    request: (w) => get(`/certificates/verify/${w.certificates.certificate.code}`),
  },
  'GET /api/participant/certificates': { expect: participant(200), request: () => get('/participant/certificates') },
  'GET /api/participant/certificates/:id/pdf': {
    expect: { ...participant(200), testUser: 404 },
    request: (w) => get(`/participant/certificates/${w.certificates.certificate.id}/pdf`),
  },
  'GET /api/projects/:id/certificates': {
    expect: owned(200),
    request: (w) => get(`/projects/${w.certificates.resultsProjectId}/certificates`),
  },
  'GET /api/certificates/:id/pdf': {
    expect: owned(200),
    request: (w) => get(`/certificates/${w.certificates.certificate.id}/pdf`),
  },
  'POST /api/certificates/:id/revoke': {
    expect: owned(200),
    request: async (w) =>
      post(`/certificates/${(await w.certificates.earn()).id}/revoke`, { reason: 'Entered in error' }),
  },

  // A user in one of client A's projects.
  'GET /api/users/:userId/project/:projectId': {
    expect: owned(200),
    request: (w) => get(`/users/${w.users.participant.id}/project/${w.project.id}`),
  },
};
