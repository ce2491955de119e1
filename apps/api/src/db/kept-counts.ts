import { sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from './client.js';

/**
 * The kept counts' maintenance (their rows: schema/kept-counts.ts; kept by the triggers of
 * migration 0041): recomputing a season's rows from the source rows, and comparing the kept
 * rows with what a recomputation makes, without changing them.
 */

const keptTables = [
  'kept_member_groups',
  'kept_progress',
  'kept_case_counts',
  'kept_completion_quarters',
  'kept_choice_picks',
] as const;
const countColumns = new Set(['members', 'participants', 'started', 'completed', 'scored', 'score_sum', 'picked']);

/** A season's kept rows as comparable lines (rows whose counts are all zero count as absent). */
export async function keptRowsOf(db: Executor, seasonId: string): Promise<string[]> {
  const lines: string[] = [];
  for (const table of keptTables) {
    const rows = rowsOf<Record<string, unknown>>(
      await db.execute(sql`select * from ${sql.identifier(table)} where season_id = ${seasonId}::uuid`),
    );
    for (const row of rows) {
      const values = Object.entries(row).filter(([column]) => column !== 'season_id');
      if (values.every(([column, value]) => !countColumns.has(column) || Number(value) === 0)) continue;
      const shown = values.map(([column, value]) => [
        column,
        value instanceof Date ? value.toISOString() : String(value),
      ]);
      lines.push(`${table} ${JSON.stringify(shown)}`);
    }
  }
  return lines.sort();
}

/** Recomputes one season's kept rows from the source rows. */
export async function rebuildKeptCounts(db: Executor, seasonId: string): Promise<void> {
  await db.execute(sql`select kept_rebuild(${seasonId}::uuid)`);
}

class RolledBack extends Error {}

/**
 * What a recomputation would make of a season's kept rows, beside what is kept: worked out in
 * a transaction that is rolled back, so nothing changes. Lines only on one side are a drift.
 */
export async function compareKeptCounts(
  db: Db,
  seasonId: string,
): Promise<{ kept: string[]; rebuilt: string[]; same: boolean }> {
  let kept: string[] = [];
  let rebuilt: string[] = [];
  await db
    .transaction(async (tx) => {
      kept = await keptRowsOf(tx, seasonId);
      await rebuildKeptCounts(tx, seasonId);
      rebuilt = await keptRowsOf(tx, seasonId);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return { kept, rebuilt, same: JSON.stringify(kept) === JSON.stringify(rebuilt) };
}

/** Every season's id with its project's and its own name, for the command line. */
export async function seasonsToCount(db: Executor): Promise<{ id: string; name: string }[]> {
  return rowsOf<{ id: string; name: string }>(
    await db.execute(sql`
      select s.id, p.name || ' / ' || s.name as name
      from seasons s join projects p on p.id = s.project_id
      order by p.name, s.position`),
  );
}

/** The triggers that count an attempt's change (migration 0041), by name. */
const attemptTriggers = [
  'kept_attempt_inserting',
  'kept_attempt_inserted',
  'kept_attempt_updating',
  'kept_attempt_updated',
  'kept_attempt_deleting',
  'kept_attempt_deleted',
] as const;

/**
 * For a bulk seed of attempts (the benchmarks write hundreds of thousands, with their answers
 * after them, in a few statements): the attempts' counting triggers are set aside while
 * `write` runs, then every season is recomputed once. Not for the app: its writes are counted
 * as they happen.
 */
export async function seedAttemptsUncounted(db: Db, write: () => Promise<void>): Promise<void> {
  for (const name of attemptTriggers) {
    await db.execute(sql`alter table user_season_round_cases disable trigger ${sql.identifier(name)}`);
  }
  try {
    await write();
  } finally {
    for (const name of attemptTriggers) {
      await db.execute(sql`alter table user_season_round_cases enable always trigger ${sql.identifier(name)}`);
    }
  }
  // The counting statements are planned on the tables' statistics: after a bulk write and
  // before autovacuum has looked, they describe the tables as they were (empty, in a fresh
  // bench database), and a plan for a few rows over 400,000 attempts took minutes.
  await db.execute(
    sql`analyze users, participant_assignments, project_participants, user_season_round_cases, case_answers, cases`,
  );
  for (const season of await seasonsToCount(db)) await rebuildKeptCounts(db, season.id);
}
