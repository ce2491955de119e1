import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { RECOVERY_CODE_COUNT } from '@pss/contract';
import { rowsOf } from '../../../db/client.js';
import type { MailMessage } from '../../../lib/mailer.js';
import { expectError, type Reply } from '../../../../test/kit.js';
import {
  createClient,
  createTestContext,
  createUser,
  TEST_PASSWORD,
  type TestContext,
} from '../../../../test/test-app.js';
import type { UserRow } from '../../users/users.service.js';
import { softwarePasskey } from '../../../../test/software-passkey.js';

/**
 * Staff sign in with a second factor: an authenticator app set up and confirmed, its codes
 * taken once, recovery codes once each, the attempt limit, the half-signed-in state that
 * opens nothing else, the enrolment a role may require, and a superadmin's reset.
 * LOGIN_MAX_FAILURES is 3 here; superadmins must have a factor.
 */
let ctx: TestContext;
const mail: MailMessage[] = [];
/** Every code, secret and token this file handled: none may be in any event. */
const credentials = new Set<string>();

beforeAll(async () => {
  ctx = await createTestContext({
    env: { LOGIN_MAX_FAILURES: '3', MFA_REQUIRED_ROLES: 'superadmin' },
    mailer: { send: async (message) => void mail.push(message) },
  });
});
afterAll(() => ctx.close());

const STEP_MS = 30_000;

/** The app's code for a secret at the test's clock (and `steps` time steps later). */
async function codeOf(secret: string, steps = 0): Promise<string> {
  const epoch = Math.floor((ctx.clock.now().getTime() + steps * STEP_MS) / 1000);
  const code = await generate({ secret, epoch });
  credentials.add(code);
  return code;
}

function inject(method: 'GET' | 'POST' | 'DELETE', url: string, token: string | null, payload?: object) {
  return ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload ? { payload } : {}),
  });
}

async function passwordSignIn(user: UserRow): Promise<Reply> {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/admin/login',
    payload: { email: user.email, password: TEST_PASSWORD },
  });
}

/** A password sign-in that asks for the second factor: its token. */
async function halfSignedIn(user: UserRow): Promise<string> {
  const reply = await passwordSignIn(user);
  expect(reply.statusCode, reply.body).toBe(200);
  const body = reply.json<{ mfa_required?: boolean; mfa_token: string; access_token?: string }>();
  expect(body.mfa_required).toBe(true);
  expect(body.access_token).toBeUndefined();
  credentials.add(body.mfa_token);
  return body.mfa_token;
}

const accessTokenOf = (reply: Reply) => reply.json<{ access_token: string }>().access_token;

/** A client administrator (no factor required) signed in with a password, with an app set up. */
async function memberWithApp(): Promise<{ user: UserRow; token: string; secret: string; codes: string[] }> {
  const user = await createUser(ctx.db, { role: 'ADMIN', clientId: (await createClient(ctx.db)).id });
  const signedIn = await passwordSignIn(user);
  expect(signedIn.statusCode, signedIn.body).toBe(200);
  const token = accessTokenOf(signedIn);
  const enrolment = await inject('POST', '/auth/mfa/totp/enroll', token);
  expect(enrolment.statusCode, enrolment.body).toBe(200);
  const { secret } = enrolment.json<{ secret: string }>();
  credentials.add(secret);
  const confirmed = await inject('POST', '/auth/mfa/totp/confirm', token, { code: await codeOf(secret) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const codes = confirmed.json<{ recovery_codes: string[] }>().recovery_codes;
  codes.forEach((code) => credentials.add(code));
  // The code that confirmed the app is spent: the next sign-in's code is the next step's.
  ctx.clock.advance(STEP_MS);
  return { user, token, secret, codes };
}

describe('setting up an authenticator app', () => {
  it('shows a secret and its QR code, and completes only with a code made from it', async () => {
    const user = await createUser(ctx.db, { role: 'SUPERADMIN' });
    // The superadmin's role must have a factor: the password leads to enrolment, nothing else.
    const signIn = await passwordSignIn(user);
    expect(signIn.statusCode, signIn.body).toBe(200);
    const half = signIn.json<{ mfa_enrollment_required?: boolean; mfa_token: string; access_token?: string }>();
    expect(half).toEqual({ mfa_enrollment_required: true, mfa_token: expect.stringMatching(/^mfa_/) });
    expect(signIn.cookies).toEqual([]);
    credentials.add(half.mfa_token);
    for (const url of ['/users/me', '/auth/mfa', '/users', '/audit-events']) {
      expectError(await inject('GET', url, half.mfa_token), 401, 'NOT_AUTHORIZED');
    }

    const enrolment = await inject('POST', '/auth/mfa/totp/enroll', half.mfa_token);
    expect(enrolment.statusCode, enrolment.body).toBe(200);
    const { secret, otpauth_url, qr_svg } = enrolment.json<{ secret: string; otpauth_url: string; qr_svg: string }>();
    credentials.add(secret);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toBe(
      `otpauth://totp/Patient%20Simulation%20Platform:${encodeURIComponent(user.email)}?secret=${secret}` +
        '&issuer=Patient%20Simulation%20Platform',
    );
    expect(qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    expectError(
      await inject('POST', '/auth/mfa/totp/confirm', half.mfa_token, { code: '000000' }),
      401,
      'MFA_CODE_INCORRECT',
    );
    const confirmed = await inject('POST', '/auth/mfa/totp/confirm', half.mfa_token, { code: await codeOf(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const done = confirmed.json<{
      recovery_codes: string[];
      session: { access_token: string; user: { id: string } };
    }>();
    done.recovery_codes.forEach((code) => credentials.add(code));
    expect(done.recovery_codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(done.recovery_codes).size).toBe(RECOVERY_CODE_COUNT);
    expect(done.recovery_codes[0]).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    // The enrolment completed the sign-in: its session, with the refresh cookie.
    expect(done.session.user.id).toBe(user.id);
    expect(confirmed.cookies.map((c) => c.name)).toContain('pss_admin_refresh');
    const me = await inject('GET', '/users/me', done.session.access_token);
    expect(me.statusCode).toBe(200);
    // The half-signed-in token is spent.
    expectError(await inject('POST', '/auth/mfa/totp/enroll', half.mfa_token), 401, 'NOT_AUTHORIZED');
    // The codes are kept hashed, never as they were shown.
    const kept = rowsOf<{ code_hash: string }>(
      await ctx.db.execute(sql`select code_hash from recovery_codes where user_id = ${user.id}`),
    );
    expect(kept).toHaveLength(RECOVERY_CODE_COUNT);
    expect(kept.every((row) => row.code_hash.startsWith('$argon2id$'))).toBe(true);

    // Set up once: another app is refused until this one is removed.
    expectError(await inject('POST', '/auth/mfa/totp/enroll', done.session.access_token), 409, 'MFA_ALREADY_ENROLLED');
    const status = await inject('GET', '/auth/mfa', done.session.access_token);
    expect(status.json()).toEqual({ totp: true, passkeys: [], recovery_codes_left: 10, required: true });
  });

  it('lets a member whose role needs no factor sign in with the password alone until they set one up', async () => {
    const user = await createUser(ctx.db, { role: 'ADMIN', clientId: (await createClient(ctx.db)).id });
    const signIn = await passwordSignIn(user);
    expect(signIn.json()).toMatchObject({ access_token: expect.any(String) });
  });
});

describe('signing in with a second factor', () => {
  it('asks for it after the password, and a code of the app completes the sign-in once', async () => {
    const { user, secret } = await memberWithApp();
    const token = await halfSignedIn(user);
    const signIn = await passwordSignIn(user);
    expect(signIn.json()).toMatchObject({ methods: ['totp', 'recovery'] });
    expect(signIn.cookies).toEqual([]);
    expectError(await inject('GET', '/users/me', token), 401, 'NOT_AUTHORIZED');
    // An enrolment call does not take a sign-in's second step either.
    expectError(await inject('POST', '/auth/mfa/totp/enroll', token), 401, 'NOT_AUTHORIZED');

    const code = await codeOf(secret);
    const verified = await inject('POST', '/auth/mfa/verify', null, { mfa_token: token, code });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ user: { id: user.id }, access_token: expect.any(String) });
    expect(verified.cookies.map((c) => c.name)).toContain('pss_admin_refresh');
    expect((await inject('GET', '/users/me', accessTokenOf(verified))).statusCode).toBe(200);

    // The step completes one sign-in.
    expectError(await inject('POST', '/auth/mfa/verify', null, { mfa_token: token, code }), 401, 'MFA_SIGN_IN_EXPIRED');
    // The same code again, in a new sign-in within its window: refused as used.
    const again = await halfSignedIn(user);
    expectError(await inject('POST', '/auth/mfa/verify', null, { mfa_token: again, code }), 401, 'MFA_CODE_USED');
    // As is the step before it (a third refusal would reach the limit); the next step's code is taken.
    expectError(
      await inject('POST', '/auth/mfa/verify', null, { mfa_token: again, code: await codeOf(secret, -1) }),
      401,
      'MFA_CODE_USED',
    );
    ctx.clock.advance(STEP_MS);
    const next = await inject('POST', '/auth/mfa/verify', null, { mfa_token: again, code: await codeOf(secret) });
    expect(next.statusCode, next.body).toBe(200);
  });

  it('takes each recovery code once, however it is typed', async () => {
    const { user, codes } = await memberWithApp();
    const first = await halfSignedIn(user);
    const typed = codes[3]!.toUpperCase().replaceAll('-', ' ');
    const verified = await inject('POST', '/auth/mfa/verify', null, { mfa_token: first, code: typed });
    expect(verified.statusCode, verified.body).toBe(200);
    const second = await halfSignedIn(user);
    expectError(
      await inject('POST', '/auth/mfa/verify', null, { mfa_token: second, code: codes[3]! }),
      401,
      'MFA_CODE_USED',
    );
    expectError(
      await inject('POST', '/auth/mfa/verify', null, { mfa_token: second, code: 'aaaa-bbbb-cccc' }),
      401,
      'MFA_CODE_INCORRECT',
    );
    const other = await inject('POST', '/auth/mfa/verify', null, { mfa_token: second, code: codes[4]! });
    expect(other.statusCode, other.body).toBe(200);
    const status = await inject('GET', '/auth/mfa', accessTokenOf(other));
    expect(status.json()).toMatchObject({ recovery_codes_left: RECOVERY_CODE_COUNT - 2 });
  });

  it('limits wrong codes as wrong passwords: the account locks, and the address that failed is refused the right one', async () => {
    const { user, secret } = await memberWithApp();
    const token = await halfSignedIn(user);
    for (let i = 0; i < 3; i++) {
      expectError(
        await inject('POST', '/auth/mfa/verify', null, { mfa_token: token, code: `00000${i}` }),
        401,
        'MFA_CODE_INCORRECT',
      );
    }
    const right = await inject('POST', '/auth/mfa/verify', null, { mfa_token: token, code: await codeOf(secret) });
    // From another address, the owner still signs in (modules/auth/account-lockout.test.ts).
    expectError(right, 429, 'ACCOUNT_LOCKED');
  });

  it('lets the half-signed-in state live five minutes', async () => {
    const { user, secret } = await memberWithApp();
    const token = await halfSignedIn(user);
    ctx.clock.advance(5 * 60_000 + 1000);
    const late = await inject('POST', '/auth/mfa/verify', null, { mfa_token: token, code: await codeOf(secret) });
    expectError(late, 401, 'MFA_SIGN_IN_EXPIRED');
    expectError(
      await inject('POST', '/auth/mfa/verify', null, { mfa_token: 'mfa_forged', code: '123456' }),
      401,
      'MFA_SIGN_IN_EXPIRED',
    );
  });
});

describe('a member’s own factors', () => {
  it('removes the app with a current code, and renews the recovery codes', async () => {
    const { token, secret, codes } = await memberWithApp();
    const renewed = await inject('POST', '/auth/mfa/recovery-codes', token, { code: await codeOf(secret) });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh = renewed.json<{ recovery_codes: string[] }>().recovery_codes;
    fresh.forEach((code) => credentials.add(code));
    expect(fresh).toHaveLength(RECOVERY_CODE_COUNT);
    expect(fresh).not.toContain(codes[0]);

    expectError(await inject('DELETE', '/auth/mfa/totp', token, { code: '111111' }), 401, 'MFA_CODE_INCORRECT');
    ctx.clock.advance(STEP_MS);
    const removed = await inject('DELETE', '/auth/mfa/totp', token, { code: await codeOf(secret) });
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await inject('GET', '/auth/mfa', token)).json()).toEqual({
      totp: false,
      passkeys: [],
      recovery_codes_left: 0,
      required: false,
    });
  });

  it('keeps the last factor of a role that must have one', async () => {
    const user = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const half = (await passwordSignIn(user)).json<{ mfa_token: string }>().mfa_token;
    const { secret } = (await inject('POST', '/auth/mfa/totp/enroll', half)).json<{ secret: string }>();
    credentials.add(secret);
    const done = await inject('POST', '/auth/mfa/totp/confirm', half, { code: await codeOf(secret) });
    const token = done.json<{ session: { access_token: string } }>().session.access_token;
    ctx.clock.advance(STEP_MS);
    expectError(
      await inject('DELETE', '/auth/mfa/totp', token, { code: await codeOf(secret) }),
      409,
      'MFA_FACTOR_REQUIRED',
    );
    expect((await inject('GET', '/auth/mfa', token)).json()).toMatchObject({ totp: true });
  });

  it('refuses a passkey response that does not verify, with a catalogue error', async () => {
    const { token } = await memberWithApp();
    const options = await inject('POST', '/auth/mfa/webauthn/register/options', token);
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json()).toMatchObject({ challenge: expect.any(String), rp: { id: 'localhost' } });
    const forged = {
      id: 'abc',
      rawId: 'abc',
      type: 'public-key',
      response: { clientDataJSON: 'e30', attestationObject: 'oA' },
    };
    const reply = await inject('POST', '/auth/mfa/webauthn/register', token, { name: 'Laptop', response: forged });
    expectError(reply, 401, 'PASSKEY_NOT_VERIFIED');
    // A passkey sign-in alone with a key no one registered.
    const begun = (await inject('POST', '/auth/mfa/webauthn/options', null, {})).json<{ mfa_token: string }>();
    const signIn = await inject('POST', '/auth/mfa/webauthn/verify', null, {
      mfa_token: begun.mfa_token,
      response: forged,
    });
    expectError(signIn, 401, 'PASSKEY_NOT_VERIFIED');
  });
});

describe('passkeys', () => {
  const newKey = () => softwarePasskey(ctx.config.passkeys.rpId, ctx.config.passkeys.origins[0]!);

  async function registered(token: string, name = 'Laptop') {
    const key = newKey();
    const options = await inject('POST', '/auth/mfa/webauthn/register/options', token);
    expect(options.statusCode, options.body).toBe(200);
    const response = key.register(options.json<{ challenge: string }>());
    const reply = await inject('POST', '/auth/mfa/webauthn/register', token, { name, response });
    expect(reply.statusCode, reply.body).toBe(200);
    return { key, reply };
  }

  it('registers one, and it completes a sign-in as the second factor or alone', async () => {
    const user = await createUser(ctx.db, { role: 'ADMIN', clientId: (await createClient(ctx.db)).id });
    const token = accessTokenOf(await passwordSignIn(user));
    const { key, reply } = await registered(token);
    const body = reply.json<{ passkey: { id: string; name: string }; recovery_codes: string[] }>();
    body.recovery_codes.forEach((code) => credentials.add(code));
    // The first factor brings the recovery codes.
    expect(body).toMatchObject({ passkey: { name: 'Laptop' }, recovery_codes: expect.any(Array) });
    expect(body.recovery_codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect((await inject('GET', '/auth/mfa', token)).json()).toMatchObject({
      totp: false,
      passkeys: [{ id: body.passkey.id, name: 'Laptop', last_used_at: null }],
    });

    // As the second factor: the password's step names the member's passkeys.
    const signIn = await passwordSignIn(user);
    expect(signIn.json()).toMatchObject({ mfa_required: true, methods: ['webauthn', 'recovery'] });
    const half = signIn.json<{ mfa_token: string }>().mfa_token;
    const options = await inject('POST', '/auth/mfa/webauthn/options', null, { mfa_token: half });
    expect(options.statusCode, options.body).toBe(200);
    const asked = options.json<{ options: { challenge: string; allowCredentials: { id: string }[] } }>().options;
    expect(asked.allowCredentials.map((c) => c.id)).toEqual([key.credentialId]);
    const assertion = key.signIn(asked);
    const verified = await inject('POST', '/auth/mfa/webauthn/verify', null, { mfa_token: half, response: assertion });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ user: { id: user.id } });
    // The same assertion again: its step is spent.
    const replayed = await inject('POST', '/auth/mfa/webauthn/verify', null, { mfa_token: half, response: assertion });
    expectError(replayed, 401, 'MFA_SIGN_IN_EXPIRED');

    // Alone, without the password: any passkey of this site.
    const begun = (await inject('POST', '/auth/mfa/webauthn/options', null, {})).json<{
      options: { challenge: string; allowCredentials?: unknown[] };
      mfa_token: string;
    }>();
    expect(begun.options.allowCredentials ?? []).toEqual([]);
    const alone = await inject('POST', '/auth/mfa/webauthn/verify', null, {
      mfa_token: begun.mfa_token,
      response: key.signIn(begun.options),
    });
    expect(alone.statusCode, alone.body).toBe(200);
    expect(alone.json()).toMatchObject({ user: { id: user.id } });
    expect(alone.cookies.map((c) => c.name)).toContain('pss_admin_refresh');

    // Another member's passkey does not complete this member's sign-in.
    const other = await createUser(ctx.db, { role: 'ADMIN', clientId: (await createClient(ctx.db)).id });
    const otherKey = (await registered(accessTokenOf(await passwordSignIn(other)))).key;
    const mine = (await passwordSignIn(user)).json<{ mfa_token: string }>().mfa_token;
    const mineOptions = (await inject('POST', '/auth/mfa/webauthn/options', null, { mfa_token: mine })).json<{
      options: { challenge: string };
    }>();
    const wrong = await inject('POST', '/auth/mfa/webauthn/verify', null, {
      mfa_token: mine,
      response: otherKey.signIn(mineOptions.options),
    });
    expectError(wrong, 401, 'PASSKEY_NOT_VERIFIED');

    // Removed, it signs no one in.
    expect((await inject('DELETE', `/auth/mfa/webauthn/${body.passkey.id}`, token)).statusCode).toBe(204);
    const after = (await inject('POST', '/auth/mfa/webauthn/options', null, {})).json<{
      options: { challenge: string };
      mfa_token: string;
    }>();
    const gone = await inject('POST', '/auth/mfa/webauthn/verify', null, {
      mfa_token: after.mfa_token,
      response: key.signIn(after.options),
    });
    expectError(gone, 401, 'PASSKEY_NOT_VERIFIED');
  });

  it('is a way through the enrolment a role requires', async () => {
    const user = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const half = (await passwordSignIn(user)).json<{ mfa_token: string }>().mfa_token;
    credentials.add(half);
    const { reply } = await registered(half, 'Security key');
    const body = reply.json<{ session: { access_token: string; user: { id: string } } }>();
    expect(body.session.user.id).toBe(user.id);
    expect(reply.cookies.map((c) => c.name)).toContain('pss_admin_refresh');
    expect((await inject('GET', '/users/me', body.session.access_token)).statusCode).toBe(200);
  });
});

describe('a superadmin’s reset of a member’s factors', () => {
  it('clears them, tells the member, and is recorded', async () => {
    const { user, token } = await memberWithApp();
    const superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
    // The superadmin signs in through their own enrolment (their role must have a factor).
    const half = (await passwordSignIn(superadmin)).json<{ mfa_token: string }>().mfa_token;
    const { secret } = (await inject('POST', '/auth/mfa/totp/enroll', half)).json<{ secret: string }>();
    credentials.add(secret);
    const done = await inject('POST', '/auth/mfa/totp/confirm', half, { code: await codeOf(secret) });
    const superToken = done.json<{ session: { access_token: string } }>().session.access_token;

    expectError(await inject('POST', `/users/${user.id}/mfa/reset`, token), 403, 'FORBIDDEN');
    const reset = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${user.id}/mfa/reset`,
      headers: { authorization: `Bearer ${superToken}`, 'x-request-id': 'second-factor-reset' },
    });
    expect(reset.statusCode, reset.body).toBe(204);
    // The reset ended the member's sessions; they sign in with the password alone again (their role needs no factor).
    expectError(await inject('GET', '/auth/mfa', token), 401, 'NOT_AUTHORIZED');
    const again = await passwordSignIn(user);
    expect(again.json()).toMatchObject({ access_token: expect.any(String) });
    expect((await inject('GET', '/auth/mfa', accessTokenOf(again))).json()).toMatchObject({
      totp: false,
      recovery_codes_left: 0,
    });
    expect(mail.filter((m) => m.to === user.email).map((m) => m.subject)).toEqual([
      'Your Patient Simulation Platform second factor was reset',
    ]);
    const [event] = rowsOf<{
      action: string;
      actor_id: string;
      target_type: string;
      target_id: string;
      changes: Record<string, unknown>;
    }>(await ctx.db.execute(sql`select * from audit_events where request_id = 'second-factor-reset'`));
    expect(event).toMatchObject({
      action: 'users.resetSecondFactor',
      actor_id: superadmin.id,
      target_type: 'user',
      target_id: user.id,
      changes: { authenticator_app: { before: true, after: false } },
    });
    const participant = await createUser(ctx.db, { role: 'USER', clientId: null });
    expectError(await inject('POST', `/users/${participant.id}/mfa/reset`, superToken), 404, 'USER_NOT_FOUND');
  });
});

describe('the audit trail of second factors', () => {
  it('records the sign-ins’ second steps with who they were, and keeps no secret, code or token', async () => {
    const events = rowsOf<{ action: string; actor_id: string | null; outcome: string; text: string }>(
      await ctx.db.execute(
        sql`select action, actor_id, outcome, row_to_json(e)::text as text from audit_events e where action like 'auth.mfa%'`,
      ),
    );
    expect(events.some((e) => e.action === 'auth.mfaVerify' && e.outcome === 'MFA_CODE_USED' && e.actor_id)).toBe(true);
    expect(events.some((e) => e.action === 'auth.mfaTotpConfirm' && e.outcome === 'success')).toBe(true);
    const all = rowsOf<{ text: string; changes: string }>(
      await ctx.db.execute(sql`select row_to_json(e)::text as text, changes::text as changes from audit_events e`),
    );
    // An app's six digits could turn up in any hash or id by chance: they are looked for in what was recorded.
    const leaked = [...credentials].filter((secret) =>
      all.some((e) => (/^\d{6}$/.test(secret) ? e.changes : e.text).includes(secret)),
    );
    expect(leaked).toEqual([]);
    expect(credentials.size).toBeGreaterThan(30);
  });
});
