import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { importJobs } from '../../db/schema/index.js';
import { localFileStorage } from '../../lib/storage.js';
import { createTestContext, createUser, type TestContext } from '../../../test/test-app.js';
import { createImportsRepository } from './imports.repository.js';
import { createImportsService, type ImportOutcome } from './imports.service.js';

// A short lease, so that renewals (every third of it) come within the test; the clock
// that decides when a lease has run out is the test's, moved by hand.
const LEASE_MS = 300;

let ctx: TestContext;
let dir: string;
let staffId: string;
beforeAll(async () => {
  ctx = await createTestContext();
  dir = mkdtempSync(path.join(os.tmpdir(), 'pss-imports-'));
  staffId = (await createUser(ctx.db, { role: 'SUPERADMIN' })).id;
});
afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An imports service whose CAP runner works until the test lets it finish. */
function serviceWithSlowRunner() {
  const service = createImportsService({
    imports: createImportsRepository(ctx.db),
    storage: localFileStorage(dir),
    clock: ctx.clock,
    leaseMs: LEASE_MS,
  });
  let started!: () => void;
  let finish!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const released = new Promise<void>((resolve) => (finish = resolve));
  service.registerRunner('CAP', async (): Promise<ImportOutcome> => {
    started();
    await released;
    return { total: 1, errors: [] };
  });
  return { service, running, finish };
}

async function jobRow(id: string) {
  const [row] = await ctx.db.select().from(importJobs).where(eq(importJobs.id, id));
  return row!;
}

/** Waits (real time) until `check` holds. */
async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the lease of a running import', () => {
  it('is renewed while the runner works, so the expiry sweep leaves the job running', async () => {
    const { service, running, finish } = serviceWithSlowRunner();
    const job = await service.enqueue({
      kind: 'CAP',
      scopeId: null,
      createdBy: staffId,
      fileName: 'roster.csv',
      file: { content: Buffer.from('cap_id,name,status\n') },
    });
    const done = service.runPending();
    await running;
    const claimed = await jobRow(job.id);
    expect(claimed.state).toBe('RUNNING');

    // Far past the lease the claim took (and past any default lease).
    ctx.clock.advance(60 * 60_000);
    const now = ctx.clock.now();
    await until(async () => (await jobRow(job.id)).leaseUntil! > now);
    expect(await service.recoverAbandoned()).toEqual({ requeued: 0, failed: 0 });
    expect((await jobRow(job.id)).state).toBe('RUNNING');

    finish();
    expect(await done).toBe(1);
    const finished = await jobRow(job.id);
    expect(finished).toMatchObject({ state: 'COMPLETE', leaseUntil: null });

    // Renewal stopped with the runner: the finished job's row is left alone.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
    expect(await jobRow(job.id)).toMatchObject({ state: 'COMPLETE', leaseUntil: null });
  });

  it('is not renewed once another process has ended the job', async () => {
    const { service, running, finish } = serviceWithSlowRunner();
    const job = await service.enqueue({
      kind: 'CAP',
      scopeId: null,
      createdBy: staffId,
      fileName: 'roster.csv',
      file: { content: Buffer.from('cap_id,name,status\n') },
    });
    const done = service.runPending();
    await running;
    // As the sweep of another process would leave it.
    await ctx.db
      .update(importJobs)
      .set({ state: 'ERROR', leaseUntil: null, finishedAt: ctx.clock.now() })
      .where(eq(importJobs.id, job.id));
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
    expect(await jobRow(job.id)).toMatchObject({ state: 'ERROR', leaseUntil: null });
    finish();
    await done;
  });
});
