import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { emailOutbox, importJobs, projectParticipants, users } from '../src/db/schema/index.js';
import { BASE_PORT, startApiProcess, type ApiProcess } from './api-processes.js';
import { twoClients } from './fixtures.js';
import { participantWork } from './participant-work.js';
import { participantsCsvForm, projectDueToday } from './process-fixtures.js';
import { createEmptyDatabase } from './postgres-databases.js';
import { startSmtpPeer, waitFor } from './smtp-peer.js';
import { contextOn, createUser, TEST_PASSWORD, type TestContext } from './test-app.js';

/**
 * Several API processes on one PostgreSQL database, as behind a load balancer with no
 * sticky sessions: (a) three processes started at once on an empty database share sign-ins,
 * lists, a participant import and the email schedule, and one is killed (SIGKILL) in the
 * middle of the import; (b) one process is restarted (SIGTERM) under load. PostgreSQL only:
 * PGlite is one process's database.
 */
const baseUrl = process.env.TEST_DATABASE_URL;
const processes: ApiProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const p of processes) p.child.kill('SIGKILL');
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** An empty database of this test's own (not from the migrated template: the processes migrate it). */
async function emptyDatabase(): Promise<string> {
  const database = await createEmptyDatabase(baseUrl!, 'pss_mp');
  cleanups.push(() => database.drop());
  return database.url;
}

/** Every data directory is shared, as a volume is: an upload one process stores, another imports. */
function sharedDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pss-multiproc-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function contextFor(url: string): Promise<TestContext> {
  const database = await openDatabase({ databaseUrl: url });
  const ctx = await contextOn(database, () => database.close());
  cleanups.push(() => ctx.close());
  return ctx;
}

/** One HTTP call, recorded with the process that answered it (or did not: a network error). */
interface Call {
  process: string;
  what: string;
  status: number | 'network-error';
}

const DUE_PARTICIPANTS = 20;
// Enough rows that the import is still running when its process is killed, 300 ms after it
// starts (6,000 were imported in less than that once the rows went by COPY).
const IMPORT_ROWS = 30_000;

describe.skipIf(!baseUrl)('several API processes on one PostgreSQL database', () => {
  it('(a) three processes share sign-ins, lists, an import and the email schedule; one killed mid-import', async () => {
    const url = await emptyDatabase();
    const dataDir = sharedDataDir();
    const smtp = await startSmtpPeer();
    cleanups.push(() => smtp.close());
    const env = {
      SMTP_URL: smtp.url,
      SCHEDULER_INTERVAL_SECONDS: '1',
      EMAIL_LEASE_SECONDS: '3',
      IMPORT_LEASE_SECONDS: '2',
    };
    // Started at once on an empty database: they migrate one after another (advisory lock)
    // and make the superadmin once.
    const [a, b, c] = await Promise.all(
      ['a', 'b', 'c'].map((name, i) => startApiProcess({ name, port: BASE_PORT + i, databaseUrl: url, dataDir, env })),
    );
    const all = [a!, b!, c!];
    processes.push(...all);
    const ctx = await contextFor(url);
    expect(await ctx.db.select({ n: count() }).from(users).where(eq(users.email, 'owner@multi.test'))).toEqual([
      { n: 1 },
    ]);

    // A project whose participants start today: their launch emails are due (real time).
    const { adminA, superadmin, p } = await projectDueToday(
      ctx,
      'Many Processes',
      DUE_PARTICIPANTS,
      (i) => `due${i}@multi.test`,
    );

    const calls: Call[] = [];
    const killed = new Set<string>();
    async function call(
      proc: ApiProcess,
      what: string,
      path: string,
      init: RequestInit = {},
    ): Promise<Response | null> {
      try {
        const response = await fetch(`${proc.url}/api${path}`, init);
        calls.push({ process: proc.name, what, status: response.status });
        return response;
      } catch {
        calls.push({ process: proc.name, what, status: 'network-error' });
        return null;
      }
    }
    const login = async (proc: ApiProcess, email: string) => {
      const response = await call(proc, 'sign-in', '/auth/admin/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: TEST_PASSWORD }),
      });
      expect(response?.status).toBe(200);
      const body = (await response!.json()) as { access_token: string };
      return { token: body.access_token, cookie: response!.headers.get('set-cookie')!.split(';')[0]! };
    };

    // Signed in on one process, served by the next, refreshed on the third: no sticky sessions.
    for (let i = 0; i < 6; i++) {
      const email = i % 2 ? adminA.email : superadmin.email;
      const session = await login(all[i % 3]!, email);
      const listed = await call(all[(i + 1) % 3]!, 'list', `/projects/${p.id}/users`, {
        headers: { authorization: `Bearer ${session.token}` },
      });
      expect(listed?.status).toBe(200);
      const refreshed = await call(all[(i + 2) % 3]!, 'refresh', '/auth/admin/refresh', {
        headers: { cookie: session.cookie },
      });
      expect(refreshed?.status).toBe(200);
    }

    // The launch emails are all sent before a process is killed. A SIGKILL between the mail
    // server's "250 accepted" and the outbox's write sends those emails again after the
    // lease, up to four a process (the limit docs/design/emails.md states;
    // test/email-processes.test.ts kills a process while it sends). The kill below is for the
    // import, so it must not land in an SMTP conversation (a CI run once killed it there, and
    // an email went twice).
    await waitFor(
      async () => {
        const rows = await ctx.db
          .select({ status: emailOutbox.status })
          .from(emailOutbox)
          .where(eq(emailOutbox.projectId, p.id));
        return rows.length === DUE_PARTICIPANTS && rows.every((r) => r.status === 'SENT');
      },
      60_000,
      'the launch emails sent before the import',
    );

    // The import: whichever process claims it is killed while it runs.
    const admin = await login(a!, adminA.email);
    const auth = { authorization: `Bearer ${admin.token}` };
    let victim: ApiProcess | undefined;
    for (const proc of all) {
      proc.onLog((line) => {
        if (line.msg !== 'import started' || line.kind !== 'PARTICIPANTS' || victim) return;
        victim = proc;
        // Far enough into the import to be writing (the file has thousands of rows).
        setTimeout(() => {
          killed.add(proc.name);
          proc.child.kill('SIGKILL');
        }, 300);
      });
    }
    const form = participantsCsvForm(IMPORT_ROWS, (i) => `I-${i},Dr.,First${i},Last${i},imp${i}@multi.test,USER,MD,,,`);
    const queued = await call(b!, 'import', `/projects/${p.id}/upload`, {
      method: 'POST',
      headers: { ...auth, 'x-request-id': 'multi-import-1' },
      body: form,
    });
    expect(queued?.status).toBe(202);
    const jobId = ((await queued!.json()) as { id: string }).id;

    // Lists through every process while the import runs, is killed and is taken up again.
    let lists = 0;
    const job = async () => (await ctx.db.select().from(importJobs).where(eq(importJobs.id, jobId)))[0]!;
    await waitFor(
      async () => {
        for (const proc of all) {
          if (killed.has(proc.name)) continue;
          await call(proc, 'list', `/projects/${p.id}/users?page=1`, { headers: auth });
          lists += 1;
        }
        return (await job()).state === 'COMPLETE' || (await job()).state === 'ERROR';
      },
      90_000,
      'the import to finish',
    );
    expect(victim).toBeDefined();
    expect((await victim!.exited).signal).toBe('SIGKILL');
    const finished = await job();
    expect(finished).toMatchObject({
      state: 'COMPLETE',
      attempts: 2,
      processedRows: IMPORT_ROWS,
      requestId: 'multi-import-1',
    });
    // Exactly once: the killed process's writes were rolled back, the second run's are all there.
    const [imported] = await ctx.db.select({ n: count() }).from(users).where(like(users.email, 'imp%@multi.test'));
    expect(imported!.n).toBe(IMPORT_ROWS);
    const [inProject] = await ctx.db
      .select({ n: count() })
      .from(projectParticipants)
      .where(eq(projectParticipants.projectId, p.id));
    expect(inProject!.n).toBe(DUE_PARTICIPANTS + IMPORT_ROWS);
    const starts = all.flatMap((proc) =>
      proc
        .logs()
        .filter((l) => l.jobId === jobId && l.msg === 'import started')
        .map(() => proc.name),
    );
    const ends = all.flatMap((proc) =>
      proc
        .logs()
        .filter((l) => l.jobId === jobId && l.msg === 'import finished')
        .map(() => proc.name),
    );
    expect(starts).toHaveLength(2);
    expect(ends).toHaveLength(1);
    expect(ends[0]).not.toBe(victim!.name);
    // The job's log lines carry the request that queued it, in whichever process ran it.
    const jobLines = all.flatMap((proc) => proc.logs().filter((l) => l.jobId === jobId));
    expect(jobLines.every((l) => l.reqId === 'multi-import-1')).toBe(true);

    // The email schedule ran in every process: each email went once.
    await waitFor(() => smtp.received.length >= DUE_PARTICIPANTS, 60_000, 'the launch emails');
    await new Promise((resolve) => setTimeout(resolve, 4000)); // past another lease and schedule runs
    const recipients = smtp.received.flatMap((m) => m.to);
    expect(recipients).toHaveLength(DUE_PARTICIPANTS);
    expect(new Set(recipients).size).toBe(DUE_PARTICIPANTS);
    const statuses = await ctx.db
      .select({ status: emailOutbox.status })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.projectId, p.id)));
    expect(statuses.map((s) => s.status)).toEqual(Array(DUE_PARTICIPANTS).fill('SENT'));

    // No 5xx, and no failed call, from a process that was not killed.
    const survivors = calls.filter((c) => !killed.has(c.process));
    expect(survivors.filter((c) => c.status === 'network-error' || c.status >= 500)).toEqual([]);
    expect(lists).toBeGreaterThan(3);
    // eslint-disable-next-line no-console -- CI's log shows the figures
    console.log(
      `multi-process: ${calls.length} calls (${survivors.length} to survivors, all answered < 500), ` +
        `import of ${IMPORT_ROWS} rows killed in ${victim!.name} and finished by ${ends[0]}, ${recipients.length} emails once each`,
    );
  }, 180_000);

  it('(b) a process restarted with SIGTERM under load: no failed request', async () => {
    const url = await emptyDatabase();
    const dataDir = sharedDataDir();
    const env = { SHUTDOWN_DRAIN_SECONDS: '1', LOG_LEVEL: 'warn' };
    const start = (name: string, port: number) => startApiProcess({ name, port, databaseUrl: url, dataDir, env });
    const backends = await Promise.all([start('x', BASE_PORT + 3), start('y', BASE_PORT + 4)]);
    processes.push(...backends);
    const ctx = await contextFor(url);
    const f = await twoClients(ctx);
    const superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const adminA = await createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id });
    const project = await participantWork(ctx, superadmin).project(f.clientA.id, { name: 'Under Load' });

    const balancer = await startBalancer(backends.map((b) => b.port));
    cleanups.push(() => balancer.close());
    const login = await fetch(`${balancer.url}/api/auth/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: adminA.email, password: TEST_PASSWORD }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;

    let finish!: (result: autocannon.Result) => void;
    const result = new Promise<autocannon.Result>((resolve) => (finish = resolve));
    const load = autocannon(
      {
        url: balancer.url,
        connections: 8,
        duration: 60,
        requests: [
          { method: 'GET', path: `/api/projects/${project.id}/users`, headers: { authorization: `Bearer ${token}` } },
          { method: 'GET', path: '/api/projects', headers: { authorization: `Bearer ${token}` } },
          { method: 'GET', path: '/api/settings' },
        ],
      },
      (error, figures) => {
        if (error) throw error;
        finish(figures);
      },
    );

    // Restart x while it serves: drain (not ready), stop, start again on its port.
    await waitFor(() => balancer.served(BASE_PORT + 3) > 200, 30_000, 'load on x');
    const x = backends[0]!;
    x.child.kill('SIGTERM');
    const exit = await x.exited;
    const servedBeforeRestart = balancer.served(BASE_PORT + 3);
    const restarted = await start('x2', BASE_PORT + 3);
    processes.push(restarted);
    await waitFor(() => balancer.served(BASE_PORT + 3) > servedBeforeRestart + 200, 30_000, 'load on the restarted x');
    load.stop();
    const figures = await result;

    expect(exit).toEqual({ code: 0, signal: null });
    expect(x.output()).not.toContain('shutdown timed out');
    expect(balancer.failures()).toEqual([]);
    expect(figures.errors).toBe(0);
    expect(figures.timeouts).toBe(0);
    expect(figures.non2xx).toBe(0);
    expect(figures.requests.total).toBeGreaterThan(400);
    // eslint-disable-next-line no-console -- CI's log shows the figures
    console.log(
      `restart under load: ${figures.requests.total} requests, ${figures.errors} errors, ${figures.non2xx} non-2xx; ` +
        `x served ${servedBeforeRestart} before its restart, y ${balancer.served(BASE_PORT + 4)}`,
    );
  }, 150_000);
});

/**
 * A round-robin balancer as a load balancer in front of the processes is: it sends traffic
 * only to processes whose /api/health/ready answers 200 (checked every 100 ms), and it
 * reports every request it could not pass on — it retries nothing, so a refused or cut
 * connection is a failure the test sees.
 */
async function startBalancer(ports: number[]) {
  const ready = new Map(ports.map((port) => [port, true]));
  const served = new Map(ports.map((port) => [port, 0]));
  const failures: string[] = [];
  let next = 0;
  const checker = setInterval(() => {
    for (const port of ports) {
      const check = http.get({ host: '127.0.0.1', port, path: '/api/health/ready', timeout: 1000 }, (response) => {
        ready.set(port, response.statusCode === 200);
        response.resume();
      });
      check.on('error', () => ready.set(port, false));
      check.on('timeout', () => check.destroy());
    }
  }, 100);
  const server = http.createServer((request, response) => {
    const candidates = ports.filter((port) => ready.get(port));
    if (!candidates.length) {
      failures.push(`${request.url}: no ready process`);
      response.writeHead(503).end();
      return;
    }
    const port = candidates[next++ % candidates.length]!;
    const upstream = http.request(
      { host: '127.0.0.1', port, path: request.url, method: request.method, headers: request.headers, agent: false },
      (answer) => {
        served.set(port, served.get(port)! + 1);
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => {
      failures.push(`${request.method} ${request.url} to ${port}: ${error.message}`);
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(BASE_PORT + 5, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${BASE_PORT + 5}`,
    served: (port: number) => served.get(port)!,
    failures: () => failures,
    close: () => {
      clearInterval(checker);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
