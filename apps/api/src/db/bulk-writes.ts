import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from './client.js';

type Executor = Pick<Db, 'execute'>;

/**
 * Foreign keys checked once per statement instead of once per row, for writes of many rows.
 *
 * PostgreSQL checks each foreign key of each inserted row with a trigger that looks the
 * referenced row up and takes a KEY SHARE lock on it; in an import of 100,000 participants
 * that is about a third of the time. Where this connection may set
 * `session_replication_role` (a superuser, as the embedded database runs, or a role granted
 * `SET` on it, PostgreSQL 15 and later), this switches those triggers off until the end of
 * the transaction or `rowTriggersOn`, and answers true: the caller must then take the same
 * KEY SHARE locks itself, once for the whole set, and check that every referenced row
 * exists. Otherwise it changes nothing, answers false, and the triggers check as usual.
 * (The schema's own triggers are ENABLE ALWAYS and still fire: only the foreign-key checks
 * are switched off.)
 */
export async function rowTriggersOff(tx: Executor): Promise<boolean> {
  const [role] = rowsOf<{ superuser: boolean; version: number }>(
    await tx.execute(
      sql`select current_setting('is_superuser') = 'on' as superuser, current_setting('server_version_num')::int as version`,
    ),
  );
  let allowed = role?.superuser ?? false;
  if (!allowed && (role?.version ?? 0) >= 150000) {
    const [grant] = rowsOf<{ allowed: boolean }>(
      await tx.execute(sql`select has_parameter_privilege('session_replication_role', 'SET') as allowed`),
    );
    allowed = grant?.allowed ?? false;
  }
  if (allowed) await tx.execute(sql`set local session_replication_role = replica`);
  return allowed;
}

/** Switches row triggers back on for the rest of the transaction. */
export async function rowTriggersOn(tx: Executor): Promise<void> {
  await tx.execute(sql`set local session_replication_role = origin`);
}

/** Thrown when a row the written rows refer to is gone (deleted while they were prepared). */
export class MissingReferenceError extends Error {
  constructor(what: string) {
    super(`${what} no longer exists; nothing was written`);
    this.name = 'MissingReferenceError';
  }
}
