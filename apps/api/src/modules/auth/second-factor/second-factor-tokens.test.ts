import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { rowsOf } from '../../../db/client.js';
import { expectError, type Reply } from '../../../../test/kit.js';
import { softwarePasskey } from '../../../../test/software-passkey.js';
import {
  createClient,
  createTestContext,
  createUser,
  TEST_PASSWORD,
  type TestContext,
} from '../../../../test/test-app.js';
import type { UserRow } from '../../users/users.service.js';
import { createTokenService, newRefreshToken } from '../../../lib/tokens.js';
import { STAFF_REFRESH_COOKIE } from '../auth.routes.js';
import { createSessionsRepository } from '../sessions.repository.js';

/**
 * What a member's factors vouch for ends when they change (issue #46). A half-signed-in token
 * completes one sign-in at most, and dies as soon as the member's factors change: a token kept
 * from an earlier sign-in cannot enrol a factor of its own once the owner has one. Adding or
 * removing a factor ends the member's other sessions (the caller's own stays); a superadmin's
 * reset ends them all, access tokens and refresh cookies at once. Superadmins must have a factor.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ env: { MFA_REQUIRED_ROLES: 'superadmin' } });
});
afterAll(() => ctx.close());

const STEP_MS = 30_000;

function inject(method: 'GET' | 'POST' | 'DELETE', url: string, token: string | null, payload?: object) {
  return ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload ? { payload } : {}),
  });
}

const codeOf = (secret: string) => generate({ secret, epoch: Math.floor(ctx.clock.now().getTime() / 1000) });
const newKey = () => softwarePasskey(ctx.config.passkeys.rpId, ctx.config.passkeys.origins[0]!);

/** A password sign-in's answer: a session, or the token of a step still to take. */
async function passwordSignIn(user: UserRow): Promise<Reply> {
  const reply = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/admin/login',
    payload: { email: user.email, password: TEST_PASSWORD },
  });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply;
}

const mfaTokenOf = async (user: UserRow) => (await passwordSignIn(user)).json<{ mfa_token: string }>().mfa_token;

interface Session {
  access: string;
  refresh: string;
}

function sessionOf(reply: Reply, body: { access_token: string } = reply.json()): Session {
  const refresh = reply.cookies.find((cookie) => cookie.name === STAFF_REFRESH_COOKIE);
  expect(refresh, reply.body).toBeDefined();
  return { access: body.access_token, refresh: refresh!.value };
}

/** Whether a session still answers: its access token on users/me. */
const answers = async (session: Session) => (await inject('GET', '/users/me', session.access)).statusCode;

/** Whether its refresh cookie still gives a new access token (it is spent if so: the next one is kept). */
async function refreshes(session: Session): Promise<number> {
  const reply = await ctx.app.inject({
    method: 'GET',
    url: '/api/auth/admin/refresh',
    cookies: { [STAFF_REFRESH_COOKIE]: session.refresh },
  });
  if (reply.statusCode === 200) Object.assign(session, sessionOf(reply));
  return reply.statusCode;
}

/** A member's live sessions (refresh-token families), as the database has them. */
async function liveSessions(userId: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await ctx.db.execute(
      sql`select count(distinct family_id)::int as n from sessions where user_id = ${userId} and revoked_at is null`,
    ),
  );
  return row!.n;
}

async function passkeysOf(userId: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await ctx.db.execute(sql`select count(*)::int as n from passkeys where user_id = ${userId}`),
  );
  return row!.n;
}

/** Sets up an authenticator app with a half-signed-in `enroll` token (or a session): its secret and the answer. */
async function enrolApp(token: string): Promise<{ secret: string; confirmed: Reply }> {
  const enrolment = await inject('POST', '/auth/mfa/totp/enroll', token);
  expect(enrolment.statusCode, enrolment.body).toBe(200);
  const { secret } = enrolment.json<{ secret: string }>();
  const confirmed = await inject('POST', '/auth/mfa/totp/confirm', token, { code: await codeOf(secret) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  // The code that confirmed it is spent: the next one is the next step's.
  ctx.clock.advance(STEP_MS);
  return { secret, confirmed };
}

/** The session an enrolment completed. */
const enrolmentSession = (reply: Reply) =>
  sessionOf(reply, reply.json<{ session: { access_token: string } }>().session);

/** A superadmin through their own enrolment: their session and their app's secret. */
async function enrolledSuperadmin(): Promise<{ user: UserRow; session: Session; secret: string }> {
  const user = await createUser(ctx.db, { role: 'SUPERADMIN' });
  const { secret, confirmed } = await enrolApp(await mfaTokenOf(user));
  return { user, secret, session: enrolmentSession(confirmed) };
}

/** A session made in the database as a sign-in makes one, without the sign-in (which asks for a factor now). */
async function sessionMadeFor(user: UserRow): Promise<Session> {
  const now = ctx.clock.now();
  const familyId = randomUUID();
  const refresh = newRefreshToken();
  await createSessionsRepository(ctx.db).insert({
    userId: user.id,
    tokenHash: refresh.hash,
    familyId,
    expiresAt: new Date(now.getTime() + ctx.config.refreshTokenTtlHours * 3600_000),
    createdAt: now,
  });
  const access = await createTokenService(ctx.config.sessionSecret, ctx.config.accessTokenTtlSeconds).signAccessToken(
    { userId: user.id, role: user.role, clientId: user.clientId, sessionId: familyId },
    now,
  );
  return { access, refresh: refresh.token };
}

/** A client administrator (no factor required) signed in with the password alone. */
async function administrator(): Promise<{ user: UserRow; session: Session }> {
  const user = await createUser(ctx.db, { role: 'ADMIN', clientId: (await createClient(ctx.db)).id });
  return { user, session: sessionOf(await passwordSignIn(user)) };
}

/** The options of a passkey registration begun with a token, and a software passkey's answer to them. */
async function passkeyAnswer(token: string) {
  const key = newKey();
  const options = await inject('POST', '/auth/mfa/webauthn/register/options', token);
  expect(options.statusCode, options.body).toBe(200);
  return { key, response: key.register(options.json<{ challenge: string }>()) };
}

/** A passkey sign-in as the second step: the session, or the refusal. */
async function passkeySignIn(token: string, key: ReturnType<typeof newKey>): Promise<Reply> {
  const options = await inject('POST', '/auth/mfa/webauthn/options', null, { mfa_token: token });
  expect(options.statusCode, options.body).toBe(200);
  const asked = options.json<{ options: { challenge: string } }>().options;
  return inject('POST', '/auth/mfa/webauthn/verify', null, { mfa_token: token, response: key.signIn(asked) });
}

describe('a half-signed-in token kept from an earlier sign-in', () => {
  it('cannot add a passkey once the owner has set up an app with another sign-in (the penetration test)', async () => {
    const owner = await createUser(ctx.db, { role: 'SUPERADMIN' });
    // Someone who knows the password signs in and keeps the enrolment token; they even begin a passkey's registration.
    const first = await passwordSignIn(owner);
    expect(first.json()).toEqual({ mfa_enrollment_required: true, mfa_token: expect.stringMatching(/^mfa_/) });
    const kept = first.json<{ mfa_token: string }>().mfa_token;
    const begun = await passkeyAnswer(kept);

    // The owner signs in and sets up an authenticator app: that sign-in completes.
    const { secret, confirmed } = await enrolApp(await mfaTokenOf(owner));
    const ownerSession = enrolmentSession(confirmed);

    // The kept token opens nothing now: neither a new registration nor the one begun, nor the app's enrolment.
    expectError(await inject('POST', '/auth/mfa/webauthn/register/options', kept), 401, 'NOT_AUTHORIZED');
    const attacker = newKey();
    const forgedOptions = { challenge: Buffer.from('a challenge never given').toString('base64url') };
    for (const response of [begun.response, attacker.register(forgedOptions)]) {
      const reply = await inject('POST', '/auth/mfa/webauthn/register', kept, { name: 'Mine', response });
      expectError(reply, 401, 'NOT_AUTHORIZED');
      expect(reply.cookies).toEqual([]);
    }
    expectError(await inject('POST', '/auth/mfa/totp/enroll', kept), 401, 'NOT_AUTHORIZED');
    expectError(await inject('POST', '/auth/mfa/totp/confirm', kept, { code: '123456' }), 401, 'NOT_AUTHORIZED');

    // No passkey was added and no session handed out: the owner's is the only one.
    expect(await passkeysOf(owner.id)).toBe(0);
    expect(await liveSessions(owner.id)).toBe(1);
    expect(await answers(ownerSession)).toBe(200);
    // The attacker's key signs no one in alone.
    const alone = (await inject('POST', '/auth/mfa/webauthn/options', null, {})).json<{
      options: { challenge: string };
      mfa_token: string;
    }>();
    const signIn = await inject('POST', '/auth/mfa/webauthn/verify', null, {
      mfa_token: alone.mfa_token,
      response: begun.key.signIn(alone.options),
    });
    expectError(signIn, 401, 'PASSKEY_NOT_VERIFIED');
    // The password now leads to the app's code, and only the code signs in.
    expect((await passwordSignIn(owner)).json()).toMatchObject({ mfa_required: true, methods: ['totp', 'recovery'] });
    const token = await mfaTokenOf(owner);
    const verified = await inject('POST', '/auth/mfa/verify', null, { mfa_token: token, code: await codeOf(secret) });
    expect(verified.statusCode, verified.body).toBe(200);
  });

  it('cannot set up an app once the owner has a passkey, nor a passkey of its own', async () => {
    const owner = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const kept = await mfaTokenOf(owner);
    const ownerToken = await mfaTokenOf(owner);
    // Options may be asked again within an enrolment: the latest answer completes it.
    await passkeyAnswer(ownerToken);
    const again = await passkeyAnswer(ownerToken);
    const registered = await inject('POST', '/auth/mfa/webauthn/register', ownerToken, {
      name: 'Laptop',
      response: again.response,
    });
    expect(registered.statusCode, registered.body).toBe(200);
    expect(registered.json()).toMatchObject({ session: { user: { id: owner.id } } });

    expectError(await inject('POST', '/auth/mfa/totp/enroll', kept), 401, 'NOT_AUTHORIZED');
    expectError(await inject('POST', '/auth/mfa/webauthn/register/options', kept), 401, 'NOT_AUTHORIZED');
    // Nor the token that completed the enrolment: it was spent.
    expectError(await inject('POST', '/auth/mfa/webauthn/register/options', ownerToken), 401, 'NOT_AUTHORIZED');
    expect(await passkeysOf(owner.id)).toBe(1);
  });

  it('lets only one of two enrolments at the same moment complete', async () => {
    const owner = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const tokens = [await mfaTokenOf(owner), await mfaTokenOf(owner)];
    const answered = await Promise.all(tokens.map((token) => passkeyAnswer(token)));
    const replies = await Promise.all(
      tokens.map((token, i) =>
        inject('POST', '/auth/mfa/webauthn/register', token, { name: `Key ${i}`, response: answered[i]!.response }),
      ),
    );
    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, 401]);
    expect(await passkeysOf(owner.id)).toBe(1);
    expect(await liveSessions(owner.id)).toBe(1);
  });

  it('dies when a superadmin resets the member’s factors, as does a sign-in’s second step', async () => {
    const { session: superSession } = await enrolledSuperadmin();
    const { user: member, session } = await administrator();
    const { secret } = await enrolApp(session.access);
    const step = await mfaTokenOf(member);
    const reset = await inject('POST', `/users/${member.id}/mfa/reset`, superSession.access);
    expect(reset.statusCode, reset.body).toBe(204);
    const late = await inject('POST', '/auth/mfa/verify', null, { mfa_token: step, code: await codeOf(secret) });
    expectError(late, 401, 'MFA_SIGN_IN_EXPIRED');
  });
});

describe('a sign-in’s second step', () => {
  it('completes one sign-in: its token cannot be used again, with any factor', async () => {
    const { user, session } = await administrator();
    const { secret, confirmed } = await enrolApp(session.access);
    const [recovery] = confirmed.json<{ recovery_codes: string[] }>().recovery_codes;
    const token = await mfaTokenOf(user);
    const verified = await inject('POST', '/auth/mfa/verify', null, { mfa_token: token, code: await codeOf(secret) });
    expect(verified.statusCode, verified.body).toBe(200);
    ctx.clock.advance(STEP_MS);
    for (const code of [await codeOf(secret), recovery!]) {
      expectError(
        await inject('POST', '/auth/mfa/verify', null, { mfa_token: token, code }),
        401,
        'MFA_SIGN_IN_EXPIRED',
      );
    }
    expectError(
      await inject('POST', '/auth/mfa/webauthn/options', null, { mfa_token: token }),
      401,
      'MFA_SIGN_IN_EXPIRED',
    );
  });

  it('completes one sign-in when two factors are given for it at the same moment', async () => {
    const { user, session } = await administrator();
    const { secret, confirmed } = await enrolApp(session.access);
    const [recovery] = confirmed.json<{ recovery_codes: string[] }>().recovery_codes;
    const token = await mfaTokenOf(user);
    const before = await liveSessions(user.id);
    const replies = await Promise.all(
      [await codeOf(secret), recovery!].map((code) =>
        inject('POST', '/auth/mfa/verify', null, { mfa_token: token, code }),
      ),
    );
    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, 401]);
    expect(await liveSessions(user.id)).toBe(before + 1);
  });

  it('dies when the member’s factors change', async () => {
    const { user, session } = await administrator();
    const { secret } = await enrolApp(session.access);
    const step = await mfaTokenOf(user);
    // The member, signed in elsewhere, adds a passkey: the step asked for before it is gone.
    const { response } = await passkeyAnswer(session.access);
    const added = await inject('POST', '/auth/mfa/webauthn/register', session.access, { name: 'Laptop', response });
    expect(added.statusCode, added.body).toBe(200);
    const late = await inject('POST', '/auth/mfa/verify', null, { mfa_token: step, code: await codeOf(secret) });
    expectError(late, 401, 'MFA_SIGN_IN_EXPIRED');
  });
});

describe('a change of factors ends the member’s other sessions', () => {
  it('when an app is set up or removed: the session that did it stays', async () => {
    const { user, session: current } = await administrator();
    const other = sessionOf(await passwordSignIn(user));
    const { secret } = await enrolApp(current.access);
    expect([await answers(current), await answers(other)]).toEqual([200, 401]);
    expect([await refreshes(current), await refreshes(other)]).toEqual([200, 401]);

    // Signed in again with the app's code, elsewhere; the first session removes the app.
    const token = await mfaTokenOf(user);
    const verified = await inject('POST', '/auth/mfa/verify', null, { mfa_token: token, code: await codeOf(secret) });
    const elsewhere = sessionOf(verified);
    ctx.clock.advance(STEP_MS);
    const removed = await inject('DELETE', '/auth/mfa/totp', current.access, { code: await codeOf(secret) });
    expect(removed.statusCode, removed.body).toBe(204);
    expect([await answers(current), await answers(elsewhere)]).toEqual([200, 401]);
    expect(await refreshes(elsewhere)).toBe(401);
    expect(await liveSessions(user.id)).toBe(1);
  });

  it('when a passkey is added or removed: the session that did it stays', async () => {
    const { user, session: current } = await administrator();
    const other = sessionOf(await passwordSignIn(user));
    const { key, response } = await passkeyAnswer(current.access);
    const added = await inject('POST', '/auth/mfa/webauthn/register', current.access, { name: 'Laptop', response });
    expect(added.statusCode, added.body).toBe(200);
    expect([await answers(current), await answers(other)]).toEqual([200, 401]);
    expect(await refreshes(other)).toBe(401);

    const elsewhere = sessionOf(await passkeySignIn(await mfaTokenOf(user), key));
    const { id } = added.json<{ passkey: { id: string } }>().passkey;
    expect((await inject('DELETE', `/auth/mfa/webauthn/${id}`, current.access)).statusCode).toBe(204);
    expect([await answers(current), await answers(elsewhere)]).toEqual([200, 401]);
    expect(await refreshes(elsewhere)).toBe(401);
    expect(await liveSessions(user.id)).toBe(1);
  });

  it('when a half-signed-in member enrols: every session before it ends, the enrolment’s is kept', async () => {
    const user = await createUser(ctx.db, { role: 'SUPERADMIN' });
    // A session from before the role had to have a factor, made as a sign-in makes one.
    const before = await sessionMadeFor(user);
    expect(await answers(before)).toBe(200);
    const { confirmed } = await enrolApp(await mfaTokenOf(user));
    const enrolled = enrolmentSession(confirmed);
    expect([await answers(enrolled), await answers(before)]).toEqual([200, 401]);
    expect(await refreshes(before)).toBe(401);
    expect(await liveSessions(user.id)).toBe(1);
  });
});

describe('a superadmin’s reset of a member’s factors', () => {
  it('ends every session of the member at once: access tokens and refresh cookies', async () => {
    const { user: superadmin, session: superSession } = await enrolledSuperadmin();
    const { user: member, session: first } = await administrator();
    const { secret } = await enrolApp(first.access);
    const token = await mfaTokenOf(member);
    const second = sessionOf(
      await inject('POST', '/auth/mfa/verify', null, { mfa_token: token, code: await codeOf(secret) }),
    );
    expect([await answers(first), await answers(second)]).toEqual([200, 200]);

    const reset = await inject('POST', `/users/${member.id}/mfa/reset`, superSession.access);
    expect(reset.statusCode, reset.body).toBe(204);
    expect([await answers(first), await answers(second)]).toEqual([401, 401]);
    expect([await refreshes(first), await refreshes(second)]).toEqual([401, 401]);
    expect(await liveSessions(member.id)).toBe(0);
    // The superadmin's own session is untouched.
    expect(await answers(superSession)).toBe(200);
    expect(await liveSessions(superadmin.id)).toBe(1);
  });
});
