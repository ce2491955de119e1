import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { appendAuditEvents, sealAuditChain } from '../modules/audit/audit-chain.js';
import { verifyAuditChain } from '../modules/audit/audit-verify.js';
import { contextOn, testConfig } from '../../test/test-app.js';
import { adminUrl } from '../../test/postgres-databases.js';
import { openDatabase, type Database } from './client.js';

/**
 * Issue #46, on PostgreSQL: the schema's owner migrates and grants; the app serves with a role
 * that owns nothing, which may read and append to the audit trail and seal it, and is refused
 * every way of rewriting it — its rows, its triggers, the sealer's state. Roles of their own
 * (neither a superuser), on a database of its own.
 */
const baseUrl = process.env.TEST_DATABASE_URL;
const suffix = randomBytes(4).toString('hex');
const names = { database: `pss_roles_${suffix}`, owner: `pss_owner_${suffix}`, serving: `pss_serve_${suffix}` };
const urlAs = (role: string) => {
  const url = new URL(adminUrl(baseUrl ?? 'postgres://localhost/x', names.database));
  url.username = role;
  return url.toString();
};

async function asSuperuser(statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

const opened: Database[] = [];
afterAll(async () => {
  if (!baseUrl) return;
  await Promise.all(opened.map((database) => database.close().catch(() => undefined)));
  await asSuperuser([
    `drop database if exists ${names.database} with (force)`,
    // Its grant on session_replication_role is the cluster's: dropped with what it holds.
    `drop owned by ${names.serving}`,
    `drop role if exists ${names.serving}`,
    `drop role if exists ${names.owner}`,
  ]);
});

/** What a statement was refused with: the database's code and message. */
async function refusal(database: Database, statement: string): Promise<{ code?: string; message: string } | null> {
  return database.db.execute(sql.raw(statement)).then(
    () => null,
    (error: unknown) => {
      const cause = ((error as { cause?: unknown }).cause ?? error) as { code?: string; message: string };
      return { code: cause.code, message: cause.message };
    },
  );
}

describe.runIf(Boolean(baseUrl))('two database roles', () => {
  it('the owner migrates and grants; the serving role appends and seals, and may not rewrite the trail', async () => {
    await asSuperuser([
      `create role ${names.owner} login`,
      `create role ${names.serving} login`,
      `create database ${names.database} owner ${names.owner}`,
    ]);
    const serving = await openDatabase({ databaseUrl: urlAs(names.serving), databaseOwnerUrl: urlAs(names.owner) });
    opened.push(serving);
    await serving.migrate();
    expect(await serving.trailProtection()).toEqual({
      protected: true,
      detail: `the role the app serves with (${names.serving}) may only read and append to the audit trail`,
    });

    const key = 'a-test-signing-key-long-enough-for-hmac-sha256';
    const actor = { id: null, email: null, role: 'SYSTEM', clientId: null };
    await serving.db.transaction((tx) =>
      appendAuditEvents(tx, [
        { actor, action: 'scheduler.send' },
        { actor, action: 'imports.run' },
      ]),
    );
    expect(await sealAuditChain(serving.db, key)).toBe(2);

    for (const statement of [
      'alter table audit_events disable trigger user',
      'alter table audit_chain disable trigger all',
      'drop trigger audit_events_no_update on audit_events',
      'drop trigger audit_chain_no_change on audit_chain',
      "update audit_events set outcome = 'FORBIDDEN'",
      'delete from audit_events',
      'truncate audit_events',
      "update audit_chain set hash = 'f'",
      'delete from audit_chain',
      'truncate audit_chain',
      'update audit_seal_state set examined_through = 0',
      `alter table audit_events owner to ${names.serving}`,
      'drop function audit_seal_collect(integer, integer)',
    ]) {
      const refused = await refusal(serving, statement);
      // 42501: insufficient privilege ("permission denied" or "must be owner").
      expect(refused, statement).toMatchObject({ code: '42501' });
      expect(refused!.message, statement).toMatch(/permission denied|must be owner/);
    }
    expect(await verifyAuditChain(serving.db, { key })).toMatchObject({ ok: true, checked: 2, problems: [] });

    // The ready check says so; with one URL, the owner's, it says the trail is not protected.
    const ctx = await contextOn(serving, async () => undefined);
    const ready = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.json().details.audit_trail).toMatchObject({ protected: true });
    await ctx.app.close();

    const single = await openDatabase({ databaseUrl: urlAs(names.owner) });
    opened.push(single);
    await single.migrate();
    expect(await single.trailProtection()).toEqual({
      protected: false,
      detail: expect.stringContaining(`(${names.owner}) owns the audit tables`),
    });
    const ownerCtx = await contextOn(single, async () => undefined, { env: {} });
    const notProtected = await ownerCtx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(notProtected.statusCode).toBe(200);
    expect(notProtected.json().details.audit_trail).toMatchObject({ protected: false });
    await ownerCtx.app.close();
    expect(testConfig().databaseOwnerUrl).toBeUndefined();
  }, 120_000);

  it('a serving role alone serves a database its owner brought up to date, and cannot migrate one that is behind', async () => {
    const serving = await openDatabase({ databaseUrl: urlAs(names.serving) });
    opened.push(serving);
    // Up to date (the test above): nothing to do, and no CREATE asked for.
    await serving.migrate();
    const fresh = `${names.database}_behind`;
    await asSuperuser([`create database ${fresh} owner ${names.owner}`]);
    try {
      const url = new URL(urlAs(names.serving));
      url.pathname = `/${fresh}`;
      const behind = await openDatabase({ databaseUrl: url.toString() });
      await expect(behind.migrate()).rejects.toThrow(/may not migrate it: set DATABASE_OWNER_URL/);
      await behind.close();
    } finally {
      await asSuperuser([`drop database if exists ${fresh} with (force)`]);
    }
  }, 120_000);
});

describe.runIf(!baseUrl)('the embedded database', () => {
  it('says the trail is held by its seals and checkpoints, not by the database', async () => {
    const database = await openDatabase({ pgliteDataDir: 'memory://' });
    opened.push(database);
    await database.migrate();
    expect(await database.trailProtection()).toMatchObject({
      protected: false,
      detail: expect.stringContaining('the embedded database has one role'),
    });
  }, 120_000);
});
