import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, TEST_PASSWORD, type TestContext } from '../../test/test-app.js';
import { rowsOf } from './client.js';
import { isConnectionLost, isReadOnlyStatement } from './connection-loss.js';
import { createResilientPool } from './resilient-pool.js';

/**
 * Connections PostgreSQL ends under a running app (a failover, a restart,
 * `pg_terminate_backend`): the process stays up, the request answers a retryable 503, a lone
 * read is read again. PostgreSQL only (PGlite has no connection to lose); the pure checks
 * run on both tiers.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function context(): Promise<TestContext> {
  const ctx = await createTestContext();
  cleanups.push(() => ctx.close());
  return ctx;
}

/** A connection of the test's own to the app's database, to end the app's backends from outside. */
async function outsider(ctx: TestContext): Promise<pg.Client> {
  const [{ name }] = rowsOf<{ name: string }>(await ctx.db.execute(sql`select current_database() as name`)) as [
    { name: string },
  ];
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  cleanups.push(() => client.end());
  return client;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const found = await read();
    if (found !== undefined) return found;
    await pause(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('telling a lost connection from other database errors', () => {
  it('knows the SQLSTATEs, socket codes and driver messages of a connection that ended', () => {
    expect(isConnectionLost({ code: '57P01' })).toBe(true);
    expect(isConnectionLost({ code: '08006' })).toBe(true);
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLost({ message: 'Failed query', cause: { code: 'ECONNREFUSED' } })).toBe(true);
    expect(isConnectionLost(new AggregateError([{ code: 'ECONNREFUSED' }]))).toBe(true);
    expect(isConnectionLost({ code: '23505' })).toBe(false);
    expect(isConnectionLost(new Error('boom'))).toBe(false);
  });

  it('reads again only what only reads', () => {
    expect(isReadOnlyStatement('select * from users where id = $1')).toBe(true);
    expect(isReadOnlyStatement('  SELECT 1')).toBe(true);
    expect(isReadOnlyStatement('select * from import_jobs for update skip locked')).toBe(false);
    expect(isReadOnlyStatement('select pg_advisory_xact_lock(1)')).toBe(false);
    expect(isReadOnlyStatement('with x as (delete from users returning id) select * from x')).toBe(false);
    expect(isReadOnlyStatement('update users set email = $1')).toBe(false);
  });
});

describe.skipIf(!onPostgres)('connections PostgreSQL ends under the app', () => {
  it('survives a connection ended while a transaction holds it between two statements', async () => {
    const ctx = await context();
    const killer = await outsider(ctx);
    const inTransaction = ctx.db.transaction(async (tx) => {
      const [own] = rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`));
      await killer.query('select pg_terminate_backend($1)', [own!.pid]);
      // Between statements: node-postgres reports the end as an 'error' event on the client
      // now, with no query to fail. Unheard, that event ended the process.
      await pause(300);
      await tx.execute(sql`select 1`);
    });
    await expect(inTransaction).rejects.toSatisfy(isConnectionLost);
    expect(await ctx.database.ping()).toBe(true);
    const ready = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode, ready.body).toBe(200);
  });

  it('answers a request whose connection was ended with a retryable 503, then serves the next', async () => {
    const ctx = await context();
    const user = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const holder = await outsider(ctx);
    // The sign-in counts the attempt under an advisory lock per email: held here, the
    // request waits inside its transaction, where its backend is ended.
    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`login:email:${user.email}`]);
    const signIn = ctx.app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    const waiting = await until(async () => {
      const found = await holder.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
      );
      return found.rows[0]?.pid;
    }, 'the sign-in to wait for the lock');
    await holder.query('select pg_terminate_backend($1)', [waiting]);
    const cut = await signIn;
    expect(cut.statusCode).toBe(503);
    expect(cut.json()).toMatchObject({ errorCode: 'DATABASE_UNAVAILABLE' });
    expect(cut.headers['retry-after']).toBe('1');
    await holder.query('commit');

    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(again.statusCode).toBe(200);
  });

  it('reads a lone read once more on a new connection, but never a write', async () => {
    const pool = createResilientPool({
      connectionString: process.env.TEST_DATABASE_URL!,
      max: 2,
      onConnectionLost: () => undefined,
    });
    cleanups.push(() => pool.end());
    const killer = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await killer.connect();
    cleanups.push(() => killer.end());
    const endFirstSleeper = async () => {
      const pid = await until(async () => {
        const found = await killer.query<{ pid: number }>(
          `select pid from pg_stat_activity where query like '%pg_sleep(0.5)%' and pid <> pg_backend_pid() and state = 'active'`,
        );
        return found.rows[0]?.pid;
      }, 'the statement to run');
      await killer.query('select pg_terminate_backend($1)', [pid]);
    };

    const read = pool.query<{ n: number }>('select 7 as n from pg_sleep(0.5)');
    await endFirstSleeper();
    expect((await read).rows).toEqual([{ n: 7 }]);

    // Its failure is taken at once (a rejection left unheard while the backend is ended is an unhandled one).
    const write = pool.query(`do $$ begin perform pg_sleep(0.5); end $$`).then(
      () => null,
      (error: unknown) => error,
    );
    await endFirstSleeper();
    expect(isConnectionLost(await write)).toBe(true);
  });
});
