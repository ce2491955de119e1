import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeAccessLevels } from '@pss/contract';
import { createTestContext, type TestContext } from './test-app.js';

// Guards every route, present and future: each declares who may call it, and each
// non-public one refuses a caller without a token.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { ENABLE_SUPERFAKE_LOGIN: 'true' } });
});
afterAll(() => ctx.close());

function concreteUrl(url: string): string {
  return url.replace(/:[A-Za-z_]+/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'x');
}

describe('route access declarations', () => {
  it('every registered route declares who may call it', () => {
    expect(ctx.app.declaredRoutes.length).toBeGreaterThan(5);
    const undeclared = ctx.app.declaredRoutes.filter(
      (r) => !r.access || !(routeAccessLevels as readonly string[]).includes(r.access),
    );
    expect(undeclared).toEqual([]);
  });

  it('every non-public route answers 401 NOT_AUTHORIZED without a token', async () => {
    const protectedRoutes = ctx.app.declaredRoutes.filter((r) => r.access !== 'public');
    expect(protectedRoutes.length).toBeGreaterThan(0);
    for (const route of protectedRoutes) {
      const response = await ctx.app.inject({
        method: route.method as 'GET',
        url: concreteUrl(route.url),
        payload: ['GET', 'DELETE'].includes(route.method) ? undefined : {},
      });
      expect({ route: `${route.method} ${route.url}`, status: response.statusCode }).toEqual({
        route: `${route.method} ${route.url}`,
        status: 401,
      });
      expect(response.json().errorCode).toBe('NOT_AUTHORIZED');
    }
  });

  it('only sign-in (staff, with a second factor, through the identity provider, and participants), refresh, password and unlock links, health, settings, the site pages, a certificate’s check, docs and signed file links are public under /api', () => {
    const publicApi = ctx.app.declaredRoutes
      .filter((r) => r.access === 'public' && r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'))
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(publicApi).toEqual(
      [
        'GET /api/auth/admin/refresh',
        'GET /api/health',
        // For load balancers and orchestrators: they say whether the process runs and is ready, nothing more.
        'GET /api/health/live',
        'GET /api/health/ready',
        'GET /api/openapi.json',
        'GET /api/settings',
        'GET /api/pages/:name',
        // Anyone holding a certificate's code may check it (limited as anonymous calls are; the code is 100 random bits).
        'GET /api/certificates/verify/:code',
        'POST /api/auth/admin/login',
        'POST /api/auth/login/admin',
        'POST /api/auth/login/superadmin',
        'POST /api/auth/login/superfake',
        'GET /api/auth/user/refresh',
        'POST /api/auth/login/user',
        'POST /api/auth/login/halfuser',
        'POST /api/auth/verify/email',
        'POST /api/auth/password/code',
        'POST /api/auth/password/reset',
        // An account locked by failed sign-ins: the emailed single-use link is the permission.
        'POST /api/auth/unlock',
        // Client administrators through their identity provider: the state, nonce and PKCE are the permission.
        'GET /api/auth/oidc/start',
        'POST /api/auth/oidc/callback',
        // A sign-in's second step: the half-signed-in token (or a passkey alone) is the permission.
        'POST /api/auth/mfa/verify',
        'POST /api/auth/mfa/webauthn/options',
        'POST /api/auth/mfa/webauthn/verify',
        // A reminder's one-click unsubscribe (RFC 8058): the signed link is the permission, and a GET only
        // leads to the page that asks (see modules/emails/email-unsubscribe.test.ts).
        'GET /api/unsubscribe/:token',
        'POST /api/unsubscribe/:token',
        // A mail provider's bounces and complaints: its signature (or credentials) is the permission.
        'POST /api/email-events/:provider',
        // The signed link is the permission (it names one file and expires): see the resources tests.
        'GET /api/resource-files/:token',
      ].sort(),
    );
  });

  it('a route without a declaration stops the app from starting', async () => {
    const other = await createTestContext();
    try {
      // A fresh app, not yet ready, with an undeclared route.
      const { buildApp } = await import('../src/app.js');
      const app = await buildApp({ config: other.config, database: other.database, logger: false });
      app.get('/api/undeclared', async () => 'open');
      await expect(app.ready()).rejects.toThrow(/GET \/api\/undeclared/);
    } finally {
      await other.close();
    }
  });
});
