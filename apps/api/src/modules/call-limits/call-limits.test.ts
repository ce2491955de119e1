import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SECOND_FACTOR_CHALLENGE_SECONDS } from '@pss/contract';
import { buildApp, type App } from '../../app.js';
import { rowsOf } from '../../db/client.js';
import { expectError, type Reply } from '../../../test/kit.js';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { createAnonymousEvents } from './anonymous-events.service.js';

/**
 * Anonymous calls are limited in the database (issue #46): a kind of call a minute per
 * address (5 here) and from every address together (12 here), counted by every process
 * together; and the audit trail gets at most an event and a summary a minute per address,
 * call and outcome, however many calls come.
 */
let ctx: TestContext;
/** A second process on the same database. */
let other: App;

beforeAll(async () => {
  ctx = await createTestContext({
    env: { ANONYMOUS_CALLS_PER_MINUTE: '5', ANONYMOUS_CALLS_PER_MINUTE_TOTAL: '12' },
    now: '2026-03-02T09:00:00Z',
  });
  other = await buildApp({ config: ctx.config, database: ctx.database, clock: ctx.clock, logger: false });
  await other.ready();
});
afterAll(async () => {
  await other?.close();
  await ctx?.close();
});

const PER_ADDRESS = 5;

/** The next minute of the app's clock, a second after it turns (every count starts again). */
function nextMinute(): void {
  const now = ctx.clock.now().getTime();
  ctx.clock.set(new Date(Math.floor(now / 60_000) * 60_000 + 61_000));
}

function from(address: string, method: 'GET' | 'POST', url: string, payload?: object, app: App = ctx.app) {
  return app.inject({ method, url: `/api${url}`, remoteAddress: address, ...(payload ? { payload } : {}) });
}

const eventCount = async () =>
  Number(rowsOf<{ n: string }>(await ctx.db.execute(sql`select count(*) as n from audit_events`))[0]!.n);

const statusesOf = (replies: { statusCode: number }[]) => replies.map((r) => r.statusCode);

interface EventRow {
  action: string;
  outcome: string;
  ip: string;
  request_id: string | null;
  changes: { calls?: { before: number; after: number }; minute?: { after: string } };
}

const eventsOf = async (action: string, ip: string) =>
  rowsOf<EventRow>(
    await ctx.db.execute(
      sql`select action, outcome, ip, request_id, changes from audit_events where action = ${action} and ip = ${ip} order by seq`,
    ),
  );

/** How many calls the trail says came: 1 for each first event, a summary's count instead of its first's 1. */
function callsTold(events: EventRow[]): number {
  const summaries = events.filter((e) => e.changes.calls);
  const firsts = events.length - summaries.length;
  return firsts - summaries.length + summaries.reduce((n, e) => n + e.changes.calls!.after, 0);
}

describe('200 anonymous calls to each second-factor route from one address', () => {
  const routes = [
    { action: 'auth.mfaVerify', url: '/auth/mfa/verify', body: { mfa_token: 'mfa_garbage', code: '123456' } },
    { action: 'auth.mfaPasskeyOptions', url: '/auth/mfa/webauthn/options', body: {} },
    {
      action: 'auth.mfaPasskeyVerify',
      url: '/auth/mfa/webauthn/verify',
      body: { mfa_token: 'mfa_garbage', response: { id: 'garbage', type: 'public-key' } },
    },
  ];

  for (const [i, route] of routes.entries()) {
    it(`${route.url}: 429 after the limit, and the audit table grows by at most a few rows`, async () => {
      nextMinute();
      const address = `198.51.100.${10 + i}`;
      const eventsBefore = await eventCount();
      const challengesBefore = rowsOf(await ctx.db.execute(sql`select id from second_factor_challenges`)).length;

      const replies: Reply[] = [];
      for (let n = 0; n < 200; n++) replies.push((await from(address, 'POST', route.url, route.body)) as Reply);
      const statuses = statusesOf(replies);
      expect(statuses.slice(0, PER_ADDRESS).every((s) => s !== 429)).toBe(true);
      expect(statuses.slice(PER_ADDRESS)).toEqual(Array<number>(200 - PER_ADDRESS).fill(429));
      expectError(replies[PER_ADDRESS]!, 429, 'TOO_MANY_REQUESTS');
      // The minute's end, at most a minute away.
      const retryAfter = Number(replies[PER_ADDRESS]!.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);

      // One event per outcome this minute (the calls let through, the calls refused at the limit).
      expect((await eventCount()) - eventsBefore).toBeLessThanOrEqual(2);
      // The options call made a challenge for each call let through, no more.
      const challenges = rowsOf(await ctx.db.execute(sql`select id from second_factor_challenges`)).length;
      expect(challenges - challengesBefore).toBeLessThanOrEqual(PER_ADDRESS);

      // The minute is over: the sweep writes one summary per outcome, with its count.
      nextMinute();
      await createAnonymousEvents({ db: ctx.db, clock: ctx.clock, written: () => undefined }).sweep(ctx.clock.now());
      expect((await eventCount()) - eventsBefore).toBeLessThanOrEqual(4);
      const events = await eventsOf(route.action, address);
      expect(callsTold(events)).toBe(200);
      expect(events.filter((e) => e.outcome === 'TOO_MANY_REQUESTS').map((e) => e.changes.calls?.after ?? 1)).toEqual([
        1,
        200 - PER_ADDRESS,
      ]);
    });
  }

  it('keeps a passkey sign-in’s challenges that name no one only until they expire', async () => {
    nextMinute();
    for (let n = 0; n < 3; n++)
      expect((await from('198.51.100.20', 'POST', '/auth/mfa/webauthn/options', {})).statusCode).toBe(200);
    const anonymousChallenges = async () =>
      rowsOf<{ expired: boolean }>(
        await ctx.db.execute(
          sql`select expires_at <= ${ctx.clock.now().toISOString()}::timestamptz as expired
              from second_factor_challenges where user_id is null`,
        ),
      );
    expect((await anonymousChallenges()).length).toBeGreaterThanOrEqual(3);
    ctx.clock.advance(SECOND_FACTOR_CHALLENGE_SECONDS * 1000 + 1000);
    expect((await anonymousChallenges()).every((c) => c.expired)).toBe(true);
    // The next one asked for takes the expired ones away.
    expect((await from('198.51.100.21', 'POST', '/auth/mfa/webauthn/options', {})).statusCode).toBe(200);
    expect((await anonymousChallenges()).map((c) => c.expired)).toEqual([false]);
  });

  it('writes the summary a minute owes with the next minute’s first event, and a minute’s first event names its call', async () => {
    nextMinute();
    const address = '198.51.100.30';
    const body = { mfa_token: 'mfa_garbage', code: '123456' };
    const first = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/mfa/verify',
      remoteAddress: address,
      payload: body,
      headers: { 'x-request-id': 'first-garbage-code' },
    });
    expectError(first as Reply, 401, 'MFA_SIGN_IN_EXPIRED');
    for (let n = 0; n < 3; n++) await from(address, 'POST', '/auth/mfa/verify', body);
    expect(await eventsOf('auth.mfaVerify', address)).toEqual([
      expect.objectContaining({ outcome: 'MFA_SIGN_IN_EXPIRED', request_id: 'first-garbage-code', changes: {} }),
    ]);
    const minute = new Date(Math.floor(ctx.clock.now().getTime() / 60_000) * 60_000).toISOString();

    nextMinute();
    await from(address, 'POST', '/auth/mfa/verify', body);
    const events = await eventsOf('auth.mfaVerify', address);
    expect(events.map((e) => [e.outcome, e.changes])).toEqual([
      ['MFA_SIGN_IN_EXPIRED', {}],
      ['MFA_SIGN_IN_EXPIRED', { calls: { before: 1, after: 4 }, minute: { before: null, after: minute } }],
      ['MFA_SIGN_IN_EXPIRED', {}],
    ]);
    // Nothing more is owed: a sweep adds nothing to them.
    await createAnonymousEvents({ db: ctx.db, clock: ctx.clock, written: () => undefined }).sweep(ctx.clock.now());
    expect(await eventsOf('auth.mfaVerify', address)).toHaveLength(3);
  });

  it('limits the sign-in link and password code requests, and the sign-ins, by the same rule', async () => {
    nextMinute();
    for (const [i, url] of ['/auth/verify/email', '/auth/password/code', '/auth/login/user'].entries()) {
      const address = `198.51.100.${40 + i}`;
      const replies = [];
      for (let n = 0; n <= PER_ADDRESS; n++) {
        const email = `someone-${n}@example.test`;
        replies.push(
          await from(address, 'POST', url, url.includes('login') ? { email, password: 'x-wrong-1' } : { email }),
        );
      }
      expect(statusesOf(replies).slice(0, PER_ADDRESS).includes(429)).toBe(false);
      expectError(replies[PER_ADDRESS] as Reply, 429, 'TOO_MANY_REQUESTS');
    }
  });
});

describe('the certificate check', () => {
  const url = '/certificates/verify/0000-0000-0000-0000-0000';

  it('is limited per address, and each address has its own room', async () => {
    nextMinute();
    const replies = [];
    for (let n = 0; n <= PER_ADDRESS; n++) replies.push(await from('203.0.113.1', 'GET', url));
    expect(statusesOf(replies)).toEqual([...Array<number>(PER_ADDRESS).fill(404), 429]);
    expect(Number(replies[PER_ADDRESS]!.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('203.0.113.2', 'GET', url)).statusCode).toBe(404);
    // A bad code is refused before it is counted.
    expect((await from('203.0.113.1', 'GET', `/certificates/verify/${'x'.repeat(65)}`)).statusCode).toBe(400);
    // The next minute, the address has its room again.
    nextMinute();
    expect((await from('203.0.113.1', 'GET', url)).statusCode).toBe(404);
  });

  it('counts two processes on one database together', async () => {
    nextMinute();
    const replies = [];
    for (let n = 0; n <= PER_ADDRESS; n++) {
      replies.push(await from('203.0.113.10', 'GET', url, undefined, n % 2 === 0 ? ctx.app : other));
    }
    // Each process alone would have let all six through (three each).
    expect(statusesOf(replies)).toEqual([...Array<number>(PER_ADDRESS).fill(404), 429]);
    expectError((await from('203.0.113.10', 'GET', url, undefined, other)) as Reply, 429, 'TOO_MANY_REQUESTS');
  });

  it('is limited for every address together, and an address past its own limit spends none of the others’ room', async () => {
    nextMinute();
    // One address far past its limit: only its first five count against the total of 12.
    for (let n = 0; n < 20; n++) await from('203.0.113.20', 'GET', url);
    const others = [];
    for (let n = 0; n < 8; n++)
      others.push(await from(`203.0.113.${30 + n}`, 'GET', url, undefined, n % 2 ? other : ctx.app));
    expect(statusesOf(others)).toEqual([...Array<number>(7).fill(404), 429]);
  });
});
