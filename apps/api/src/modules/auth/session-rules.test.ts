import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MailMessage } from '../../lib/mailer.js';
import { createTokenService } from '../../lib/tokens.js';
import {
  bearerFor,
  createClient,
  createTestContext,
  createUser,
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/test-app.js';
import type { UserRow } from '../users/users.service.js';
import { PARTICIPANT_REFRESH_COOKIE, STAFF_REFRESH_COOKIE } from './auth.routes.js';
import { REFRESH_GRACE_SECONDS } from './auth.service.js';

const NOW = '2026-03-02T09:00:00Z';
const mail: MailMessage[] = [];
let ctx: TestContext;
let clientId: string;

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW, mailer: { send: async (message) => void mail.push(message) } });
  clientId = (await createClient(ctx.db)).id;
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.set(NOW));

type Reply = Awaited<ReturnType<TestContext['app']['inject']>>;
const cookieOf = (response: Reply, name: string) => response.cookies.find((c) => c.name === name)?.value;
const bearer = (response: Reply) => `Bearer ${response.json<{ access_token: string }>().access_token}`;

let addressCounter = 0;
function loginUser(email: string, password = TEST_PASSWORD) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login/user',
    payload: { email, password },
    remoteAddress: `10.50.0.${++addressCounter % 250}`,
  });
}
const refreshUser = (cookie: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/auth/user/refresh', cookies: { [PARTICIPANT_REFRESH_COOKIE]: cookie } });
const refreshStaff = (cookie: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/auth/admin/refresh', cookies: { [STAFF_REFRESH_COOKIE]: cookie } });
const linkToken = (user: UserRow) =>
  createTokenService(ctx.config.sessionSecret, 900).signLinkToken(user.id, ctx.clock.now(), ctx.config.linkTtlDays);
const loginByLink = (token: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/login/halfuser', payload: { token } });
const setPassword = (authorization: string, payload: { password: string; current_password?: string }) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/password', headers: { authorization }, payload });

describe('two refreshes with the same cookie (two tabs)', () => {
  it('both succeed and the family lives on', async () => {
    const user = await createUser(ctx.db, { role: 'USER', clientId });
    const first = cookieOf(await loginUser(user.email), PARTICIPANT_REFRESH_COOKIE)!;
    const [a, b] = await Promise.all([refreshUser(first), refreshUser(first)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const [nextA, nextB] = [cookieOf(a, PARTICIPANT_REFRESH_COOKIE)!, cookieOf(b, PARTICIPANT_REFRESH_COOKIE)!];
    expect(nextA).not.toBe(nextB);
    // Whichever cookie the browser kept, the session goes on.
    expect((await refreshUser(nextB)).statusCode).toBe(200);
    expect((await refreshUser(nextA)).statusCode).toBe(200);
  });

  it('does the same for staff, one after the other within the grace', async () => {
    const admin = await createUser(ctx.db, { role: 'ADMIN', clientId });
    const signedIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: admin.email, password: TEST_PASSWORD },
    });
    const first = cookieOf(signedIn, STAFF_REFRESH_COOKIE)!;
    const a = await refreshStaff(first);
    ctx.clock.advance((REFRESH_GRACE_SECONDS - 1) * 1000);
    const b = await refreshStaff(first);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((await refreshStaff(cookieOf(a, STAFF_REFRESH_COOKIE)!)).statusCode).toBe(200);
  });

  it('still revokes the family for a token replayed after the grace', async () => {
    const user = await createUser(ctx.db, { role: 'USER', clientId });
    const first = cookieOf(await loginUser(user.email), PARTICIPANT_REFRESH_COOKIE)!;
    const second = cookieOf(await refreshUser(first), PARTICIPANT_REFRESH_COOKIE)!;
    ctx.clock.advance((REFRESH_GRACE_SECONDS + 1) * 1000);
    expect((await refreshUser(first)).statusCode).toBe(401);
    expect((await refreshUser(second)).statusCode).toBe(401);
  });

  it('gives the grace only to the most recent rotation: an older token revokes the family at once', async () => {
    const user = await createUser(ctx.db, { role: 'USER', clientId });
    const first = cookieOf(await loginUser(user.email), PARTICIPANT_REFRESH_COOKIE)!;
    const second = cookieOf(await refreshUser(first), PARTICIPANT_REFRESH_COOKIE)!;
    const third = cookieOf(await refreshUser(second), PARTICIPANT_REFRESH_COOKIE)!;
    expect((await refreshUser(first)).statusCode).toBe(401);
    expect((await refreshUser(third)).statusCode).toBe(401);
  });

  it('gives no grace after logout', async () => {
    const user = await createUser(ctx.db, { role: 'USER', clientId });
    const signedIn = await loginUser(user.email);
    const first = cookieOf(signedIn, PARTICIPANT_REFRESH_COOKIE)!;
    const refreshed = await refreshUser(first);
    await ctx.app.inject({
      method: 'DELETE',
      url: '/api/auth/user/logout',
      headers: { authorization: bearer(refreshed) },
      cookies: { [PARTICIPANT_REFRESH_COOKIE]: cookieOf(refreshed, PARTICIPANT_REFRESH_COOKIE)! },
    });
    expect((await refreshUser(first)).statusCode).toBe(401);
  });
});

describe('dashboard links', () => {
  it('sign in once, even when used twice at the same moment', async () => {
    const halfUser = await createUser(ctx.db, { role: 'HALFUSER', clientId, withPassword: false });
    const token = await linkToken(halfUser);
    const answers = await Promise.all([loginByLink(token), loginByLink(token), loginByLink(token)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401]);
    expect((await loginByLink(token)).statusCode).toBe(401);
  });

  it('give a session that cannot change an existing password without it', async () => {
    const user = await createUser(ctx.db, { role: 'USER', clientId });
    const viaLink = bearer(await loginByLink(await linkToken(user)));
    for (const payload of [{ password: 'taken-over' }, { password: 'taken-over', current_password: 'a-guess' }]) {
      const refused = await setPassword(viaLink, payload);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().errorCode).toBe('CURRENT_PASSWORD_INCORRECT');
    }
    // The password is unchanged.
    expect((await loginUser(user.email)).statusCode).toBe(200);
    expect((await loginUser(user.email, 'taken-over')).statusCode).toBe(401);
  });

  it('let a participant without a password create one without giving any', async () => {
    const halfUser = await createUser(ctx.db, { role: 'HALFUSER', clientId, withPassword: false });
    const viaLink = bearer(await loginByLink(await linkToken(halfUser)));
    expect((await setPassword(viaLink, { password: 'my-first-one' })).statusCode).toBe(204);
  });
});

describe('a password change', () => {
  it('ends the participant’s other sessions and keeps the one that made it', async () => {
    const user = await createUser(ctx.db, { role: 'USER', clientId });
    const other = cookieOf(await loginUser(user.email), PARTICIPANT_REFRESH_COOKIE)!;
    const viaLink = cookieOf(await loginByLink(await linkToken(user)), PARTICIPANT_REFRESH_COOKIE)!;
    const mine = await loginUser(user.email);
    const changed = await setPassword(bearer(mine), { password: 'new-secret', current_password: TEST_PASSWORD });
    expect(changed.statusCode).toBe(204);
    expect((await refreshUser(other)).statusCode).toBe(401);
    expect((await refreshUser(viaLink)).statusCode).toBe(401);
    expect((await refreshUser(cookieOf(mine, PARTICIPANT_REFRESH_COOKIE)!)).statusCode).toBe(200);
  });

  it('made by a superadmin for a staff member ends that member’s sessions', async () => {
    const superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const admin = await createUser(ctx.db, { role: 'ADMIN', clientId });
    const adminSession = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: admin.email, password: TEST_PASSWORD },
    });
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${admin.id}`,
      headers: await bearerFor(ctx.app, superadmin),
      payload: { email: admin.email, first_name: 'Test', last_name: 'Admin', password: 'reset-by-boss' },
    });
    expect(edit.statusCode).toBe(200);
    expect((await refreshStaff(cookieOf(adminSession, STAFF_REFRESH_COOKIE)!)).statusCode).toBe(401);
  });
});

describe('an email change', () => {
  it('ends the user’s sessions and tells the old address', async () => {
    const superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const user = await createUser(ctx.db, { role: 'USER', clientId });
    const session = cookieOf(await loginUser(user.email), PARTICIPANT_REFRESH_COOKIE)!;
    const before = mail.length;
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: await bearerFor(ctx.app, superadmin),
      payload: { email: `moved-${user.email}`, first_name: 'Test', last_name: 'User' },
    });
    expect(edit.statusCode).toBe(200);
    expect((await refreshUser(session)).statusCode).toBe(401);
    await vi.waitFor(() => expect(mail.length).toBeGreaterThan(before));
    expect(mail.slice(before)).toEqual([
      expect.objectContaining({
        to: user.email,
        subject: 'Your Patient Simulation Platform email address was changed',
        text: expect.stringContaining(`to moved-${user.email}`),
      }),
    ]);
  });

  it('leaves sessions and mail alone when the email stays', async () => {
    const superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const user = await createUser(ctx.db, { role: 'USER', clientId });
    const session = cookieOf(await loginUser(user.email), PARTICIPANT_REFRESH_COOKIE)!;
    const before = mail.length;
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: await bearerFor(ctx.app, superadmin),
      payload: { email: user.email.toUpperCase(), first_name: 'Renamed', last_name: 'User' },
    });
    expect(edit.statusCode).toBe(200);
    expect((await refreshUser(session)).statusCode).toBe(200);
    expect(mail.length).toBe(before);
  });
});
