import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import pg from 'pg';
import { buildApp, type App } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { createPglite, openDatabase, type Database, type Db } from '../src/db/client.js';
import { clients } from '../src/db/schema/index.js';
import { fixedClock } from '../src/lib/clock.js';
import type { Mailer } from '../src/lib/mailer.js';
import { hashPassword } from '../src/lib/passwords.js';
import { createUsersRepository, type UserRow } from '../src/modules/users/users.repository.js';
import { adminUrl, servingUrl } from './postgres-databases.js';

export const TEST_PASSWORD = 'correct-horse-6';

export interface TestContext {
  app: App;
  /** The database as the app serves it (on PostgreSQL, a role that owns nothing). */
  db: Db;
  /**
   * The same database as the schema's owner (on PostgreSQL the run's superuser; PGlite has one
   * role): for a test that changes the schema or goes behind the app's back.
   */
  ownerDb: Db;
  database: Database;
  config: Config;
  clock: ReturnType<typeof fixedClock>;
  close(): Promise<void>;
}

/** A fresh, migrated database of the kind this run tests (PGlite, or PostgreSQL). */
export async function openTestDatabase(): Promise<{
  database: Database;
  /** The schema's owner's handle on the same database (PGlite: the same handle). */
  owner: Database;
  drop(): Promise<void>;
  url?: string;
}> {
  const testDatabaseUrl = process.env.TEST_DATABASE_URL;
  const template = inject('postgresTemplate');
  if (testDatabaseUrl && template) {
    const name = `pss_test_${randomBytes(6).toString('hex')}`;
    await withAdmin(testDatabaseUrl, (c) => createFromTemplate(c, name, template));
    const url = servingUrl(testDatabaseUrl, name);
    const database = await openDatabase({ databaseUrl: url });
    const owner = await openDatabase({ databaseUrl: adminUrl(testDatabaseUrl, name) });
    return {
      database,
      owner,
      url,
      drop: async () => {
        await database.close();
        await owner.close();
        await withAdmin(testDatabaseUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
      },
    };
  }
  const snapshot = readFileSync(inject('pgliteSnapshotFile'));
  const pglite = createPglite(undefined, { loadDataDir: new Blob([snapshot]) });
  const database = await openDatabase({ pglite });
  return { database, owner: database, drop: () => database.close() };
}

async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function createFromTemplate(client: pg.Client, name: string, template: string): Promise<void> {
  // Two files copying the template at the same moment can collide; try again briefly.
  for (let attempt = 0; ; attempt++) {
    try {
      await client.query(`create database ${name} template ${template}`);
      return;
    } catch (error) {
      if (attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    // One data directory per test worker (each runs one file at a time): with one for all,
    // a test that looked at the stored files saw the other worker's uploads come and go.
    DATA_DIR: path.join(os.tmpdir(), 'pss-test-data', `worker-${process.env.VITEST_POOL_ID ?? '0'}`),
    WEB_DIST_DIR: path.join(os.tmpdir(), 'pss-no-web-app'),
    LOG_LEVEL: 'silent',
    // Tests read statistics right after changing what they count.
    STATISTICS_CACHE_SECONDS: '0',
    // Tests sign staff in with a password alone unless they are about the second factor
    // (modules/auth/second-factor), which set the roles that must have one.
    MFA_REQUIRED_ROLES: '',
    // Tests call anonymous routes many times within one minute of a fixed clock; the tests of
    // the limits set their own (modules/call-limits).
    ANONYMOUS_CALLS_PER_MINUTE: '100000',
    ANONYMOUS_CALLS_PER_MINUTE_TOTAL: '100000',
    ...overrides,
  });
}

/** Builds the whole app on a fresh database. Call `close()` in afterAll. */
export async function createTestContext(
  options: {
    env?: Record<string, string>;
    now?: string;
    /** A mailer of the test's own instead of SMTP_URL's (or the log's). */
    mailer?: Mailer;
    /** Pino options (e.g. a `stream` that captures the log) instead of TEST_LOGS. */
    logger?: Record<string, unknown>;
  } = {},
): Promise<TestContext> {
  const { database, owner, drop } = await openTestDatabase();
  return contextOn(database, drop, { ...options, ownerDb: owner.db });
}

/** The whole app built on a database already open (`drop` closes and removes it). */
export async function contextOn(
  database: Database,
  drop: () => Promise<void>,
  options: Parameters<typeof createTestContext>[0] & { ownerDb?: Db } = {},
): Promise<TestContext> {
  const config = testConfig(options.env);
  const clock = fixedClock(options.now ?? '2026-03-02T09:00:00Z');
  const app = await buildApp({
    config,
    database,
    clock,
    logger: options.logger ?? process.env.TEST_LOGS === '1',
    ...(options.mailer ? { mailer: options.mailer } : {}),
  });
  await app.ready();
  return {
    app,
    db: database.db,
    ownerDb: options.ownerDb ?? database.db,
    database,
    config,
    clock,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

let passwordHash: Promise<string> | undefined;
function testPasswordHash(): Promise<string> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  return passwordHash;
}

let counter = 0;
function uniqueSuffix(): string {
  counter += 1;
  return `${Date.now().toString(36)}${counter}`;
}

export async function createClient(db: Db, name = `Client ${uniqueSuffix()}`) {
  const [row] = await db.insert(clients).values({ name }).returning();
  if (!row) throw new Error('client not created');
  return row;
}

export async function createUser(
  db: Db,
  values: {
    role: UserRow['role'];
    clientId?: string | null;
    email?: string;
    withPassword?: boolean;
    firstName?: string;
    lastName?: string;
  },
): Promise<UserRow> {
  return createUsersRepository(db).insert({
    email: values.email ?? `${values.role.toLowerCase()}-${uniqueSuffix()}@example.test`,
    passwordHash: values.withPassword === false ? null : await testPasswordHash(),
    role: values.role,
    firstName: values.firstName ?? 'Test',
    lastName: values.lastName ?? values.role.charAt(0) + values.role.slice(1).toLowerCase(),
    clientId: values.clientId ?? null,
  });
}

/** Signs a staff member in through the real call and answers the bearer header. */
export async function bearerFor(app: App, user: Pick<UserRow, 'email'>): Promise<{ authorization: string }> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/admin/login',
    payload: { email: user.email, password: TEST_PASSWORD },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.body}`);
  return { authorization: `Bearer ${response.json().access_token}` };
}
