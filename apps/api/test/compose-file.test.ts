import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { openDatabase } from '../src/db/client.js';
import { createEmptyDatabase } from './postgres-databases.js';

/**
 * compose.yaml is what an operator runs as it is. A default for a secret or for the public
 * address is a value they never chose: a database password everyone knows, and links to
 * localhost with cookies that lack `Secure`. Those variables must be required
 * (`${VAR:?message}`: compose refuses to start without them).
 */
const composeText = readFileSync(path.resolve(import.meta.dirname, '../../../compose.yaml'), 'utf8');
// Comments may show an example command; only the settings count.
const settings = composeText
  .split('\n')
  .filter((line) => !line.trim().startsWith('#'))
  .join('\n');

/** Every `${…}` in the settings: the variable and what follows its name (`:?message`, `:-default`, …). */
const interpolations = [...settings.matchAll(/\$\{([A-Z0-9_]+)([^}]*)\}/g)].map((m) => ({
  name: m[1]!,
  rest: m[2]!,
}));

const required = ['APP_DB_PASSWORD', 'AUDIT_SIGNING_KEY', 'POSTGRES_PASSWORD', 'PUBLIC_URL', 'SESSION_SECRET'];

describe('compose.yaml', () => {
  it.each(required)('requires %s: every use is ${VAR:?message}, none has a default', (name) => {
    const uses = interpolations.filter((i) => i.name === name);
    expect(uses.length).toBeGreaterThan(0);
    for (const use of uses) expect(use.rest, `\${${name}${use.rest}}`).toMatch(/^:\?\S/);
  });

  it('writes no value of its own for them either', () => {
    for (const name of required) {
      for (const [, value] of settings.matchAll(new RegExp(`^\\s*${name}:\\s*(.*)$`, 'gm'))) {
        expect(value!.trim(), name).toMatch(new RegExp(`^['"]?\\$\\{${name}:\\?`));
      }
    }
    // The database URLs take their passwords from the same required variables: the owner's
    // migrates, the serving role's (which owns nothing) serves.
    expect(settings).toMatch(/DATABASE_OWNER_URL: postgres:\/\/pss:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres/);
    expect(settings).toMatch(/DATABASE_URL: postgres:\/\/pss_app:\$\{APP_DB_PASSWORD:\?[^}]+\}@postgres/);
  });
});

/**
 * The serving role's script, as the postgres image runs it when it makes the database: then
 * the owner migrates and grants, and the app serves as a role that may not rewrite the trail.
 */
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('deploy/postgres-init/10-serving-role.sh', () => {
  it('makes the role the app serves with, which the owner grants and which owns nothing', async () => {
    const database = await createEmptyDatabase(process.env.TEST_DATABASE_URL!, 'pss_compose');
    const role = `pss_app_${randomBytes(4).toString('hex')}`;
    const base = new URL(database.url);
    try {
      const run = spawnSync(
        'sh',
        [path.resolve(import.meta.dirname, '../../../deploy/postgres-init/10-serving-role.sh')],
        {
          env: {
            ...process.env,
            PGHOST: base.hostname,
            PGPORT: base.port || '5432',
            POSTGRES_USER: decodeURIComponent(base.username),
            POSTGRES_DB: base.pathname.slice(1),
            APP_DB_USER: role,
            APP_DB_PASSWORD: 'a1b2c3',
          },
          encoding: 'utf8',
        },
      );
      expect(run.status, run.stderr).toBe(0);
      const servingUrl = new URL(database.url);
      servingUrl.username = role;
      servingUrl.password = 'a1b2c3';
      const serving = await openDatabase({ databaseUrl: servingUrl.toString(), databaseOwnerUrl: database.url });
      try {
        await serving.migrate();
        expect(await serving.trailProtection()).toMatchObject({ protected: true });
      } finally {
        await serving.close();
      }
    } finally {
      await database.drop();
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      // Its grant on session_replication_role is the cluster's: dropped with what it holds.
      await admin.query(`drop owned by ${role}`);
      await admin.query(`drop role ${role}`);
      await admin.end();
    }
  }, 120_000);
});
