import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { CaseDocument } from '@pss/contract';
import { openDatabase } from '../src/db/client.js';
import { caseAnswers, emailOutbox, importJobs, projectParticipants, users } from '../src/db/schema/index.js';
import { BASE_PORT, startApiProcess, type ApiProcess } from './api-processes.js';
import { perfectAnswers } from './case-bodies.js';
import { participantsCsvForm, projectDueToday } from './process-fixtures.js';
import { createEmptyDatabase } from './postgres-databases.js';
import { startSmtpPeer, waitFor } from './smtp-peer.js';
import { contextOn, TEST_PASSWORD } from './test-app.js';

/**
 * A real server process while PostgreSQL ends its connections again and again, as a
 * failover, a restart or `pg_terminate_backend` does: during a participant import, while
 * participants answer and while the outbox sends. The process must stay up, answer every
 * call it cannot serve with the retryable 503 (never another 5xx), keep every answer it
 * acknowledged, finish the import exactly once, lose no email, and be ready again within
 * seconds. (SIGKILL of a process importing or sending, and SIGTERM under load, are in
 * multi-process.test.ts and email-processes.test.ts.) PostgreSQL only.
 */
const baseUrl = process.env.TEST_DATABASE_URL;
const APP_NAME = `pss_faults_${randomBytes(3).toString('hex')}`;
const PARTICIPANTS = 12;
const IMPORT_ROWS = 40_000;
/** How long connections keep being ended, and how often. */
const FAULT_WINDOW_MS = 5_000;
const FAULT_EVERY_MS = 400;

const cleanups: (() => Promise<unknown> | unknown)[] = [];
let server: ApiProcess | undefined;
afterAll(async () => {
  server?.child.kill('SIGKILL');
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function emptyDatabase(): Promise<string> {
  const database = await createEmptyDatabase(baseUrl!, 'pss_faults');
  cleanups.push(() => database.drop());
  return database.url;
}

/** What one HTTP call answered: its status and catalogue code, or that no answer came. */
interface Answered {
  what: string;
  status: number | 'network-error';
  errorCode?: string;
}

describe.skipIf(!baseUrl)('a server process whose database connections are ended under it', () => {
  it('stays up, answers 503 or succeeds, keeps every acknowledged write, imports once and sends every email', async () => {
    const url = await emptyDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-faults-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const smtp = await startSmtpPeer();
    cleanups.push(() => smtp.close());
    // Each message answered after 150 ms: the launch emails are still being sent in the window.
    smtp.slow(150);
    // The process's own connections carry a name, so only they are ended.
    const appUrl = new URL(url);
    appUrl.searchParams.set('application_name', APP_NAME);
    server = await startApiProcess({
      name: 'a',
      port: BASE_PORT + 7,
      databaseUrl: appUrl.href,
      dataDir,
      env: { SMTP_URL: smtp.url, SCHEDULER_INTERVAL_SECONDS: '1', EMAIL_LEASE_SECONDS: '3', IMPORT_LEASE_SECONDS: '2' },
    });
    const proc = server;

    const database = await openDatabase({ databaseUrl: url });
    const ctx = await contextOn(database, () => database.close());
    cleanups.push(() => ctx.close());
    const { adminA, work, p, participants } = await projectDueToday(
      ctx,
      'Failover Program',
      PARTICIPANTS,
      (i) => `f${i}@faults.test`,
    );
    const doc: CaseDocument = await work.publishedCase(p, 1, { name: 'Case under faults' });

    const answered: Answered[] = [];
    async function call(what: string, path: string, init: RequestInit = {}): Promise<Response | null> {
      try {
        const response = await fetch(`${proc.url}/api${path}`, init);
        const entry: Answered = { what, status: response.status };
        if (response.status >= 400)
          entry.errorCode = ((await response.clone().json()) as { errorCode?: string }).errorCode;
        answered.push(entry);
        return response;
      } catch {
        answered.push({ what, status: 'network-error' });
        return null;
      }
    }
    /** As a careful client does: a 503 is asked again after its Retry-After. */
    async function untilServed(what: string, path: string, init: () => RequestInit): Promise<Response> {
      for (let tries = 0; tries < 100; tries++) {
        const response = await call(what, path, init());
        if (response && response.status !== 503) return response;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`${what} was never served`);
    }
    const json = (body: unknown) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const signIn = async (path: string, email: string) => {
      const response = await untilServed('sign-in', path, () => json({ email, password: TEST_PASSWORD }));
      expect(response.status).toBe(200);
      return `Bearer ${((await response.json()) as { access_token: string }).access_token}`;
    };
    const adminAuth = await signIn('/auth/admin/login', adminA.email);
    const participantAuth = await Promise.all(participants.map((u) => signIn('/auth/login/user', u.email)));
    const attempts = await Promise.all(participants.map((u) => work.attemptOf(u, doc.name)));

    // The schedule has queued the launch emails and the slow server is taking them.
    await waitFor(() => smtp.received.length > 0, 30_000, 'the first launch email');

    // The import starts; the killer ends every connection of the process from then on.
    let importStarted = false;
    proc.onLog((line) => {
      if (line.msg === 'import started') importStarted = true;
    });
    const form = participantsCsvForm(IMPORT_ROWS, (i) => `I-${i},Dr.,F${i},L${i},imp${i}@faults.test,USER,MD,,,`);
    const queued = await untilServed('import', `/projects/${p.id}/upload`, () => ({
      method: 'POST',
      headers: { authorization: adminAuth },
      body: form,
    }));
    expect(queued.status).toBe(202);
    const jobId = ((await queued.json()) as { id: string }).id;

    const killer = new pg.Client({ connectionString: url });
    await killer.connect();
    cleanups.push(() => killer.end());
    let ended = 0;
    await waitFor(() => importStarted, 30_000, 'the import to start');
    const faultsUntil = Date.now() + FAULT_WINDOW_MS;
    const faults = (async () => {
      while (Date.now() < faultsUntil) {
        const result = await killer.query<{ ok: boolean }>(
          'select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = $1',
          [APP_NAME],
        );
        ended += result.rows.filter((r) => r.ok).length;
        await new Promise((resolve) => setTimeout(resolve, FAULT_EVERY_MS));
      }
    })();

    // Participants answer every question and submit, and staff read lists, all through the window.
    const acknowledged: { attemptId: string; questionId: string; choiceIds: string[] }[] = [];
    const answering = participants.map(async (_, i) => {
      const auth = participantAuth[i]!;
      const attemptId = attempts[i]!;
      for (const answer of perfectAnswers(doc)) {
        const response = await untilServed('answer', `/cases/${attemptId}/answer`, () => ({
          ...json(answer),
          headers: { 'content-type': 'application/json', authorization: auth },
        }));
        expect(response.status).toBe(200);
        acknowledged.push({ attemptId, questionId: answer.question_id, choiceIds: answer.choice_ids });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const submitted = await untilServed('submit', `/cases/${attemptId}/submit`, () => ({
        method: 'POST',
        headers: { authorization: auth },
      }));
      expect(submitted.status).toBe(200);
    });
    const listing = (async () => {
      while (Date.now() < faultsUntil) {
        await call('list', `/projects/${p.id}/users?page=1`, { headers: { authorization: adminAuth } });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await Promise.all([faults, listing, ...answering]);
    const faultsEndedAt = Date.now();

    // Up, and ready again within seconds.
    expect(proc.child.exitCode).toBeNull();
    await waitFor(
      async () => (await fetch(`${proc.url}/api/health/ready`).catch(() => null))?.status === 200,
      5_000,
      'the process to be ready again',
    );
    const readyAfterMs = Date.now() - faultsEndedAt;

    // Every call was served or answered the retryable 503; nothing else failed.
    const failed = answered.filter((a) => a.status === 'network-error' || (a.status >= 500 && a.status !== 503));
    expect(failed).toEqual([]);
    const unavailable = answered.filter((a) => a.status === 503);
    expect(unavailable.every((a) => a.errorCode === 'DATABASE_UNAVAILABLE')).toBe(true);
    expect(ended).toBeGreaterThan(5);

    // Every acknowledged answer is stored as given, and every case was submitted.
    for (const a of acknowledged) {
      const [stored] = await ctx.db
        .select({ choiceIds: caseAnswers.choiceIds })
        .from(caseAnswers)
        .where(and(eq(caseAnswers.userSeasonRoundCaseId, a.attemptId), eq(caseAnswers.questionId, a.questionId)));
      expect(stored?.choiceIds).toEqual(a.choiceIds);
    }
    expect(acknowledged).toHaveLength(PARTICIPANTS * perfectAnswers(doc).length);

    // The import ends COMPLETE, its rows once.
    const job = async () => (await ctx.db.select().from(importJobs).where(eq(importJobs.id, jobId)))[0]!;
    await waitFor(
      async () => (await job()).state !== 'RUNNING' && (await job()).state !== 'NOT_STARTED',
      90_000,
      'the import',
    );
    expect(await job()).toMatchObject({ state: 'COMPLETE', processedRows: IMPORT_ROWS });
    const [imported] = await ctx.db.select({ n: count() }).from(users).where(like(users.email, 'imp%@faults.test'));
    expect(imported!.n).toBe(IMPORT_ROWS);
    const [inProject] = await ctx.db
      .select({ n: count() })
      .from(projectParticipants)
      .where(eq(projectParticipants.projectId, p.id));
    expect(inProject!.n).toBe(PARTICIPANTS + IMPORT_ROWS);
    const importLines = proc.logs().filter((l) => l.jobId === jobId);
    expect(importLines.filter((l) => l.msg === 'import finished')).toHaveLength(1);
    const cuts = importLines.filter((l) => l.msg === 'import cut by a lost database connection').length;
    expect(cuts).toBeGreaterThanOrEqual(1);

    // No email lost: every participant's launch email arrived (a send cut between the
    // server's 250 and the outbox's write may arrive twice: that is the outbox's promise).
    await waitFor(
      async () => {
        const rows = await ctx.db
          .select({ status: emailOutbox.status })
          .from(emailOutbox)
          .where(eq(emailOutbox.projectId, p.id));
        return rows.length >= PARTICIPANTS && rows.every((r) => r.status === 'SENT');
      },
      60_000,
      'every launch email sent',
    );
    const recipients = new Set(smtp.received.flatMap((m) => m.to));
    for (const u of participants) expect(recipients.has(u.email)).toBe(true);

    expect(proc.child.exitCode).toBeNull();
    expect(proc.output()).not.toMatch(/Unhandled 'error' event|uncaughtException|unhandledRejection/);
    // eslint-disable-next-line no-console -- CI's log shows the figures
    console.log(
      `connection faults: ${ended} connections ended in ${FAULT_WINDOW_MS / 1000} s; ${answered.length} calls, ` +
        `${unavailable.length} answered 503; ${acknowledged.length} answers kept; import cut ${cuts}× then COMPLETE; ` +
        `${smtp.received.length} emails for ${PARTICIPANTS} recipients; ready ${readyAfterMs} ms after the last fault`,
    );
  }, 180_000);
});
