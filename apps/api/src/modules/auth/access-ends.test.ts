import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRole } from '@pss/contract';
import { buildApp, type App } from '../../app.js';
import { createTokenService } from '../../lib/tokens.js';
import {
  createClient,
  createTestContext,
  createUser,
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/test-app.js';
import type { UserRow } from '../users/users.service.js';
import { PARTICIPANT_REFRESH_COOKIE, STAFF_REFRESH_COOKIE } from './auth.routes.js';

/**
 * An access token ends with its session, not 15 minutes later: sign-out, a password change
 * and an account's removal refuse it from the next request on, in every process. Two apps on
 * one database stand for two processes: what one ends, the other refuses at once. And a
 * token signed with the secret (from a leaked backup, say) is worth nothing without a live
 * session of a user who exists, and carries the role the database gives, not its own.
 */
let ctx: TestContext;
let other: App;
let clientId: string;
let superadmin: UserRow;

beforeAll(async () => {
  ctx = await createTestContext({ env: { ENABLE_SUPERFAKE_LOGIN: 'true' } });
  other = await buildApp({ config: ctx.config, database: ctx.database, clock: ctx.clock, logger: false });
  await other.ready();
  superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
  clientId = (await createClient(ctx.db)).id;
}, 60_000);
afterAll(async () => {
  await other?.close();
  await ctx?.close();
});

type Reply = Awaited<ReturnType<App['inject']>>;
interface Session {
  authorization: string;
  cookies: Record<string, string>;
}

function sessionOf(response: Reply, cookie: string): Session {
  expect(response.statusCode).toBe(200);
  return {
    authorization: `Bearer ${response.json<{ access_token: string }>().access_token}`,
    cookies: { [cookie]: response.cookies.find((c) => c.name === cookie)!.value },
  };
}

let address = 0;
const staffSignIn = async (user: UserRow, app = ctx.app) =>
  sessionOf(
    await app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: user.email, password: TEST_PASSWORD },
      remoteAddress: `10.60.0.${++address % 250}`,
    }),
    STAFF_REFRESH_COOKIE,
  );
const participantSignIn = async (user: UserRow, app = ctx.app) =>
  sessionOf(
    await app.inject({
      method: 'POST',
      url: '/api/auth/login/user',
      payload: { email: user.email, password: TEST_PASSWORD },
      remoteAddress: `10.60.1.${++address % 250}`,
    }),
    PARTICIPANT_REFRESH_COOKIE,
  );

/** users/me for staff, the participant's own check for participants: the status and error code. */
async function answer(app: App, session: Pick<Session, 'authorization'>, participant = false) {
  const response = await app.inject({
    method: 'GET',
    url: participant ? '/api/auth/user/verify' : '/api/users/me',
    headers: { authorization: session.authorization },
  });
  return response.statusCode === 200 ? 200 : `${response.statusCode} ${response.json().errorCode}`;
}
const REFUSED = '401 NOT_AUTHORIZED';

const signTokens = () => createTokenService(ctx.config.sessionSecret, ctx.config.accessTokenTtlSeconds);
const forged = async (claims: { userId: string; role: UserRole; sessionId?: string; clientId?: string | null }) => ({
  authorization: `Bearer ${await signTokens().signAccessToken({ clientId: null, ...claims }, ctx.clock.now())}`,
});

describe('sign-out ends access at once, in every process', () => {
  it('for a staff password session', async () => {
    const admin = await createUser(ctx.db, { role: 'ADMIN', clientId });
    const session = await staffSignIn(admin);
    expect([await answer(ctx.app, session), await answer(other, session)]).toEqual([200, 200]);
    const out = await other.inject({ method: 'DELETE', url: '/api/auth/admin/logout', ...headersOf(session) });
    expect(out.statusCode).toBe(204);
    expect([await answer(ctx.app, session), await answer(other, session)]).toEqual([REFUSED, REFUSED]);
  });

  it('for a staff session whose sign-out came without its refresh cookie', async () => {
    const admin = await createUser(ctx.db, { role: 'ADMIN', clientId });
    const session = await staffSignIn(admin);
    const out = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/auth/admin/logout',
      headers: { authorization: session.authorization },
    });
    expect(out.statusCode).toBe(204);
    expect(await answer(other, session)).toBe(REFUSED);
    // The access token named the session, so the refresh cookie is dead too.
    const refresh = await ctx.app.inject({ method: 'GET', url: '/api/auth/admin/refresh', cookies: session.cookies });
    expect(refresh.statusCode).toBe(401);
  });

  it('for the development sign-in (superfake)', async () => {
    const session = sessionOf(
      await ctx.app.inject({ method: 'POST', url: '/api/auth/login/superfake' }),
      STAFF_REFRESH_COOKIE,
    );
    expect(await answer(other, session)).toBe(200);
    await ctx.app.inject({ method: 'DELETE', url: '/api/auth/admin/logout', ...headersOf(session) });
    expect(await answer(other, session)).toBe(REFUSED);
  });

  it('for a participant’s password session and a dashboard link’s session', async () => {
    const user = await createUser(ctx.db, { role: 'USER', clientId });
    const byPassword = await participantSignIn(user);
    const link = await signTokens().signLinkToken(user.id, ctx.clock.now(), 1);
    const byLink = sessionOf(
      await ctx.app.inject({ method: 'POST', url: '/api/auth/login/halfuser', payload: { token: link } }),
      PARTICIPANT_REFRESH_COOKIE,
    );
    for (const session of [byPassword, byLink]) {
      expect(await answer(other, session, true)).toBe(200);
      const out = await ctx.app.inject({ method: 'DELETE', url: '/api/auth/user/logout', ...headersOf(session) });
      expect(out.statusCode).toBe(204);
      expect([await answer(ctx.app, session, true), await answer(other, session, true)]).toEqual([REFUSED, REFUSED]);
    }
  });

  it('and only that session: the user’s others go on', async () => {
    const admin = await createUser(ctx.db, { role: 'ADMIN', clientId });
    const [first, second] = [await staffSignIn(admin), await staffSignIn(admin, other)];
    await ctx.app.inject({ method: 'DELETE', url: '/api/auth/admin/logout', ...headersOf(first) });
    expect([await answer(other, first), await answer(other, second)]).toEqual([REFUSED, 200]);
  });
});

describe('a password change ends the other sessions’ access at once', () => {
  it('when a participant changes their own password (their own session goes on)', async () => {
    const user = await createUser(ctx.db, { role: 'USER', clientId });
    const [mine, elsewhere] = [await participantSignIn(user), await participantSignIn(user, other)];
    const changed = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/password',
      headers: { authorization: mine.authorization },
      payload: { password: 'a-brand-new-password', current_password: TEST_PASSWORD },
    });
    expect(changed.statusCode).toBe(204);
    expect([await answer(other, mine, true), await answer(other, elsewhere, true)]).toEqual([200, REFUSED]);
  });

  it('when a superadmin sets a staff member’s password', async () => {
    const admin = await createUser(ctx.db, { role: 'ADMIN', clientId });
    const session = await staffSignIn(admin, other);
    const changed = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${admin.id}`,
      headers: { authorization: (await staffSignIn(superadmin)).authorization },
      payload: { email: admin.email, first_name: 'Ada', last_name: 'Admin', password: 'another-password' },
    });
    expect(changed.statusCode).toBe(200);
    expect(await answer(other, session)).toBe(REFUSED);
  });
});

describe('an account that is gone', () => {
  it('refuses a client administrator’s token once their client (and with it their account) is deleted', async () => {
    const client = await createClient(ctx.db);
    const admin = await createUser(ctx.db, { role: 'ADMIN', clientId: client.id });
    const session = await staffSignIn(admin, other);
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/clients/${client.id}`,
      headers: { authorization: (await staffSignIn(superadmin)).authorization },
    });
    expect(deleted.statusCode).toBe(204);
    expect(await answer(other, session)).toBe(REFUSED);
  });
});

describe('a token signed with the session secret', () => {
  it('is refused for a user who does not exist, whatever role it claims', async () => {
    const session = await forged({ userId: randomUUID(), role: 'SUPERADMIN', sessionId: randomUUID() });
    expect(await answer(ctx.app, session)).toBe(REFUSED);
  });

  it('is refused without a session, or with a session that is not live or not the user’s', async () => {
    const admin = await createUser(ctx.db, { role: 'ADMIN', clientId });
    const theirs = await staffSignIn(superadmin);
    const theirSid = (await signTokens().verifyAccessToken(theirs.authorization.slice(7), ctx.clock.now()))!.sessionId!;
    for (const claims of [
      { userId: superadmin.id, role: 'SUPERADMIN' as const },
      { userId: superadmin.id, role: 'SUPERADMIN' as const, sessionId: randomUUID() },
      { userId: superadmin.id, role: 'SUPERADMIN' as const, sessionId: 'not-a-uuid' },
      { userId: admin.id, role: 'SUPERADMIN' as const, sessionId: theirSid, clientId },
    ]) {
      expect(await answer(ctx.app, await forged(claims))).toBe(REFUSED);
    }
    expect(await answer(ctx.app, theirs)).toBe(200);
  });

  it('carries the role the database gives its user, not the one it claims', async () => {
    const user = await createUser(ctx.db, { role: 'USER', clientId });
    const session = await participantSignIn(user);
    const sid = (await signTokens().verifyAccessToken(session.authorization.slice(7), ctx.clock.now()))!.sessionId!;
    const promoted = await forged({ userId: user.id, role: 'SUPERADMIN', sessionId: sid });
    const clients = await ctx.app.inject({ method: 'GET', url: '/api/clients/cap/import', headers: promoted });
    expect([clients.statusCode, clients.json().errorCode]).toEqual([403, 'FORBIDDEN']);
  });
});

function headersOf(session: Session) {
  return { headers: { authorization: session.authorization }, cookies: session.cookies };
}
