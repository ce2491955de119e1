import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from './executor.js';

/** The `when` of the newest migration this build carries (drizzle-kit's journal). */
export function latestMigrationTime(folder: string): number {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(0, ...journal.entries.map((e) => e.when));
}

/**
 * Whether the database has every migration this build carries. Drizzle's migrator records
 * each applied migration's `when` in `drizzle.__drizzle_migrations`; a database that is
 * behind (migrations still running in another process, or restored from an older backup)
 * has none as new as the build's newest. Any failure (no table yet) answers false.
 */
export async function migrationsApplied(db: Db, latest: number): Promise<boolean> {
  try {
    const result = await db.execute(sql`select max(created_at)::text as latest from drizzle.__drizzle_migrations`);
    const found = rowsOf<{ latest: string | null }>(result)[0]?.latest;
    return found !== null && found !== undefined && Number(found) >= latest;
  } catch {
    return false;
  }
}
