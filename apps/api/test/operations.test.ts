import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { importJobs } from '../src/db/schema/index.js';
import { localFileStorage } from '../src/lib/storage.js';
import { buildApp } from '../src/app.js';
import { rowsOf } from '../src/db/client.js';
import { multipartFile } from './fixtures.js';
import { bearerFor, createTestContext, createUser, type TestContext } from './test-app.js';

// What an operator relies on: liveness and readiness, /metrics behind its token, and
// request ids that join a request's log lines to its import's.
const TOKEN = 'operations-test-metrics-token';
const logLines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    env: { METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info' },
    logger: { stream: logStream, level: 'info' },
  });
});
afterAll(() => ctx.close());

const metrics = (authorization?: string) =>
  ctx.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

describe('liveness and readiness', () => {
  it('is live and ready on a migrated database that answers', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health/live' })).json()).toEqual({ status: 'ok' });
    const ready = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ok',
      checks: { database: true, migrations: true, storage: true, draining: false },
      // On PostgreSQL the tests serve with a role that owns nothing; the embedded database has one role.
      details: {
        audit_trail: { protected: Boolean(process.env.TEST_DATABASE_URL), detail: expect.any(String) },
      },
    });
  });

  it('is not ready while the database is behind this build, or does not answer; still live', async () => {
    // As a database restored from an older backup: its newest migration not applied.
    const [newest] = rowsOf<Record<string, unknown>>(
      await ctx.ownerDb.execute(
        sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning *`,
      ),
    );
    try {
      const behind = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(behind.statusCode).toBe(503);
      expect(behind.json()).toMatchObject({
        errorCode: 'NOT_READY',
        details: { checks: { database: true, migrations: false, storage: true, draining: false } },
      });
    } finally {
      await ctx.ownerDb.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest!.id}, ${newest!.hash}, ${newest!.created_at})`,
      );
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);

    const down = await buildApp({
      config: ctx.config,
      database: { ...ctx.database, ping: async () => false },
      logger: false,
    });
    const answer = await down.inject({ method: 'GET', url: '/api/health/ready' });
    expect(answer.statusCode).toBe(503);
    expect(answer.json().details.checks).toEqual({
      database: false,
      migrations: false,
      storage: true,
      draining: false,
    });
    expect((await down.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    await down.close();

    // Files that cannot be reached (a bucket gone, a volume unmounted): not ready, still live.
    const noFiles = await buildApp({
      config: ctx.config,
      database: ctx.database,
      storage: {
        ...localFileStorage(path.join(ctx.config.dataDir, 'files')),
        check: () => Promise.reject(new Error('gone')),
      },
      logger: false,
    });
    const unready = await noFiles.inject({ method: 'GET', url: '/api/health/ready' });
    expect(unready.statusCode).toBe(503);
    expect(unready.json().details.checks).toMatchObject({ database: true, migrations: true, storage: false });
    expect((await noFiles.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    await noFiles.close();
  });

  it('stops being ready once draining for a shutdown, and keeps serving', async () => {
    const app = await buildApp({ config: ctx.config, database: ctx.database, logger: false });
    app.startDraining();
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().details.checks.draining).toBe(true);
    expect((await app.inject({ method: 'GET', url: '/api/settings' })).statusCode).toBe(200);
    await app.close();
  });
});

describe('/metrics', () => {
  it('is not there without METRICS_TOKEN', async () => {
    const app = await buildApp({
      config: { ...ctx.config, metricsToken: undefined },
      database: ctx.database,
      logger: false,
    });
    expect(
      (await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode,
    ).toBe(404);
    await app.close();
  });

  it('refuses a missing or wrong token, and a user token', async () => {
    expect((await metrics()).statusCode).toBe(401);
    expect((await metrics(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
    const admin = await createUser(ctx.db, { role: 'SUPERADMIN' });
    expect((await metrics((await bearerFor(ctx.app, admin)).authorization)).statusCode).toBe(401);
  });

  it('shows request durations per route pattern, the queues, emails and the process', async () => {
    await ctx.app.inject({ method: 'GET', url: '/api/health/live' });
    await ctx.app.inject({ method: 'GET', url: '/api/pages/no-such-page' });
    const admin = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const file = multipartFile('cap_id,name,status\nCAP-1,One,Active\n', 'roster.csv');
    const queued = await ctx.app.inject({
      method: 'POST',
      url: '/api/clients/cap/import',
      headers: { ...(await bearerFor(ctx.app, admin)), ...file.headers },
      payload: file.payload,
    });
    expect(queued.statusCode).toBe(202);
    await ctx.app.emails.drain();

    const answer = await metrics(`Bearer ${TOKEN}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/plain');
    const text = answer.body;
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/health\/live",status_code="200"\} [1-9]/,
    );
    // The pattern, never the URL: one series for every page name.
    expect(text).toContain('route="/api/pages/:name"');
    expect(text).not.toContain('no-such-page');
    expect(text).toMatch(/pss_job_queue_depth\{queue="imports",state="waiting"\} [1-9]/);
    expect(text).toMatch(/pss_job_queue_oldest_age_seconds\{queue="emails"\} 0/);
    expect(text).toContain('pss_emails_total{outcome="sent"} 0');
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toContain(
      ctx.database.kind === 'postgres' ? 'pss_db_pool_connections{state="max"} 20' : 'pss_db_pool_connections',
    );
    await ctx.app.imports.runPending();
    expect((await metrics(`Bearer ${TOKEN}`)).body).toMatch(/pss_job_queue_depth\{queue="imports",state="waiting"\} 0/);
  });
});

describe('request ids', () => {
  it("answers with the caller's X-Request-Id, or a new UUID, and carries it into the import's log lines", async () => {
    const fresh = await ctx.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // Not an id: replaced, so that a header cannot forge log content.
    const forged = await ctx.app.inject({
      method: 'GET',
      url: '/api/health/live',
      headers: { 'x-request-id': 'a b\nc' },
    });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const admin = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const file = multipartFile('cap_id,name,status\nCAP-2,Two,Active\n', 'roster.csv');
    const queued = await ctx.app.inject({
      method: 'POST',
      url: '/api/clients/cap/import',
      headers: { ...(await bearerFor(ctx.app, admin)), ...file.headers, 'x-request-id': 'proxy-req-42' },
      payload: file.payload,
    });
    expect(queued.headers['x-request-id']).toBe('proxy-req-42');
    const [row] = await ctx.db.select().from(importJobs).where(eq(importJobs.id, queued.json().id));
    expect(row!.requestId).toBe('proxy-req-42');
    await ctx.app.imports.runPending();
    const jobLines = logLines.filter((line) => line.jobId === row!.id);
    expect(jobLines.map((line) => line.msg)).toEqual(['import started', 'import finished']);
    expect(jobLines.every((line) => line.reqId === 'proxy-req-42')).toBe(true);
    // The request's own lines carry the same id.
    expect(logLines.some((line) => line.reqId === 'proxy-req-42' && line.msg === 'request completed')).toBe(true);
  });
});
