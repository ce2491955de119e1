import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { rowsOf } from '../../db/client.js';
import type { MailMessage } from '../../lib/mailer.js';
import { expectError, type Reply } from '../../../test/kit.js';
import {
  createClient,
  createTestContext,
  createUser,
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/test-app.js';
import type { UserRow } from '../users/users.service.js';
import { createSecondFactorRepository } from './second-factor/second-factor.repository.js';
import { newTotpSecret } from './second-factor/totp.js';
import { UNLOCK_LINK_TTL_HOURS } from './account-locks.js';

/**
 * The lockout stops the guesser, not the owner (issue #46): failures count per account and
 * per address; a locked account refuses the addresses that failed on it, mails its owner a
 * single-use unlock link, and still lets in a right password with a right second factor from
 * an address that has not failed on it. LOGIN_MAX_FAILURES is 3 here.
 */
let ctx: TestContext;
const mail: MailMessage[] = [];

beforeAll(async () => {
  ctx = await createTestContext({
    env: { LOGIN_MAX_FAILURES: '3' },
    mailer: { send: async (message) => void mail.push(message) },
  });
});
afterAll(() => ctx.close());

const STEP_MS = 30_000;

function post(url: string, payload: object, address: string): Promise<Reply> {
  return ctx.app.inject({ method: 'POST', url: `/api${url}`, payload, remoteAddress: address }) as Promise<Reply>;
}

const staffSignIn = (user: UserRow, password: string, address: string) =>
  post('/auth/admin/login', { email: user.email, password }, address);
const participantSignIn = (user: Pick<UserRow, 'email'>, password: string, address: string) =>
  post('/auth/login/user', { email: user.email, password }, address);

/** A client administrator with an authenticator app set up: a code for the clock's next step, each call. */
async function memberWithApp(): Promise<{ user: UserRow; nextCode: () => Promise<string> }> {
  const user = await createUser(ctx.db, { role: 'ADMIN', clientId: (await createClient(ctx.db)).id });
  const factors = createSecondFactorRepository(ctx.db);
  const secret = newTotpSecret();
  const now = ctx.clock.now();
  await factors.startTotp(user.id, secret, now);
  await factors.confirmTotp(user.id, secret, Math.floor(now.getTime() / STEP_MS) - 1, now);
  return {
    user,
    // Each code is taken once: the clock moves a step before the next.
    nextCode: async () => {
      ctx.clock.advance(STEP_MS);
      return generate({ secret, epoch: Math.floor(ctx.clock.now().getTime() / 1000) });
    },
  };
}

const lockMails = (user: Pick<UserRow, 'email'>) =>
  mail.filter((m) => m.to === user.email && m.subject === 'Your Patient Simulation Platform account was locked');

function unlockTokenOf(message: MailMessage | undefined): string {
  const token = /\/unlock-account\?token=([\w-]+)/.exec(message?.text ?? '')?.[1];
  if (!token) throw new Error(`no unlock link in ${message?.text}`);
  return token;
}

interface EventRow {
  action: string;
  actor_id: string | null;
  actor_role: string;
  target_id: string | null;
  ip: string | null;
  changes: Record<string, unknown>;
  outcome: string;
}
const lockEventsOf = async (user: UserRow) =>
  rowsOf<EventRow>(
    await ctx.db.execute(sql`
      select action, actor_id, actor_role, target_id, ip, changes, outcome from audit_events
      where target_id = ${user.id} and action in ('auth.accountLocked', 'auth.unlock') order by seq`),
  );

describe('the lockout sequence', () => {
  it('guesses lock the account; its owner still signs in with password and code from another address, and with the emailed link', async () => {
    const { user, nextCode } = await memberWithApp();
    const guesser = '192.0.2.66';
    for (let i = 0; i < 3; i++) expectError(await staffSignIn(user, `wrong-${i}`, guesser), 401, 'INCORRECT_PASSWORD');
    // Locked: the guesser's address is refused, the right password as a wrong one.
    for (const password of [TEST_PASSWORD, 'wrong-again']) {
      const refused = await staffSignIn(user, password, guesser);
      expectError(refused, 429, 'ACCOUNT_LOCKED');
      expect(refused.headers['retry-after']).toBe(String(15 * 60));
    }
    expect(lockMails(user)).toHaveLength(1);
    expect(await lockEventsOf(user)).toEqual([
      {
        action: 'auth.accountLocked',
        actor_id: null,
        actor_role: 'SYSTEM',
        target_id: user.id,
        ip: guesser,
        changes: { locked: { before: false, after: true } },
        outcome: 'success',
      },
    ]);

    // The owner, from their own address: password, then the app's code.
    const owner = '192.0.2.10';
    const half = await staffSignIn(user, TEST_PASSWORD, owner);
    expect(half.statusCode, half.body).toBe(200);
    const { mfa_token } = half.json<{ mfa_token: string }>();
    const signedIn = await post('/auth/mfa/verify', { mfa_token, code: await nextCode() }, owner);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json<{ user: { id: string } }>().user.id).toBe(user.id);

    // Another address's first guess is checked (and answered as the lock), then it is refused too.
    const second = '192.0.2.67';
    expectError(await staffSignIn(user, 'wrong-from-elsewhere', second), 429, 'ACCOUNT_LOCKED');
    expectError(await staffSignIn(user, TEST_PASSWORD, second), 429, 'ACCOUNT_LOCKED');
    // One mail while its link stands, however long the guessing goes on.
    expect(lockMails(user)).toHaveLength(1);

    // The emailed link unlocks the account, once; the lock and the unlock are both in the trail.
    const token = unlockTokenOf(lockMails(user)[0]);
    const unlocked = await post('/auth/unlock', { token }, '198.51.100.200');
    expect(unlocked.statusCode, unlocked.body).toBe(204);
    expectError(await post('/auth/unlock', { token }, '198.51.100.200'), 400, 'UNLOCK_LINK_INVALID');
    expect((await lockEventsOf(user)).map((e) => [e.action, e.actor_id, e.changes])).toEqual([
      ['auth.accountLocked', null, { locked: { before: false, after: true } }],
      ['auth.unlock', user.id, { locked: { before: true, after: false } }],
    ]);
    // Unlocked: the address that failed signs in as before.
    const after = await staffSignIn(user, TEST_PASSWORD, guesser);
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json()).toMatchObject({ mfa_required: true });
  });

  it('keeps a locked participant’s account shut to a right password alone, from anywhere, until the emailed link', async () => {
    const user = await createUser(ctx.db, { role: 'USER', clientId: null });
    for (let i = 0; i < 3; i++) {
      expectError(await participantSignIn(user, `wrong-${i}`, '192.0.2.70'), 401, 'INCORRECT_PASSWORD');
    }
    // No second factor to vouch for a right password: every address gets the lock's answer,
    // right or wrong, so a guess tells nothing.
    expectError(await participantSignIn(user, TEST_PASSWORD, '192.0.2.71'), 429, 'ACCOUNT_LOCKED');
    expectError(await participantSignIn(user, 'wrong-3', '192.0.2.72'), 429, 'ACCOUNT_LOCKED');
    expect(lockMails(user)).toHaveLength(1);

    expect((await post('/auth/unlock', { token: unlockTokenOf(lockMails(user)[0]) }, '192.0.2.71')).statusCode).toBe(
      204,
    );
    expect((await participantSignIn(user, TEST_PASSWORD, '192.0.2.71')).statusCode).toBe(200);
  });

  it('answers an unknown address as a locked account once it has as many failures, and mails no one', async () => {
    const unknown = { email: 'nobody-here@example.test' };
    const before = mail.length;
    for (let i = 0; i < 3; i++) {
      expectError(await participantSignIn(unknown, `wrong-${i}`, '192.0.2.75'), 401, 'INCORRECT_PASSWORD');
    }
    expectError(await participantSignIn(unknown, 'wrong-3', '192.0.2.76'), 429, 'ACCOUNT_LOCKED');
    expect(mail.length).toBe(before);
  });
});

describe('wrong second-factor codes', () => {
  it('lock the account: the right code from the guesser’s address is refused, from the owner’s it signs in', async () => {
    const { user, nextCode } = await memberWithApp();
    // Someone who knows the password guesses codes.
    const guesser = '192.0.2.80';
    const half = await staffSignIn(user, TEST_PASSWORD, guesser);
    const { mfa_token } = half.json<{ mfa_token: string }>();
    for (const code of ['000001', '000002', 'aaaa-bbbb-cccc']) {
      expectError(await post('/auth/mfa/verify', { mfa_token, code }, guesser), 401, 'MFA_CODE_INCORRECT');
    }
    expectError(await post('/auth/mfa/verify', { mfa_token, code: await nextCode() }, guesser), 429, 'ACCOUNT_LOCKED');
    expectError(await staffSignIn(user, TEST_PASSWORD, guesser), 429, 'ACCOUNT_LOCKED');
    // Its owner is told (someone has the password) and gets the link.
    expect(lockMails(user)).toHaveLength(1);

    const owner = '192.0.2.81';
    const own = await staffSignIn(user, TEST_PASSWORD, owner);
    expect(own.statusCode, own.body).toBe(200);
    const signedIn = await post(
      '/auth/mfa/verify',
      { mfa_token: own.json<{ mfa_token: string }>().mfa_token, code: await nextCode() },
      owner,
    );
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });
});

describe('POST /auth/unlock', () => {
  it('refuses a malformed body, and a link that is unknown or expired, changing nothing', async () => {
    for (const body of [{}, { token: '' }, { token: 'x'.repeat(201) }, { token: 'abc', extra: 1 }]) {
      expectError(await post('/auth/unlock', body, '192.0.2.90'), 400, 'VALIDATION_ERROR');
    }
    expectError(
      await post('/auth/unlock', { token: 'not-a-link-anyone-was-sent' }, '192.0.2.90'),
      400,
      'UNLOCK_LINK_INVALID',
    );

    const user = await createUser(ctx.db, { role: 'USER', clientId: null });
    for (let i = 0; i < 3; i++) await participantSignIn(user, `wrong-${i}`, '192.0.2.91');
    const token = unlockTokenOf(lockMails(user)[0]);
    ctx.clock.advance(UNLOCK_LINK_TTL_HOURS * 3_600_000 + 1000);
    expectError(await post('/auth/unlock', { token }, '192.0.2.91'), 400, 'UNLOCK_LINK_INVALID');
    expect(await lockEventsOf(user)).toHaveLength(1);
  });
});
