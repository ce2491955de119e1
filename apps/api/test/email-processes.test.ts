import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { emailOutbox } from '../src/db/schema/index.js';
import { addDays } from '../src/modules/emails/email-rules.js';
import { twoClients } from './fixtures.js';
import { participantWork } from './participant-work.js';
import { startSmtpPeer, waitFor } from './smtp-peer.js';
import { contextOn, createUser, openTestDatabase, type TestContext } from './test-app.js';

/**
 * The outbox across real server processes (the entry point, as `npm start` runs it) on one
 * PostgreSQL database and a real SMTP server: several processes, and a process killed
 * while it sends, never lose an email and never send one twice. PostgreSQL only: PGlite is
 * one process's database.
 */
const apiRoot = path.resolve(import.meta.dirname, '..');
const PARTICIPANTS = 40;
const children: ChildProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(() => children.splice(0).forEach((child) => child.kill('SIGKILL')));
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** A database with a project whose forty participants start today (real time): forty launch emails are due. */
async function dueToday(): Promise<{ ctx: TestContext; url: string; projectId: string }> {
  const opened = await openTestDatabase();
  const ctx = await contextOn(opened.database, opened.drop);
  cleanups.push(() => ctx.close());
  const f = await twoClients(ctx);
  const work = participantWork(ctx, await createUser(ctx.db, { role: 'SUPERADMIN' }));
  const today = new Date().toISOString().slice(0, 10);
  const p = await work.project(f.clientA.id, {
    name: 'Process Program',
    seasons: [{ name: 'Now', rounds: [{ number: 1, start_date: addDays(today, -3), end_date: addDays(today, 10) }] }],
  });
  for (let i = 0; i < PARTICIPANTS; i++) {
    await work.enrol(p, f.clientA.id, { first: 1, last: 1, startDate: today }, { email: `p${i}@process.test` });
  }
  return { ctx, url: opened.url!, projectId: p.id };
}

/** Starts the server process on the database, sending to the SMTP server. */
function startServer(databaseUrl: string, smtpUrl: string): Promise<ChildProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-email-proc-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: apiRoot,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SMTP_URL: smtpUrl,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'process-test-secret-long-enough-for-hs256',
      // No demo data: the database has the test's project only.
      SUPERADMIN_EMAIL: 'owner@process.test',
      SUPERADMIN_PASSWORD: 'owner-password',
      SCHEDULER_INTERVAL_SECONDS: '1',
      SCHEDULE_TIME_ZONE: 'UTC',
      EMAIL_LEASE_SECONDS: '3',
    },
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 45 s:\n${output}`)), 45_000);
    child.stdout!.on('data', () => {
      if (!/running at http/.test(output)) return;
      clearTimeout(timer);
      resolve(child);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL' && signal !== 'SIGTERM') reject(new Error(`exited with ${code}:\n${output}`));
    });
  });
}

const statuses = async (ctx: TestContext, projectId: string) =>
  (
    await ctx.db.select({ status: emailOutbox.status }).from(emailOutbox).where(eq(emailOutbox.projectId, projectId))
  ).map((r) => r.status);

describe.skipIf(!process.env.TEST_DATABASE_URL)('emails across server processes', () => {
  it('two server processes on one database send every email once', async () => {
    const { ctx, url, projectId } = await dueToday();
    const smtp = await startSmtpPeer();
    cleanups.unshift(() => smtp.close());
    await Promise.all([startServer(url, smtp.url), startServer(url, smtp.url)]);
    await waitFor(() => smtp.received.length >= PARTICIPANTS, 60_000, 'forty emails');
    // Both keep scheduling every second and polling the outbox: give a second copy time to show.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const recipients = smtp.received.flatMap((m) => m.to);
    expect(recipients).toHaveLength(PARTICIPANTS);
    expect(new Set(recipients).size).toBe(PARTICIPANTS);
    expect(await statuses(ctx, projectId)).toEqual(Array(PARTICIPANTS).fill('SENT'));
  }, 120_000);

  it('a process killed (SIGKILL) while sending, then started again: none lost, none twice', async () => {
    const { ctx, url, projectId } = await dueToday();
    const smtp = await startSmtpPeer();
    cleanups.unshift(() => smtp.close());
    const first = await startServer(url, smtp.url);
    // Let some through, then hold every message in the middle of its sending and kill the process.
    await waitFor(() => smtp.received.length >= 10, 60_000, 'the first ten emails');
    smtp.hold();
    await waitFor(() => smtp.held() >= 1, 30_000, 'a message held mid-send');
    // Whatever the server had already answered is recorded by now; the held ones are not answered.
    await new Promise((resolve) => setTimeout(resolve, 300));
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const before = smtp.received.length;
    expect(before).toBeGreaterThanOrEqual(10);
    expect(before).toBeLessThan(PARTICIPANTS);
    expect(await statuses(ctx, projectId)).toContain('SENDING');

    smtp.release();
    await startServer(url, smtp.url);
    await waitFor(() => smtp.received.length >= PARTICIPANTS, 60_000, 'every email after the restart');
    await new Promise((resolve) => setTimeout(resolve, 4000)); // past another lease: no second copy
    const recipients = smtp.received.flatMap((m) => m.to);
    expect(recipients).toHaveLength(PARTICIPANTS);
    expect(new Set(recipients).size).toBe(PARTICIPANTS);
    expect(await statuses(ctx, projectId)).toEqual(Array(PARTICIPANTS).fill('SENT'));
  }, 150_000);
});
