import { getTableColumns, getTableName, SQL, sql, type SQLChunk } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { rowsOf, type Executor } from './client.js';

/**
 * The one way background work is claimed (imports, the email outbox, resource processing):
 * each worker keeps its own table, whose rows are also what the app shows (a job's state, the
 * delivery log, a thumbnail's status), and claims them through this module. A claim takes rows
 * `FOR UPDATE SKIP LOCKED` (two processes asking at once get different rows), stamps them with
 * the claim's time and a lease, and is ended, renewed or given back only by the claim that holds
 * it (its claim time is the token), so a process that lost its lease records nothing over the
 * next holder's work. A claim whose lease ran out (its process died) is taken over, or given
 * back and given up after so many claims. Why not pg-boss or graphile-worker:
 * docs/design/job-queue.md.
 */
export interface LeasedQueueShape<T extends PgTable> {
  table: T;
  id: PgColumn;
  /** The row's state: `waiting` until claimed, `claimed` while a claim holds it. */
  state: PgColumn;
  waiting: string;
  claimed: string;
  /** The claim's time, stamped by each claim: the token its holder renews and ends it with. */
  claimedAt: PgColumn;
  /** Until when a claim holds (renewable); without it, a claim holds `leaseMs` from its time. */
  leaseUntil?: PgColumn;
  /** When a waiting row's turn comes; without it, at once. */
  dueAt?: PgColumn;
  /** The order rows are claimed in. */
  order: PgColumn[];
  /** How often the row was claimed, each claim counted: bounds a row that kills its process. */
  claims?: PgColumn;
  /**
   * A lapsed claim is taken over by the next claim (`true`), or waits for `recover` to give it
   * back or up (`false`: an import shows NOT_STARTED again between its claims).
   */
  takeOver: boolean;
  /** The claim's time stays once the work ends (an import's `started_at`); else it is emptied. */
  keepsClaimedAt?: boolean;
}

/** Values for a queue's own columns, by their names in the schema; an SQL value is written as it is. */
export type QueueFields<T extends PgTable> = { [K in keyof T['$inferInsert']]?: T['$inferInsert'][K] | SQL };

/**
 * The wait before the next try of a row that failed for a passing reason, the same rule for
 * every queue: `baseMs` after the first try, each later one `factor` times longer.
 */
export function retryDelayMs(attempt: number, baseMs: number, factor = 4): number {
  return baseMs * factor ** (Math.max(1, attempt) - 1);
}

export function leasedQueue<T extends PgTable>(shape: LeasedQueueShape<T>) {
  const columns: Record<string, PgColumn> = getTableColumns(shape.table);
  const table = sql.identifier(getTableName(shape.table));
  const name = (column: PgColumn) => sql.identifier(column.name);
  const value = (column: PgColumn, v: unknown) => (v instanceof SQL ? v : sql.param(v, column));
  const list = (parts: SQLChunk[]) => sql.join(parts, sql`, `);
  const order = list(shape.order.map(name));
  // What a claim's candidates carry: the id and the order's columns (the id once, if it orders too).
  const picked = list([shape.id, ...shape.order.filter((column) => column !== shape.id)].map(name));

  function assignments(fields: QueueFields<T>): SQL[] {
    return Object.entries(fields).map(([key, v]) => {
      const column = columns[key];
      if (!column) throw new Error(`${getTableName(shape.table)} has no column ${key}`);
      return sql`${name(column)} = ${value(column, v)}`;
    });
  }
  const set = (column: PgColumn, v: unknown) => sql`${name(column)} = ${value(column, v)}`;
  const cleared = (column: PgColumn) => sql`${name(column)} = null`;
  /** The claim's own columns emptied: when its work ends, or when it is given back. */
  function claimCleared(end: boolean): SQL[] {
    const parts = shape.leaseUntil ? [cleared(shape.leaseUntil)] : [];
    if (!(end && shape.keepsClaimedAt)) parts.push(cleared(shape.claimedAt));
    return parts;
  }
  const isClaimed = sql`${name(shape.state)} = ${value(shape.state, shape.claimed)}`;
  /** Held by a claim whose lease ran out by `now` (`leaseMs`: how long a claim holds, where no column says). */
  function lapsed(now: Date, leaseMs: number | undefined): SQL {
    if (shape.leaseUntil) return sql`${isClaimed} and ${name(shape.leaseUntil)} < ${value(shape.leaseUntil, now)}`;
    if (leaseMs === undefined) throw new Error('a lease without its own column needs its length');
    const since = new Date(now.getTime() - leaseMs);
    return sql`${isClaimed} and ${name(shape.claimedAt)} < ${value(shape.claimedAt, since)}`;
  }
  /** The row, still held by the claim made at `claimedAt`. */
  const held = (id: string, claimedAt: Date) =>
    sql`${name(shape.id)} = ${value(shape.id, id)} and ${isClaimed} and ${name(shape.claimedAt)} = ${value(shape.claimedAt, claimedAt)}`;
  async function updateHeld(db: Executor, id: string, claimedAt: Date, parts: SQL[]): Promise<boolean> {
    const result = await db.execute(
      sql`update ${table} set ${list(parts)} where ${held(id, claimedAt)} returning ${name(shape.id)}`,
    );
    return rowsOf(result).length > 0;
  }
  const idsOf = (result: unknown) => rowsOf<Record<string, string>>(result).map((row) => row[shape.id.name]!);

  return {
    /**
     * Claims up to `limit` rows: waiting ones whose turn has come and (`takeOver`) those whose
     * claim lapsed, in the queue's order, never one claimed `maxClaims` times already. Each
     * kind is taken apart, through its own index, and the first `limit` of both kept: one OR of
     * the two read and sorted every due row on each claim. Answers the ids claimed.
     */
    async claim(
      db: Executor,
      options: { now: Date; leaseMs: number; limit: number; maxClaims?: number; set?: QueueFields<T> },
    ): Promise<string[]> {
      const { now, leaseMs, limit, maxClaims } = options;
      const bounded = shape.claims && maxClaims !== undefined ? sql` and ${name(shape.claims)} < ${maxClaims}` : sql``;
      const due = shape.dueAt ? sql` and ${name(shape.dueAt)} <= ${value(shape.dueAt, now)}` : sql``;
      const pick = (where: SQL, alias: string) => sql`
        select ${picked} from (
          select ${picked} from ${table} where ${where}${bounded}
          order by ${order} for update skip locked limit ${limit}
        ) as ${sql.identifier(alias)}`;
      const waiting = pick(sql`${name(shape.state)} = ${value(shape.state, shape.waiting)}${due}`, 'waiting');
      const candidates = shape.takeOver ? sql`${waiting} union all ${pick(lapsed(now, leaseMs), 'lapsed')}` : waiting;
      const stamps = [set(shape.state, shape.claimed), set(shape.claimedAt, now)];
      if (shape.leaseUntil) stamps.push(set(shape.leaseUntil, new Date(now.getTime() + leaseMs)));
      if (shape.claims) stamps.push(sql`${name(shape.claims)} = ${name(shape.claims)} + 1`);
      const result = await db.execute(sql`
        update ${table} set ${list([...stamps, ...assignments(options.set ?? {})])}
        where ${name(shape.id)} in (
          select ${name(shape.id)} from (${candidates}) as due order by ${order} limit ${limit}
        )
        returning ${name(shape.id)}`);
      return idsOf(result);
    },

    /** Moves the lease of a claim still held further out (long work); answers whether it was held. */
    renew(db: Executor, id: string, claimedAt: Date, leaseUntil: Date): Promise<boolean> {
      if (!shape.leaseUntil) throw new Error('a lease without its own column is not renewed');
      return updateHeld(db, id, claimedAt, [set(shape.leaseUntil, leaseUntil)]);
    },

    /**
     * Ends the work of a claim still held with `fields` (its outcome: the state it ends in and
     * what it made); answers whether it was held. A claim that lapsed and was taken up elsewhere
     * ends nothing.
     */
    end(db: Executor, id: string, claimedAt: Date, fields: QueueFields<T>): Promise<boolean> {
      return updateHeld(db, id, claimedAt, [...assignments(fields), ...claimCleared(true)]);
    },

    /** Puts a row a claim still holds back to waiting, with `fields` (its next turn), the claim emptied. */
    giveBack(db: Executor, id: string, claimedAt: Date, fields: QueueFields<T> = {}): Promise<boolean> {
      const back = [set(shape.state, shape.waiting), ...assignments(fields), ...claimCleared(false)];
      return updateHeld(db, id, claimedAt, back);
    },

    /**
     * Ends a held claim's lease now, as if its process had died, so that the lapsed-claim rules
     * take the row up at once; `uncounted`: this claim is not counted among the row's claims
     * (it failed through no fault of the row: a lost database connection).
     */
    lapse(db: Executor, id: string, claimedAt: Date, now: Date, options: { uncounted?: boolean } = {}) {
      if (!shape.leaseUntil) throw new Error('a lease without its own column is not ended early');
      const parts = [set(shape.leaseUntil, new Date(now.getTime() - 1))];
      if (options.uncounted && shape.claims) parts.push(sql`${name(shape.claims)} = ${name(shape.claims)} - 1`);
      return updateHeld(db, id, claimedAt, parts);
    },

    /**
     * The rows whose claim lapsed (their process died or hung): given up with `giveUp` (the
     * state they end in) once claimed `maxClaims` times, and otherwise, with `giveBack`, put
     * back to waiting (a queue that takes lapsed claims over needs only the first). Answers
     * the ids of each.
     */
    async recover(
      db: Executor,
      options: { now: Date; leaseMs?: number; maxClaims: number; giveUp: QueueFields<T>; giveBack?: QueueFields<T> },
    ): Promise<{ givenUp: string[]; givenBack: string[] }> {
      const { now, leaseMs, maxClaims } = options;
      if (!shape.claims) throw new Error('claims are not counted in this queue');
      const claims = name(shape.claims);
      const giveUp = [...assignments(options.giveUp), ...claimCleared(true)];
      const givenUp = await db.execute(sql`
        update ${table} set ${list(giveUp)}
        where ${lapsed(now, leaseMs)} and ${claims} >= ${maxClaims} returning ${name(shape.id)}`);
      if (!options.giveBack) return { givenUp: idsOf(givenUp), givenBack: [] };
      const back = [set(shape.state, shape.waiting), ...assignments(options.giveBack), ...claimCleared(false)];
      const givenBack = await db.execute(sql`
        update ${table} set ${list(back)}
        where ${lapsed(now, leaseMs)} and ${claims} < ${maxClaims} returning ${name(shape.id)}`);
      return { givenUp: idsOf(givenUp), givenBack: idsOf(givenBack) };
    },
  };
}

/**
 * Keeps a claim's lease from running out while its work runs (a long import writes for minutes
 * without a word), renewing it every third of the lease, one renewal at a time. Stops when the
 * work ends, or when the claim is no longer held (`renew` answers false: `onLost`).
 */
export function keepLease(options: {
  leaseMs: number;
  renew: () => Promise<boolean>;
  onLost: () => void;
  onError: (error: unknown) => void;
}): { stop(): Promise<void> } {
  let renewing: Promise<void> | null = null;
  const renew = async () => {
    if (await options.renew()) return;
    clearInterval(timer);
    options.onLost();
  };
  const timer = setInterval(() => {
    if (renewing) return; // the last renewal is still waiting for the database
    renewing = renew()
      .catch(options.onError)
      .finally(() => {
        renewing = null;
      });
  }, options.leaseMs / 3);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await renewing;
    },
  };
}
