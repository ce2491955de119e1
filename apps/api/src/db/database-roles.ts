import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { rowsOf, type Db } from './executor.js';

/**
 * The two database roles (issue #46). The schema's owner (DATABASE_OWNER_URL) runs the
 * migrations; the app serves with DATABASE_URL's role, which owns nothing: an owner may
 * `ALTER TABLE … DISABLE TRIGGER` or drop the triggers that keep the audit trail append-only,
 * a role that owns nothing may not. What it may do is granted here after each migration (so a
 * table a new migration adds is granted too): everything on the app's tables, but only SELECT
 * and INSERT on the trail's (`AUDIT_TABLES`), and the sealer's state only through its function.
 */

/** The trail's tables: read and appended to, never changed, by the serving role. */
export const AUDIT_TABLES = ['audit_events', 'audit_chain'] as const;

/** Tables the serving role reads only (the sealer's state moves on in `audit_seal_collect`, SECURITY DEFINER). */
const READ_ONLY_TABLES = ['audit_seal_state'] as const;

/**
 * Grants the serving role what the app needs, as the owner, on one connection. Idempotent.
 * `session_replication_role` (PostgreSQL 15 and later) lets an import check its foreign keys
 * once per statement (`bulk-writes.ts`); it also silences ordinary triggers, which is why the
 * trail stands on privileges here, not on its triggers alone.
 */
export async function grantServingRole(owner: pg.ClientBase, role: string): Promise<void> {
  const who = quoteIdent(role);
  const statements = [
    `grant usage on schema public to ${who}`,
    `grant select, insert, update, delete on all tables in schema public to ${who}`,
    `grant usage, select on all sequences in schema public to ${who}`,
    `grant execute on all functions in schema public to ${who}`,
    `revoke update, delete, truncate, references, trigger on ${AUDIT_TABLES.join(', ')} from ${who}`,
    `revoke insert, update, delete, truncate, references, trigger on ${READ_ONLY_TABLES.join(', ')} from ${who}`,
    // The migrations' own record: the ready check reads which have run.
    `grant usage on schema drizzle to ${who}`,
    `grant select on all tables in schema drizzle to ${who}`,
  ];
  for (const statement of statements) await owner.query(statement);
  const { rows } = await owner.query<{ version: number }>(
    `select current_setting('server_version_num')::int as version`,
  );
  if ((rows[0]?.version ?? 0) >= 150000) {
    await owner.query(`grant set on parameter session_replication_role to ${who}`).catch(() => undefined);
  }
}

/** The role a connection serves as. */
export async function currentRole(client: pg.ClientBase): Promise<string> {
  const { rows } = await client.query<{ role: string }>('select current_user as role');
  return rows[0]!.role;
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Whether the audit trail is protected from the role the app serves with, and why (not). */
export interface TrailProtection {
  protected: boolean;
  detail: string;
}

/**
 * Reads what the serving role may do to the trail's tables: a superuser, an owner (or a member
 * of the owning role), or a role allowed UPDATE, DELETE or TRUNCATE could rewrite it; then
 * only its seals and checkpoints would show that it was.
 */
export async function trailProtection(db: Db, kind: 'pglite' | 'postgres'): Promise<TrailProtection> {
  const [row] = rowsOf<{ role: string; superuser: boolean; owns: boolean; changes: boolean }>(
    await db.execute(sql`
      select current_user as role,
        (select rolsuper from pg_roles where rolname = current_user) as superuser,
        bool_or(pg_has_role(current_user, c.relowner, 'MEMBER')) as owns,
        bool_or(has_table_privilege(c.oid, 'UPDATE') or has_table_privilege(c.oid, 'DELETE')
          or has_table_privilege(c.oid, 'TRUNCATE')) as changes
      from pg_class c
      where c.oid in ('audit_events'::regclass, 'audit_chain'::regclass)`),
  );
  if (kind === 'pglite') {
    return {
      protected: false,
      detail:
        'the embedded database has one role, which owns the audit tables: the trail is held by its seals and ' +
        'checkpoints, not by the database (use PostgreSQL with DATABASE_OWNER_URL for both)',
    };
  }
  const reason = row?.superuser
    ? 'is a superuser'
    : row?.owns
      ? 'owns the audit tables'
      : row?.changes
        ? 'may change or remove audit rows'
        : null;
  if (reason) {
    return {
      protected: false,
      detail:
        `the role the app serves with (${row!.role}) ${reason}: it could rewrite the audit trail, which only its ` +
        'seals and checkpoints would show. Serve with a role that owns nothing and migrate with DATABASE_OWNER_URL.',
    };
  }
  return {
    protected: true,
    detail: `the role the app serves with (${row!.role}) may only read and append to the audit trail`,
  };
}
