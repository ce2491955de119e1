import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESENCE_COOKIE } from '@pss/contract';
import {
  createClient,
  createTestContext,
  createUser,
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/test-app.js';
import type { UserRow } from '../users/users.service.js';
import { STAFF_REFRESH_COOKIE } from './auth.routes.js';
import { REFRESH_GRACE_SECONDS } from './auth.service.js';

let ctx: TestContext;
let superadmin: UserRow;
let admin: UserRow;
let participant: UserRow;

beforeAll(async () => {
  ctx = await createTestContext({ env: { LOGIN_MAX_FAILURES: '4' } });
  const client = await createClient(ctx.db);
  superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
  admin = await createUser(ctx.db, { role: 'ADMIN', clientId: client.id });
  participant = await createUser(ctx.db, { role: 'USER', clientId: client.id });
});
afterAll(() => ctx.close());

function login(url: string, email: string, password = TEST_PASSWORD, remoteAddress = '127.0.0.1') {
  return ctx.app.inject({ method: 'POST', url, payload: { email, password }, remoteAddress });
}

function cookieValue(response: { cookies: { name: string; value: string }[] }, name: string): string | undefined {
  return response.cookies.find((c) => c.name === name)?.value;
}

describe('staff sign-in', () => {
  it('signs a superadmin in at /auth/login/superadmin with a token /users/me accepts', async () => {
    const response = await login('/api/auth/login/superadmin', superadmin.email);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ expires_in: 900, user: { id: superadmin.id, role: 'superadmin', client_id: null } });
    expect(typeof body.access_token).toBe('string');

    // The cookies live as long as the refresh token, by the app's clock (the test's is months
    // away from the machine's: an age worked out from the machine's time would be wrong).
    const ttl = ctx.config.refreshTokenTtlHours * 3600;
    const refresh = response.cookies.find((c) => c.name === STAFF_REFRESH_COOKIE);
    expect(refresh).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth', maxAge: ttl });
    const presence = response.cookies.find((c) => c.name === PRESENCE_COOKIE);
    expect(presence?.httpOnly).toBeFalsy();
    expect(presence?.maxAge).toBe(ttl);

    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      id: superadmin.id,
      email: superadmin.email,
      first_name: 'Test',
      last_name: 'Superadmin',
      role: 'superadmin',
      client_id: null,
    });
  });

  it('signs a client administrator in at /auth/login/admin with their client', async () => {
    const response = await login('/api/auth/login/admin', admin.email);
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ role: 'admin', client_id: admin.clientId });
  });

  it('accepts either staff role at /auth/admin/login', async () => {
    expect((await login('/api/auth/admin/login', admin.email)).statusCode).toBe(200);
    expect((await login('/api/auth/admin/login', superadmin.email.toUpperCase())).statusCode).toBe(200);
  });

  it('answers the same 401 INCORRECT_PASSWORD for a wrong password, an unknown email and the wrong kind', async () => {
    const answers = await Promise.all([
      login('/api/auth/login/superadmin', superadmin.email, 'wrong-password', '10.0.0.1'),
      login('/api/auth/login/superadmin', 'nobody@example.test', TEST_PASSWORD, '10.0.0.1'),
      login('/api/auth/login/superadmin', admin.email, TEST_PASSWORD, '10.0.0.1'),
      login('/api/auth/login/admin', superadmin.email, TEST_PASSWORD, '10.0.0.1'),
      login('/api/auth/admin/login', participant.email, TEST_PASSWORD, '10.0.0.1'),
    ]);
    for (const response of answers) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ errorCode: 'INCORRECT_PASSWORD', message: 'The password is incorrect.' });
      expect(response.cookies).toHaveLength(0);
    }
  });

  it('refuses a malformed body with VALIDATION_ERROR listing the fields', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: { email: 42 } });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.errorCode).toBe('VALIDATION_ERROR');
    const fields = body.details.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['body.email', 'body.password']));
  });

  it('locks an email after repeated failures: 429 to the address that failed, even with the right password', async () => {
    const target = await createUser(ctx.db, { role: 'SUPERADMIN' });
    for (let i = 0; i < 4; i++) {
      expect((await login('/api/auth/admin/login', target.email, 'wrong-guess', '10.0.0.2')).statusCode).toBe(401);
    }
    const blocked = await login('/api/auth/admin/login', target.email, TEST_PASSWORD, '10.0.0.2');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().errorCode).toBe('ACCOUNT_LOCKED');
    expect(blocked.headers['retry-after']).toBeDefined();

    // The window passes: the right password works again.
    ctx.clock.advance(16 * 60_000);
    expect((await login('/api/auth/admin/login', target.email, TEST_PASSWORD, '10.0.0.2')).statusCode).toBe(200);
  });
});

describe('refresh, verify and logout', () => {
  it('rotates the refresh token, refuses a reused one and revokes its family', async () => {
    const signedIn = await login('/api/auth/admin/login', admin.email);
    const first = cookieValue(signedIn, STAFF_REFRESH_COOKIE)!;

    const refreshed = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/admin/refresh',
      cookies: { [STAFF_REFRESH_COOKIE]: first },
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().user.id).toBe(admin.id);
    const second = cookieValue(refreshed, STAFF_REFRESH_COOKIE)!;
    expect(second).not.toBe(first);

    // Past the grace that two tabs refreshing at once get.
    ctx.clock.advance((REFRESH_GRACE_SECONDS + 1) * 1000);
    const reused = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/admin/refresh',
      cookies: { [STAFF_REFRESH_COOKIE]: first },
    });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().errorCode).toBe('NOT_AUTHORIZED');

    // Reuse of the old token revoked the newer one too.
    const afterReuse = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/admin/refresh',
      cookies: { [STAFF_REFRESH_COOKIE]: second },
    });
    expect(afterReuse.statusCode).toBe(401);
  });

  it('refuses a refresh without a cookie, with an unknown one and after expiry', async () => {
    const none = await ctx.app.inject({ method: 'GET', url: '/api/auth/admin/refresh' });
    expect(none.statusCode).toBe(401);
    const unknown = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/admin/refresh',
      cookies: { [STAFF_REFRESH_COOKIE]: 'not-a-token' },
    });
    expect(unknown.statusCode).toBe(401);

    const signedIn = await login('/api/auth/admin/login', admin.email);
    ctx.clock.advance(13 * 3600_000);
    const expired = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/admin/refresh',
      cookies: { [STAFF_REFRESH_COOKIE]: cookieValue(signedIn, STAFF_REFRESH_COOKIE)! },
    });
    expect(expired.statusCode).toBe(401);
  });

  it('verifies a live access token and refuses an expired one', async () => {
    const signedIn = await login('/api/auth/admin/login', superadmin.email);
    const authorization = `Bearer ${signedIn.json().access_token}`;
    const verify = await ctx.app.inject({ method: 'GET', url: '/api/auth/admin/verify', headers: { authorization } });
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toMatchObject({ valid: true, user: { id: superadmin.id } });

    ctx.clock.advance(901_000);
    const late = await ctx.app.inject({ method: 'GET', url: '/api/auth/admin/verify', headers: { authorization } });
    expect(late.statusCode).toBe(401);
    expect(late.json().errorCode).toBe('NOT_AUTHORIZED');
  });

  it('logout revokes the refresh token on the server and clears both cookies', async () => {
    const signedIn = await login('/api/auth/admin/login', superadmin.email);
    const refreshToken = cookieValue(signedIn, STAFF_REFRESH_COOKIE)!;
    const logout = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/auth/admin/logout',
      headers: { authorization: `Bearer ${signedIn.json().access_token}` },
      cookies: { [STAFF_REFRESH_COOKIE]: refreshToken },
    });
    expect(logout.statusCode).toBe(204);
    const cleared = logout.cookies.filter((c) => c.value === '');
    expect(cleared.map((c) => c.name).sort()).toEqual([STAFF_REFRESH_COOKIE, PRESENCE_COOKIE].sort());

    const later = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/admin/refresh',
      cookies: { [STAFF_REFRESH_COOKIE]: refreshToken },
    });
    expect(later.statusCode).toBe(401);
  });

  it('logout needs a bearer token', async () => {
    const response = await ctx.app.inject({ method: 'DELETE', url: '/api/auth/admin/logout' });
    expect(response.statusCode).toBe(401);
  });
});

describe('bearer tokens', () => {
  it('refuses a missing, malformed or forged token with 401 NOT_AUTHORIZED', async () => {
    for (const authorization of [undefined, 'Bearer', 'Basic abc', 'Bearer not.a.jwt']) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/users/me',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        errorCode: 'NOT_AUTHORIZED',
        message: 'You are not authorized. Please log in.',
      });
    }
  });

  it('refuses a token signed with another secret', async () => {
    const other = await createTestContext({ env: { SESSION_SECRET: 'another-secret-that-is-long-enough-for-hs256' } });
    try {
      await createUser(other.db, { role: 'SUPERADMIN', email: 'other@example.test' });
      const signedIn = await other.app.inject({
        method: 'POST',
        url: '/api/auth/admin/login',
        payload: { email: 'other@example.test', password: TEST_PASSWORD },
      });
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/users/me',
        headers: { authorization: `Bearer ${signedIn.json().access_token}` },
      });
      expect(response.statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('superfake sign-in', () => {
  it('does not exist without the development flag', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/login/superfake', payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json().errorCode).toBe('NOT_FOUND');
  });

  it('signs in as the first superadmin when the flag is set', async () => {
    const dev = await createTestContext({ env: { ENABLE_SUPERFAKE_LOGIN: 'true' } });
    try {
      const first = await createUser(dev.db, { role: 'SUPERADMIN' });
      const response = await dev.app.inject({ method: 'POST', url: '/api/auth/login/superfake' });
      expect(response.statusCode).toBe(200);
      expect(response.json().user.id).toBe(first.id);
    } finally {
      await dev.close();
    }
  });
});
