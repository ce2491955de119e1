import { staff, participant, anyone, type MatrixRow } from './expectations.js';
import { del, get, post } from './requests.js';

/** The API documentation, health, metrics and settings, and signing in and out. */
export const serviceAndSignInRows: Record<string, MatrixRow> = {
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
  // No session is needed; a link nobody was sent is refused alike (modules/auth/account-lockout.test.ts
  // unlocks with a real one).
  'POST /api/auth/unlock': {
    expect: anyone(400),
    request: () => post('/auth/unlock', { token: 'not-a-link-anyone-was-sent' }),
  },
};
