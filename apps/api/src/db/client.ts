import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema/index.js';
import type { Db } from './executor.js';
import { createResilientPool } from './resilient-pool.js';
import { latestMigrationTime, migrationsApplied } from './migration-state.js';
import { currentRole, grantServingRole, trailProtection, type TrailProtection } from './database-roles.js';

const { Pool: PgPool } = pg;

// The handles, kept in `executor.ts` (what this file uses reads the database through them too).
export { rowsOf, type Db, type Executor, type Schema, type Tx } from './executor.js';

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Applies the committed SQL migrations that have not run yet: as the schema's owner when
   * one is given (`databaseOwnerUrl`), who then grants the serving role what it may do.
   */
  migrate(): Promise<void>;
  /** Whether the audit trail is protected from the role this database is served with. */
  trailProtection(): Promise<TrailProtection>;
  /** Answers true when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** The connection pool's counts, for /metrics (PostgreSQL only: PGlite is one in-process connection). */
  poolStats?: () => { total: number; idle: number; waiting: number; max: number };
  /**
   * Calls `listener` for every database connection that ends with an error (PostgreSQL only:
   * PGlite has no connection to lose). The app logs and counts them; see `resilient-pool.ts`.
   */
  onConnectionLost(listener: (error: Error) => void): void;
}

/**
 * Any key unique to this app: the session-level advisory lock that lets one process at a
 * time migrate. Three processes started at once would otherwise each see a migration as
 * not run yet and apply it concurrently (duplicate-object errors, or worse, half a migration).
 */
const MIGRATION_LOCK_KEY = 7_245_019_311;

/**
 * Applies the migrations on one connection holding the advisory lock; a process that waits
 * for the lock then finds them applied and does nothing. The lock goes with the connection
 * if the process dies mid-migration (the migration's own transaction rolls back).
 */
async function migrateUnderLock(pool: pg.Pool, folder: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder: folder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/**
 * The migrations run by the schema's owner, who then grants the role the app serves with what
 * it may do (`database-roles.ts`); the owner's connections end with the migration.
 */
async function migrateAsOwner(ownerUrl: string, serving: pg.Pool, folder: string): Promise<void> {
  const owner = new PgPool({ connectionString: ownerUrl, max: 1 });
  try {
    await migrateUnderLock(owner, folder);
    const servingClient = await serving.connect();
    const role = await currentRole(servingClient).finally(() => servingClient.release());
    const client = await owner.connect();
    try {
      await grantServingRole(client, role);
    } finally {
      client.release();
    }
  } finally {
    await owner.end();
  }
}

export const migrationsFolder = path.resolve(import.meta.dirname, 'migrations');

export interface OpenDatabaseOptions {
  databaseUrl?: string | undefined;
  /** The schema's owner, who runs the migrations (DATABASE_OWNER_URL); else `databaseUrl`'s role. */
  databaseOwnerUrl?: string | undefined;
  /** Where PGlite keeps its files; `memory://` for a throwaway database. */
  pgliteDataDir?: string;
  /** A PGlite instance made by the caller (tests start from a migrated snapshot). */
  pglite?: PGlite;
  migrationsFolder?: string;
}

/**
 * A PGlite instance with the extensions the migrations use (pg_trgm, for substring
 * search by index). Every embedded database, in the app and in tests, is made here.
 */
export function createPglite(dataDir?: string, options: Omit<PGliteOptions, 'extensions'> = {}): PGlite {
  return new PGlite({ ...options, ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm } });
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const folder = options.migrationsFolder ?? migrationsFolder;
  if (options.databaseUrl) {
    const listeners: ((error: Error) => void)[] = [];
    // A connection the server ends (a failover, a restart, a terminated backend) must not
    // take the process down, whether it was idle or checked out: see resilient-pool.ts.
    const pool = createResilientPool({
      connectionString: options.databaseUrl,
      max: 20,
      onConnectionLost: (error) => listeners.forEach((listener) => listener(error)),
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      migrate: async () => {
        if (options.databaseOwnerUrl) return migrateAsOwner(options.databaseOwnerUrl, pool, folder);
        // A role that owns nothing may not even look for drizzle's table the way its migrator
        // does (CREATE SCHEMA IF NOT EXISTS asks for CREATE first): a database the owner has
        // brought up to date is served as it is; one that is behind needs the owner.
        if (await migrationsApplied(db, latestMigrationTime(folder))) return;
        return migrateUnderLock(pool, folder).catch((error: unknown) => {
          const cause = (error as { cause?: { code?: string } }).cause;
          if (cause?.code !== '42501') throw error;
          throw new Error(
            'The database is behind this build and the role of DATABASE_URL may not migrate it: ' +
              'set DATABASE_OWNER_URL to the schema owner’s, who migrates it and grants the serving role.',
            { cause: error },
          );
        });
      },
      trailProtection: () => trailProtection(db, 'postgres'),
      ping: () => ping(db),
      close: () => pool.end(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: 20 }),
      onConnectionLost: (listener) => listeners.push(listener),
    };
  }
  let client = options.pglite;
  if (!client) {
    const dataDir = options.pgliteDataDir ?? 'memory://';
    if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
    client = createPglite(dataDir);
  }
  const pglite = client;
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(pglite, { schema }), { migrationsFolder: folder }),
    trailProtection: () => trailProtection(db, 'pglite'),
    ping: () => ping(db),
    close: () => pglite.close(),
    onConnectionLost: () => undefined,
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
