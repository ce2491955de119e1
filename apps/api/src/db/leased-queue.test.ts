import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { openTestDatabase } from '../../test/test-app.js';
import type { Db } from './client.js';
import { keepLease, leasedQueue, retryDelayMs } from './leased-queue.js';

/**
 * The one claiming module every background worker uses (imports, the outbox, resource
 * processing), on a table of its own, on the engine this run tests (PGlite, or PostgreSQL with
 * real concurrent connections).
 */
const work = pgTable('leased_queue_test', {
  id: uuid('id').primaryKey().defaultRandom(),
  position: integer('position').notNull(),
  state: text('state').notNull().default('WAITING'),
  claimedAt: timestamp('claimed_at', { withTimezone: true }),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
  claims: integer('claims').notNull().default(0),
  note: text('note'),
});
const columns = { table: work, id: work.id, state: work.state, waiting: 'WAITING', claimed: 'HELD' } as const;
/** A lease of its own column, taken over when it lapses (as the outbox's). */
const leased = leasedQueue({
  ...columns,
  claimedAt: work.claimedAt,
  leaseUntil: work.leaseUntil,
  dueAt: work.dueAt,
  order: [work.dueAt, work.position],
  claims: work.claims,
  takeOver: true,
});
/** A lease counted from the claim's time, bounded in claims (as resource processing's). */
const fixedLease = leasedQueue({
  ...columns,
  claimedAt: work.claimedAt,
  order: [work.position],
  claims: work.claims,
  takeOver: true,
});
/** Lapsed claims given back by `recover` rather than taken over (as the imports'). */
const recovered = leasedQueue({
  ...columns,
  claimedAt: work.claimedAt,
  leaseUntil: work.leaseUntil,
  order: [work.position],
  claims: work.claims,
  takeOver: false,
  keepsClaimedAt: true,
});

const T0 = new Date('2026-03-02T09:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const LEASE_MS = 60_000;

let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  const opened = await openTestDatabase();
  // The table is the test's own: made by the schema's owner, who claims from it too.
  db = opened.owner.db;
  drop = opened.drop;
  await db.execute(sql`
    create table leased_queue_test (id uuid primary key default gen_random_uuid(), position integer not null,
      state text not null default 'WAITING', claimed_at timestamptz, lease_until timestamptz,
      due_at timestamptz not null, claims integer not null default 0, note text)`);
});
afterAll(async () => drop());
beforeEach(async () => {
  await db.execute(sql`truncate leased_queue_test`);
});

async function add(count: number, dueAt = T0): Promise<string[]> {
  const rows = await db
    .insert(work)
    .values(Array.from({ length: count }, (_, position) => ({ position, dueAt })))
    .returning({ id: work.id });
  return rows.map((row) => row.id);
}
const rowOf = async (id: string) => (await db.select().from(work).where(eq(work.id, id)))[0]!;

describe('the leased queue', () => {
  it('never gives two claimers the same row, and claims each row once', async () => {
    const ids = await add(40);
    const taken: string[] = [];
    for (;;) {
      // Four claimers at once, each on a connection of its own on PostgreSQL.
      const claims = await Promise.all(
        Array.from({ length: 4 }, () => leased.claim(db, { now: T0, leaseMs: LEASE_MS, limit: 3 })),
      );
      const round = claims.flat();
      expect(new Set(round).size).toBe(round.length);
      if (!round.length) break;
      taken.push(...round);
    }
    expect(taken.sort()).toEqual([...ids].sort());
    const rows = await db.select().from(work);
    expect(rows.every((row) => row.state === 'HELD' && row.claims === 1)).toBe(true);
    expect(rows.every((row) => row.leaseUntil?.getTime() === T0.getTime() + LEASE_MS)).toBe(true);
  });

  it('claims in order, a row only once its turn has come', async () => {
    const [later] = await add(1, at(30));
    const [first, second, third] = await add(3);
    expect((await leased.claim(db, { now: T0, leaseMs: LEASE_MS, limit: 2 })).sort()).toEqual([first, second].sort());
    expect(await leased.claim(db, { now: T0, leaseMs: LEASE_MS, limit: 2 })).toEqual([third]);
    expect(await leased.claim(db, { now: at(29), leaseMs: LEASE_MS, limit: 10 })).toEqual([]);
    expect(await leased.claim(db, { now: at(30), leaseMs: LEASE_MS, limit: 10 })).toEqual([later]);
  });

  it('takes over a claim whose lease ran out, and only the new claim may end it', async () => {
    const [id] = await add(1);
    expect(await leased.claim(db, { now: T0, leaseMs: LEASE_MS, limit: 1 })).toEqual([id]);
    // Still leased: nobody takes it.
    expect(await leased.claim(db, { now: at(59), leaseMs: LEASE_MS, limit: 1 })).toEqual([]);
    // Renewed by its holder, it holds on past its first lease.
    expect(await leased.renew(db, id!, T0, at(120))).toBe(true);
    expect(await leased.claim(db, { now: at(61), leaseMs: LEASE_MS, limit: 1 })).toEqual([]);
    // Its holder died: taken over once the lease has run out.
    expect(await leased.claim(db, { now: at(121), leaseMs: LEASE_MS, limit: 1 })).toEqual([id]);
    expect(await rowOf(id!)).toMatchObject({ claims: 2, claimedAt: at(121) });
    // The first holder, back late, neither renews nor ends what is no longer its claim.
    expect(await leased.renew(db, id!, T0, at(300))).toBe(false);
    expect(await leased.end(db, id!, T0, { state: 'DONE', note: 'late' })).toBe(false);
    expect(await leased.end(db, id!, at(121), { state: 'DONE', note: 'current' })).toBe(true);
    expect(await rowOf(id!)).toMatchObject({ state: 'DONE', note: 'current', claimedAt: null, leaseUntil: null });
  });

  it('never claims a row again once its work has ended', async () => {
    const [id] = await add(1);
    await leased.claim(db, { now: T0, leaseMs: LEASE_MS, limit: 1 });
    expect(await leased.end(db, id!, T0, { state: 'DONE' })).toBe(true);
    expect(await leased.claim(db, { now: at(3600), leaseMs: LEASE_MS, limit: 1 })).toEqual([]);
    expect(await fixedLease.claim(db, { now: at(3600), leaseMs: LEASE_MS, limit: 1 })).toEqual([]);
    expect(await leased.end(db, id!, T0, { state: 'FAILED' })).toBe(false);
    expect((await rowOf(id!)).state).toBe('DONE');
  });

  it('gives a claimed row back to wait for a later turn, its claim emptied', async () => {
    const [id] = await add(1);
    await leased.claim(db, { now: T0, leaseMs: LEASE_MS, limit: 1 });
    expect(await leased.giveBack(db, id!, T0, { dueAt: at(60) })).toBe(true);
    expect(await rowOf(id!)).toMatchObject({ state: 'WAITING', claimedAt: null, leaseUntil: null, dueAt: at(60) });
    expect(await leased.claim(db, { now: at(59), leaseMs: LEASE_MS, limit: 1 })).toEqual([]);
    expect(await leased.claim(db, { now: at(60), leaseMs: LEASE_MS, limit: 1 })).toEqual([id]);
  });

  it('with a lease counted from the claim, takes a lapsed claim over until the row has had its claims', async () => {
    const [id] = await add(1);
    for (let claim = 0; claim < 3; claim++) {
      const now = at(claim * 61);
      expect(await fixedLease.claim(db, { now, leaseMs: LEASE_MS, limit: 1, maxClaims: 3 })).toEqual([id]);
      expect(
        await fixedLease.claim(db, { now: at(claim * 61 + 59), leaseMs: LEASE_MS, limit: 1, maxClaims: 3 }),
      ).toEqual([]);
    }
    // The third claim lapsed too: no fourth, and the row is given up.
    expect(await fixedLease.claim(db, { now: at(300), leaseMs: LEASE_MS, limit: 1, maxClaims: 3 })).toEqual([]);
    const { givenUp } = await fixedLease.recover(db, {
      now: at(300),
      leaseMs: LEASE_MS,
      maxClaims: 3,
      giveUp: { state: 'FAILED' },
    });
    expect(givenUp).toEqual([id]);
    expect(await rowOf(id!)).toMatchObject({ state: 'FAILED', claims: 3, claimedAt: null });
  });

  it('gives lapsed claims back, or up after their claims, where they are not taken over', async () => {
    const [first, second] = await add(2);
    expect((await recovered.claim(db, { now: T0, leaseMs: LEASE_MS, limit: 2 })).sort()).toEqual(
      [first, second].sort(),
    );
    await db.update(work).set({ claims: 3 }).where(eq(work.id, second!));
    // Lapsed, but not taken over by a claim: they wait for the recovery.
    expect(await recovered.claim(db, { now: at(61), leaseMs: LEASE_MS, limit: 2 })).toEqual([]);
    const recover = () =>
      recovered.recover(db, { now: at(61), maxClaims: 3, giveUp: { state: 'FAILED' }, giveBack: { note: 'again' } });
    expect(await recover()).toEqual({ givenUp: [second], givenBack: [first] });
    const rows = await db.select().from(work).orderBy(asc(work.position));
    // Given up, the claim's time is kept (as an import's start); given back, it is emptied.
    expect(rows.map((r) => [r.state, r.note, r.claimedAt, r.leaseUntil])).toEqual([
      ['WAITING', 'again', null, null],
      ['FAILED', null, T0, null],
    ]);
    expect(await recover()).toEqual({ givenUp: [], givenBack: [] });
  });

  it('ends a lease at once, the claim uncounted, for the lapsed-claim rules to take up', async () => {
    const [id] = await add(1);
    await recovered.claim(db, { now: T0, leaseMs: LEASE_MS, limit: 1 });
    expect(await recovered.lapse(db, id!, T0, at(1), { uncounted: true })).toBe(true);
    expect(await rowOf(id!)).toMatchObject({ state: 'HELD', claims: 0 });
    const recover = () =>
      recovered.recover(db, { now: at(1), maxClaims: 3, giveUp: { state: 'FAILED' }, giveBack: {} });
    expect(await recover()).toEqual({ givenUp: [], givenBack: [id] });
  });

  it('waits thirty seconds, then four times longer after each try', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, 30_000))).toEqual([30_000, 120_000, 480_000, 1_920_000]);
  });

  it('keeps a lease while the work runs, and stops once the claim is lost', async () => {
    let renewals = 0;
    let lost = false;
    const keeper = keepLease({
      leaseMs: 30,
      renew: () => Promise.resolve(++renewals < 3),
      onLost: () => {
        lost = true;
      },
      onError: () => undefined,
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await keeper.stop();
    expect(renewals).toBe(3);
    expect(lost).toBe(true);
  });
});
