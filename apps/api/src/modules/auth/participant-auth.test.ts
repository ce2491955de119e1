import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.js';
import { createTokenService } from '../../lib/tokens.js';
import { bearerFor, createClient, createTestContext, createUser, TEST_PASSWORD } from '../../../test/test-app.js';
import { type TestContext } from '../../../test/test-app.js';
import { projectBody } from '../../../test/fixtures.js';
import { expectError, tokenOfLink, type Reply } from '../../../test/kit.js';
import type { UserRow } from '../users/users.service.js';
import { PARTICIPANT_REFRESH_COOKIE, STAFF_REFRESH_COOKIE } from './auth.routes.js';
import { createAuthService, REFRESH_GRACE_SECONDS } from './auth.service.js';
import { createSessionsRepository } from './sessions.repository.js';

const NOW = '2026-03-02T09:00:00Z';
const DAY = 86_400_000;

let ctx: TestContext;
let clientId: string;
let superadmin: UserRow;
let admin: UserRow;

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW });
  clientId = (await createClient(ctx.db)).id;
  superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
  admin = await createUser(ctx.db, { role: 'ADMIN', clientId });
});
afterAll(() => ctx.close());
// Some tests move the clock; each starts from the same moment.
beforeEach(() => ctx.clock.set(NOW));

/* ---------- helpers ---------- */

let addressCounter = 0;
/** Each sign-in attempt from its own address, so that the failures here never add up to a rate limit. */
const freshAddress = () => `10.9.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

function loginUser(email: string, password = TEST_PASSWORD) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login/user',
    payload: { email, password },
    remoteAddress: freshAddress(),
  }) as Promise<Reply>;
}

function loginByLink(token: string) {
  return ctx.app.inject({ method: 'POST', url: '/api/auth/login/halfuser', payload: { token } }) as Promise<Reply>;
}

function refreshParticipant(cookie: string | undefined, name = PARTICIPANT_REFRESH_COOKIE) {
  return ctx.app.inject({
    method: 'GET',
    url: '/api/auth/user/refresh',
    cookies: cookie === undefined ? {} : { [name]: cookie },
  }) as Promise<Reply>;
}

function get(url: string, authorization?: string) {
  return ctx.app.inject({
    method: 'GET',
    url: `/api${url}`,
    headers: authorization ? { authorization } : {},
  }) as Promise<Reply>;
}

const cookieOf = (response: Reply, name: string) => response.cookies.find((c) => c.name === name);
const bearer = (response: Reply) => `Bearer ${response.json<{ access_token: string }>().access_token}`;

/**
 * The app does not expose its auth service: this one is built with the same token secret,
 * clock and configuration, so its `dashboardLink` is the one the app would mail (a link
 * needs no user lookup; the users part is never called).
 */
function authServiceOf(context: TestContext) {
  const unused = async (): Promise<never> => {
    throw new Error('not used for dashboard links');
  };
  return createAuthService({
    users: { findByEmail: unused, findById: unused, findFirstByRole: unused, setParticipantPassword: unused },
    sessions: createSessionsRepository(context.db),
    db: context.db,
    tokens: createTokenService(context.config.sessionSecret, context.config.accessTokenTtlSeconds),
    clock: context.clock,
    mailer: { send: async () => undefined },
    settings: context.config,
  });
}

const linkTokens = () => createTokenService(ctx.config.sessionSecret, ctx.config.accessTokenTtlSeconds);

async function dashboardToken(userId: string): Promise<string> {
  const link = await authServiceOf(ctx).dashboardLink(userId);
  expect(link.startsWith(`${ctx.config.publicUrl}/participant/link/`)).toBe(true);
  return tokenOfLink(link);
}

const participant = (role: 'USER' | 'HALFUSER' = 'USER') =>
  createUser(ctx.db, { role, clientId, withPassword: role === 'USER' });

/* ---------- password sign-in ---------- */

describe('participant sign-in with a password', () => {
  it('signs a USER in with their profile and an httpOnly participant refresh cookie', async () => {
    const user = await participant();
    const response = await loginUser(user.email);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ access_token: string; expires_in: number; user: object }>();
    expect(body.user).toEqual({
      id: user.id,
      email: user.email,
      first_name: 'Test',
      last_name: 'User',
      role: 'USER',
      has_password: true,
    });
    expect(body.expires_in).toBe(ctx.config.accessTokenTtlSeconds);
    expect(typeof body.access_token).toBe('string');
    expect(cookieOf(response, PARTICIPANT_REFRESH_COOKIE)).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api/auth',
      maxAge: ctx.config.refreshTokenTtlHours * 3600,
    });
    // Never a staff session.
    expect(cookieOf(response, STAFF_REFRESH_COOKIE)).toBeUndefined();

    const verify = await get('/auth/user/verify', bearer(response));
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toEqual({ valid: true, user: body.user });
  });

  it('accepts the email in any case', async () => {
    const user = await participant();
    expect((await loginUser(user.email.toUpperCase())).statusCode).toBe(200);
  });

  it('answers 401 INCORRECT_PASSWORD for a wrong password, a staff account, an unknown email and no password yet', async () => {
    const user = await participant();
    const halfUser = await participant('HALFUSER');
    const answers = await Promise.all([
      loginUser(user.email, 'wrong-password'),
      loginUser(admin.email),
      loginUser(superadmin.email),
      loginUser('nobody@example.test'),
      loginUser(halfUser.email),
    ]);
    for (const response of answers) {
      expectError(response, 401, 'INCORRECT_PASSWORD');
      expect(cookieOf(response, PARTICIPANT_REFRESH_COOKIE)).toBeUndefined();
    }
    // The same answer whatever the reason: nothing tells an account exists.
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
  });
});

/* ---------- dashboard links ---------- */

describe('sign-in through a dashboard link', () => {
  it('signs a HALFUSER in (has_password false) with a refresh cookie, and the token reaches the dashboard', async () => {
    const halfUser = await participant('HALFUSER');
    const response = await loginByLink(await dashboardToken(halfUser.id));
    expect(response.statusCode).toBe(200);
    expect(response.json<{ user: object }>().user).toEqual({
      id: halfUser.id,
      email: halfUser.email,
      first_name: 'Test',
      last_name: 'Halfuser',
      role: 'HALFUSER',
      has_password: false,
    });
    expect(cookieOf(response, PARTICIPANT_REFRESH_COOKIE)?.httpOnly).toBe(true);
    const dashboard = await get('/dashboard', bearer(response));
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.json()).toMatchObject({ user: { id: halfUser.id }, projects: [] });
  });

  it('works for a USER with a password as well, once', async () => {
    const user = await participant();
    const token = await dashboardToken(user.id);
    expect((await loginByLink(token)).json()).toMatchObject({ user: { id: user.id, has_password: true } });
    expectError(await loginByLink(token), 401, 'NOT_AUTHORIZED');
    // Another link of the same participant still works.
    expect((await loginByLink(await dashboardToken(user.id))).statusCode).toBe(200);
  });

  it('refuses an expired link: signed in the past, or used after its days have passed', async () => {
    const halfUser = await participant('HALFUSER');
    const ttl = ctx.config.linkTtlDays;
    const old = await linkTokens().signLinkToken(halfUser.id, new Date(Date.parse(NOW) - (ttl + 1) * DAY), ttl);
    expectError(await loginByLink(old), 401, 'NOT_AUTHORIZED');

    const token = await dashboardToken(halfUser.id);
    ctx.clock.advance(ttl * DAY - 60_000);
    expect((await loginByLink(token)).statusCode).toBe(200);
    const unused = await dashboardToken(halfUser.id);
    ctx.clock.advance(ttl * DAY + 60_000);
    expectError(await loginByLink(unused), 401, 'NOT_AUTHORIZED');
  });

  it('refuses a tampered token, another secret’s token, an access token and garbage', async () => {
    const halfUser = await participant('HALFUSER');
    const other = await participant('HALFUSER');
    const token = await dashboardToken(halfUser.id);
    const [header, payload, signature] = token.split('.') as [string, string, string];

    // Another user's id in the payload, the signature kept.
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: other.id }),
    ).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    const otherSecret = await createTokenService('another-secret-that-is-long-enough-for-hs256', 900).signLinkToken(
      halfUser.id,
      new Date(NOW),
      30,
    );
    const accessToken = await linkTokens().signAccessToken(
      { userId: halfUser.id, role: 'HALFUSER', clientId },
      new Date(NOW),
    );
    const signedInAccess = bearer(await loginByLink(token)).slice('Bearer '.length);

    for (const bad of [
      `${header}.${forgedPayload}.${signature}`,
      `${header}.${payload}.${flipped}`,
      otherSecret,
      accessToken,
      signedInAccess,
      'not-a-token-at-all',
    ]) {
      const response = await loginByLink(bad);
      expectError(response, 401, 'NOT_AUTHORIZED');
      expect(cookieOf(response, PARTICIPANT_REFRESH_COOKIE)).toBeUndefined();
    }
    // And the other way round: a link token is no bearer token.
    expectError(await get('/dashboard', `Bearer ${token}`), 401, 'NOT_AUTHORIZED');
  });

  it('refuses the link of a staff member and of a user that does not exist', async () => {
    for (const userId of [admin.id, superadmin.id, '00000000-0000-4000-8000-000000000000']) {
      const token = await linkTokens().signLinkToken(userId, new Date(NOW), 30);
      expectError(await loginByLink(token), 401, 'NOT_AUTHORIZED');
    }
  });

  it('refuses a malformed body with 400', async () => {
    const response = (await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login/halfuser',
      payload: { token: 'x', extra: true },
    })) as Reply;
    expectError(response, 400, 'VALIDATION_ERROR');
  });
});

/* ---------- refresh, verify, logout ---------- */

describe('participant sessions', () => {
  it('rotates the refresh cookie; reusing an old one answers 401 and revokes the family', async () => {
    const user = await participant();
    const signedIn = await loginUser(user.email);
    const first = cookieOf(signedIn, PARTICIPANT_REFRESH_COOKIE)!.value;

    const refreshed = await refreshParticipant(first);
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json()).toMatchObject({ user: { id: user.id, role: 'USER', has_password: true } });
    expect(cookieOf(refreshed, PARTICIPANT_REFRESH_COOKIE)).toMatchObject({ httpOnly: true, path: '/api/auth' });
    const second = cookieOf(refreshed, PARTICIPANT_REFRESH_COOKIE)!.value;
    expect(second).not.toBe(first);
    expect((await get('/auth/user/verify', bearer(refreshed))).statusCode).toBe(200);

    // Past the grace that two tabs refreshing at once get.
    ctx.clock.advance((REFRESH_GRACE_SECONDS + 1) * 1000);
    const reused = await refreshParticipant(first);
    expectError(reused, 401, 'NOT_AUTHORIZED');
    // The failed refresh clears the cookie.
    expect(cookieOf(reused, PARTICIPANT_REFRESH_COOKIE)?.value).toBe('');
    // The reuse revoked the newer token of the family too.
    expectError(await refreshParticipant(second), 401, 'NOT_AUTHORIZED');
  });

  it('refuses a refresh without a cookie, with an unknown one and after expiry', async () => {
    expectError(await refreshParticipant(undefined), 401, 'NOT_AUTHORIZED');
    expectError(await refreshParticipant('not-a-token'), 401, 'NOT_AUTHORIZED');
    const user = await participant();
    const signedIn = await loginUser(user.email);
    ctx.clock.advance((ctx.config.refreshTokenTtlHours + 1) * 3600_000);
    expectError(await refreshParticipant(cookieOf(signedIn, PARTICIPANT_REFRESH_COOKIE)!.value), 401, 'NOT_AUTHORIZED');
  });

  it('keeps staff and participant sessions apart', async () => {
    const user = await participant();
    const staff = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login/admin',
      payload: { email: admin.email, password: TEST_PASSWORD },
    });
    expect(staff.statusCode).toBe(200);
    const staffCookie = cookieOf(staff as Reply, STAFF_REFRESH_COOKIE)!.value;

    // A staff cookie, under its own name or the participant's, is no participant session.
    expectError(await refreshParticipant(staffCookie, STAFF_REFRESH_COOKIE), 401, 'NOT_AUTHORIZED');
    expectError(await refreshParticipant(staffCookie), 401, 'NOT_AUTHORIZED');

    // A participant cookie sent as the staff cookie is no staff session.
    const signedIn = await loginUser(user.email);
    const participantCookie = cookieOf(signedIn, PARTICIPANT_REFRESH_COOKIE)!.value;
    const asStaff = (await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/admin/refresh',
      cookies: { [STAFF_REFRESH_COOKIE]: participantCookie },
    })) as Reply;
    expectError(asStaff, 401, 'NOT_AUTHORIZED');
    expect(cookieOf(asStaff, STAFF_REFRESH_COOKIE)?.value).toBe('');
  });

  it('verifies a participant access token; a staff token, none or an expired one is refused', async () => {
    const user = await participant();
    const authorization = bearer(await loginUser(user.email));
    expect((await get('/auth/user/verify', authorization)).json()).toMatchObject({
      valid: true,
      user: { id: user.id },
    });
    expectError(await get('/auth/user/verify', (await bearerFor(ctx.app, admin)).authorization), 403, 'FORBIDDEN');
    expectError(await get('/auth/user/verify'), 401, 'NOT_AUTHORIZED');
    ctx.clock.advance((ctx.config.accessTokenTtlSeconds + 1) * 1000);
    expectError(await get('/auth/user/verify', authorization), 401, 'NOT_AUTHORIZED');
  });

  it('logout revokes the refresh token on the server and clears the cookie', async () => {
    const user = await participant();
    const signedIn = await loginUser(user.email);
    const cookie = cookieOf(signedIn, PARTICIPANT_REFRESH_COOKIE)!.value;
    const logout = (await ctx.app.inject({
      method: 'DELETE',
      url: '/api/auth/user/logout',
      headers: { authorization: bearer(signedIn) },
      cookies: { [PARTICIPANT_REFRESH_COOKIE]: cookie },
    })) as Reply;
    expect(logout.statusCode).toBe(204);
    expect(cookieOf(logout, PARTICIPANT_REFRESH_COOKIE)?.value).toBe('');
    expectError(await refreshParticipant(cookie), 401, 'NOT_AUTHORIZED');

    const anonymous = (await ctx.app.inject({ method: 'DELETE', url: '/api/auth/user/logout' })) as Reply;
    expectError(anonymous, 401, 'NOT_AUTHORIZED');
  });
});

/* ---------- staff calls and participant calls ---------- */

describe('a refresh without a cookie', () => {
  it('answers 401 and clears nothing, so it cannot undo a sign-in answered meanwhile', async () => {
    const participant = await refreshParticipant(undefined);
    expect(participant.statusCode).toBe(401);
    expect(participant.cookies).toEqual([]);
    const staff = await ctx.app.inject({ method: 'GET', url: '/api/auth/admin/refresh' });
    expect(staff.statusCode).toBe(401);
    expect(staff.cookies).toEqual([]);
  });
});

describe('participants and staff each keep to their own calls', () => {
  it('refuses participant tokens on staff calls with 403 FORBIDDEN', async () => {
    const asSuperadmin = await bearerFor(ctx.app, superadmin);
    const project = await ctx.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: asSuperadmin,
      payload: projectBody(clientId),
    });
    expect(project.statusCode).toBe(201);
    const projectId = project.json<{ id: string }>().id;
    const draft = await ctx.app.inject({
      method: 'GET',
      url: `/api/projects/${projectId}`,
      headers: asSuperadmin,
    });
    const diseaseTypeId = draft.json<{ disease_types: { id: string }[] }>().disease_types[0]!.id;
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/cases',
      headers: asSuperadmin,
      payload: { project_id: projectId, name: 'Staff only', disease_type_id: diseaseTypeId },
    });
    expect(created.statusCode).toBe(201);
    const caseId = created.json<{ id: string }>().id;

    const user = await participant();
    const halfUser = await participant('HALFUSER');
    for (const authorization of [
      bearer(await loginUser(user.email)),
      bearer(await loginByLink(await dashboardToken(halfUser.id))),
    ]) {
      for (const url of [
        '/projects',
        `/projects/${projectId}`,
        `/cases/${caseId}`,
        '/users/me',
        '/auth/admin/verify',
        `/users/${user.id}/project/${projectId}`,
      ]) {
        expectError(await get(url, authorization), 403, 'FORBIDDEN');
      }
      const write = (await ctx.app.inject({
        method: 'POST',
        url: `/api/cases/${caseId}/status`,
        headers: { authorization },
        payload: { status: 'PUBLISHED' },
      })) as Reply;
      expectError(write, 403, 'FORBIDDEN');
    }
  });

  it('refuses staff tokens on the participants’ calls with 403 FORBIDDEN', async () => {
    for (const staff of [admin, superadmin]) {
      const { authorization } = await bearerFor(ctx.app, staff);
      expectError(await get('/dashboard', authorization), 403, 'FORBIDDEN');
      expectError(await get('/auth/user/verify', authorization), 403, 'FORBIDDEN');
      const password = (await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/password',
        headers: { authorization },
        payload: { password: 'a-new-password' },
      })) as Reply;
      expectError(password, 403, 'FORBIDDEN');
    }
    expectError(await get('/dashboard'), 401, 'NOT_AUTHORIZED');
  });
});

/* ---------- creating a password ---------- */

describe('a participant creates a password', () => {
  function setPassword(authorization: string, password: string, currentPassword?: string) {
    return ctx.app.inject({
      method: 'POST',
      url: '/api/auth/password',
      headers: { authorization },
      payload: currentPassword === undefined ? { password } : { password, current_password: currentPassword },
    }) as Promise<Reply>;
  }

  it('refuses 5 characters with PASSWORD_TOO_SHORT and changes nothing', async () => {
    const halfUser = await participant('HALFUSER');
    const authorization = bearer(await loginByLink(await dashboardToken(halfUser.id)));
    const response = await setPassword(authorization, '12345');
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.json().details?.fields).toEqual([
      expect.objectContaining({ field: 'body.password', errorCode: 'PASSWORD_TOO_SHORT' }),
    ]);
    const [row] = await ctx.db.select().from(users).where(eq(users.id, halfUser.id));
    expect({ role: row!.role, passwordHash: row!.passwordHash }).toEqual({ role: 'HALFUSER', passwordHash: null });
    expectError(await setPassword('Bearer nope', '123456'), 401, 'NOT_AUTHORIZED');
  });

  it('takes 6 characters: the HALFUSER becomes a USER and signs in with the password', async () => {
    const halfUser = await participant('HALFUSER');
    const authorization = bearer(await loginByLink(await dashboardToken(halfUser.id)));
    expect((await setPassword(authorization, '123456')).statusCode).toBe(204);

    const [row] = await ctx.db.select().from(users).where(eq(users.id, halfUser.id));
    expect(row!.role).toBe('USER');
    expect(row!.passwordHash).not.toBeNull();
    expect(row!.passwordHash).not.toContain('123456');

    const signedIn = await loginUser(halfUser.email, '123456');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { id: halfUser.id, role: 'USER', has_password: true } });
    expectError(await loginUser(halfUser.email, '1234567'), 401, 'INCORRECT_PASSWORD');
  });

  it('lets a USER change their password: the old one stops working', async () => {
    const user = await participant();
    const authorization = bearer(await loginUser(user.email));
    expectError(await setPassword(authorization, 'a-brand-new-one'), 403, 'CURRENT_PASSWORD_INCORRECT');
    expect((await setPassword(authorization, 'a-brand-new-one', TEST_PASSWORD)).statusCode).toBe(204);
    expectError(await loginUser(user.email), 401, 'INCORRECT_PASSWORD');
    expect((await loginUser(user.email, 'a-brand-new-one')).json()).toMatchObject({ user: { role: 'USER' } });
  });
});
