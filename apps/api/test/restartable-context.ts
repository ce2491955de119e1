import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { createPglite, openDatabase, type Database } from '../src/db/client.js';
import { fixedClock } from '../src/lib/clock.js';
import { madeBefore } from './kit.js';
import { servingUrl } from './postgres-databases.js';
import { openTestDatabase, testConfig, type TestContext } from './test-app.js';

/**
 * Like createTestContext, but on a database that outlives the app: `restart()` closes the
 * app and the database connection, opens the database again and builds a new app, as a
 * server restart would. On PGlite the database lives in a data directory on disk (loaded
 * from the migrated snapshot); on PostgreSQL it is a copy of the template, reopened by URL.
 */
export interface RestartableContext extends TestContext {
  restart(): Promise<void>;
}

export async function restartableTestContext(now: string): Promise<RestartableContext> {
  const config = testConfig();
  const clock = fixedClock(now);
  const testDatabaseUrl = process.env.TEST_DATABASE_URL;
  let database: Database;
  let reopen: () => Promise<Database>;
  let remove: () => Promise<void>;
  if (testDatabaseUrl) {
    const opened = await openTestDatabase();
    // The owner's handle is not needed here: a restart reopens the database as the app serves it.
    await opened.owner.close();
    database = opened.database;
    const result = await database.db.execute(sql`select current_database() as name`);
    const name = (result as unknown as { rows: { name: string }[] }).rows[0]!.name;
    reopen = () => openDatabase({ databaseUrl: servingUrl(testDatabaseUrl, name) });
    remove = async () => {
      const admin = new pg.Client({ connectionString: testDatabaseUrl });
      await admin.connect();
      try {
        await admin.query(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.end();
      }
    };
  } else {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-attempts-'));
    const snapshot = new Blob([readFileSync(inject('pgliteSnapshotFile'))]);
    database = await openDatabase({ pglite: createPglite(dataDir, { loadDataDir: snapshot }) });
    reopen = () => openDatabase({ pgliteDataDir: dataDir });
    remove = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  const build = async (db: Database) => {
    const app = await buildApp({ config, database: db, clock, logger: process.env.TEST_LOGS === '1' });
    await app.ready();
    return app;
  };
  const context: RestartableContext = {
    app: await build(database),
    db: database.db,
    // The restarts' tests change no schema: the app's own handle stands for the owner's.
    get ownerDb() {
      return context.db;
    },
    database,
    config,
    clock,
    restart: async () => {
      await context.app.close();
      await context.database.close();
      context.database = await reopen();
      context.db = context.database.db;
      context.app = await build(context.database);
    },
    close: async () => {
      await context.app.close();
      await context.database.close();
      await remove();
    },
  };
  return context;
}

/** A restartable context made in beforeAll and closed in afterAll, as `testContext` makes the usual one. */
export function restartableContext(now: string): RestartableContext {
  return madeBefore(
    () => restartableTestContext(now),
    (ctx) => ctx.close(),
  );
}
