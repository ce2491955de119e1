/**
 * The app's side of the emails benchmark, in a process of its own (forked by
 * bench/emails.ts with --expose-gc), so that the memory measured is that of a process
 * holding the built app and running the schedule, as a server would.
 *
 * The schedule runs through the built app (`app.emails.runScheduler()`), with a clock that
 * starts at noon (UTC) of the seeded day and moves in real time, so a run near midnight
 * does not cross into the next day. The sender is the app's own (`createEmailSender`, with
 * the real outbox repository and the real SMTP mailer, wired as app.ts wires it); only its
 * claims are capped at the number of emails to send, so a bounded run drains part of a
 * full outbox rather than an outbox made small.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.js';
import { loadConfig } from '../apps/api/src/config.js';
import { openDatabase, rowsOf, type Database } from '../apps/api/src/db/client.js';
import type { Clock } from '../apps/api/src/lib/clock.js';
import { createMailer, type Mailer } from '../apps/api/src/lib/mailer.js';
import { createTokenService } from '../apps/api/src/lib/tokens.js';
import { createEmailOutboxRepository } from '../apps/api/src/modules/emails/email-outbox.repository.js';
import { createEmailScheduleRepository } from '../apps/api/src/modules/emails/email-schedule.repository.js';
import { createEmailSender, type DrainResult } from '../apps/api/src/modules/emails/email-sender.js';

export interface EmailProcessInput {
  databaseUrl: string | undefined;
  pgliteDataDir: string;
  dataDir: string;
  smtpUrl: string;
  day: string;
  projectId: string;
  /** Emails to send; 0 sends every queued one. */
  send: number;
}

interface Memory {
  rssMb: number;
  heapUsedMb: number;
}

export interface SchedulerRun {
  seconds: number;
  picked: number;
  queued: number;
  /** The process's peak resident memory during the run (VmHWM, reset before it). */
  peakRssMb: number;
  /** The largest heap in use sampled during the run. */
  peakHeapUsedMb: number;
  /**
   * The heap left after each collection (each sample where the heap had shrunk since the
   * one before), at most, in the run's first and in its second half: what the run held,
   * with garbage not yet collected by a full GC. Flat when nothing grows with the project.
   */
  heapFloorFirstHalfMb: number | null;
  heapFloorSecondHalfMb: number | null;
  /** Memory samples taken (every 10 ms and at every database statement). */
  samples: number;
  /** Heap in use after the run and a full GC: what it left behind. */
  heapAfterMb: number;
  /** CPU time of this process (user + system) during the run. */
  cpuSeconds: number;
  /** The machine's 1-minute load average when the run ended (2 cores). */
  loadAverage: number;
}

export interface EmailProcessResult {
  database: 'postgres' | 'pglite';
  day: string;
  /** Seasons the schedule reads on the day, in the whole database. */
  seasonsRead: number;
  /** The process with the app built, before the first run (after a full GC). */
  baseline: Memory;
  first: SchedulerRun & {
    /** Outbox rows of the bench project after the first run, by email. */
    projectQueued: { initialProject: number; initialSeason: number; reminder: number; total: number };
  };
  second: SchedulerRun;
  sending: {
    /** How many the run set out to send (the cap, or every queued email). */
    target: number;
    /** Queued emails in the whole outbox when sending began. */
    queuedBefore: number;
    seconds: number;
    emailsPerSecond: number;
    result: DrainResult;
    /** Outbox rows SENT afterwards. */
    rowsSent: number;
    cpuSeconds: number;
    loadAverage: number;
    /** Time spent claiming rows and reading what to write (sequential, between batches). */
    claimSeconds: number;
    /** Milliseconds a claim took: the median, and the mean of the first and of the last tenth of them. */
    claimMs: { median: number; firstTenth: number; lastTenth: number; claims: number };
    workSeconds: number;
    /** Average milliseconds per email handing it to the mail server, and recording it SENT (four at a time). */
    mailerMsPerEmail: number;
    markSentMsPerEmail: number;
    peakRssMb: number;
  };
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function memory(): Memory {
  const m = process.memoryUsage();
  return { rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed) };
}

/** Resets the kernel's peak-RSS mark for this process (Linux); false where it cannot. */
function resetPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

function peakRssMb(): number | null {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 102.4) / 10 : null;
  } catch {
    return null;
  }
}

/** Takes a memory sample while a run is measured; called by a timer and before each database statement. */
let sampleMemory: (() => void) | null = null;

/**
 * Runs `fn`, sampling memory every 10 ms and before each database statement (with the
 * embedded database a run is one chain of promises that no timer interrupts); answers its
 * result, time, CPU and memory.
 */
async function measured<T>(fn: () => Promise<T>) {
  globalThis.gc?.();
  const reset = resetPeakRss();
  const samples: { at: number; heap: number }[] = [];
  let sampledRss = 0;
  const started = performance.now();
  const sample = () => {
    const m = process.memoryUsage();
    sampledRss = Math.max(sampledRss, m.rss);
    samples.push({ at: performance.now() - started, heap: m.heapUsed });
  };
  sample();
  sampleMemory = sample;
  const timer = setInterval(sample, 10);
  const cpu = process.cpuUsage();
  try {
    const value = await fn();
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    sample();
    const half = (seconds * 1000) / 2;
    const max = (xs: number[]) => (xs.length ? mb(Math.max(...xs)) : null);
    const floors = samples.filter((s, i) => i > 0 && s.heap < samples[i - 1]!.heap);
    globalThis.gc?.();
    return {
      value,
      seconds,
      peakRssMb: reset ? Math.max(peakRssMb() ?? 0, mb(sampledRss)) : mb(sampledRss),
      peakHeapUsedMb: max(samples.map((s) => s.heap)) ?? 0,
      heapFloorFirstHalfMb: max(floors.filter((s) => s.at <= half).map((s) => s.heap)),
      heapFloorSecondHalfMb: max(floors.filter((s) => s.at > half).map((s) => s.heap)),
      samples: samples.length,
      heapAfterMb: mb(process.memoryUsage().heapUsed),
      cpuSeconds: (used.user + used.system) / 1e6,
      loadAverage: Math.round(os.loadavg()[0]! * 10) / 10,
    };
  } finally {
    clearInterval(timer);
    sampleMemory = null;
  }
}

function claimSummary(times: number[]) {
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const tenth = Math.max(1, Math.floor(times.length / 10));
  return {
    median: round([...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0),
    firstTenth: round(mean(times.slice(0, tenth))),
    lastTenth: round(mean(times.slice(-tenth))),
    claims: times.length,
  };
}

async function main(input: EmailProcessInput): Promise<EmailProcessResult> {
  const progress = (line: string) => process.send!({ progress: line });
  const dayStart = Date.parse(`${input.day}T12:00:00Z`);
  const t0 = performance.now();
  const clock: Clock = { now: () => new Date(dayStart + (performance.now() - t0)) };
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: input.dataDir,
    ...(input.databaseUrl ? { DATABASE_URL: input.databaseUrl } : {}),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_URL: 'https://pss.bench.example.org',
    SMTP_URL: input.smtpUrl,
    SMTP_FROM: 'PSS bench <no-reply@bench.example.org>',
    SCHEDULE_TIME_ZONE: 'UTC',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(input.dataDir, 'no-web-app'),
  });
  const opened = await openDatabase({
    databaseUrl: input.databaseUrl,
    pgliteDataDir: input.pgliteDataDir,
  });
  // Every statement the schedule makes (db.execute) takes a memory sample first.
  const database: Database = {
    ...opened,
    db: new Proxy(opened.db, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (key !== 'execute' || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          sampleMemory?.();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }),
  };
  const silent = { info: () => undefined, error: () => undefined };
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.smtpFrom, log: silent });
  const app = await buildApp({ config, database, clock, logger: false, mailer });
  const db = database.db;
  const seasonsRead = (await createEmailScheduleRepository(db, config.scheduleTimeZone).seasonsAbout(input.day)).length;

  globalThis.gc?.();
  const baseline = memory();
  progress(`scheduler run 1 over ${seasonsRead} running seasons …`);
  const first = await measured(() => app.emails.runScheduler());
  if (first.value.day !== input.day) throw new Error(`the schedule ran for ${first.value.day}, not ${input.day}`);
  const byKind = rowsOf<{ type: string; season: boolean; n: number }>(
    await db.execute(sql`
      select t.type, t.season_id is not null as season, count(*)::int as n
      from email_outbox o join email_templates t on t.id = o.template_id
      where o.project_id = ${input.projectId}::uuid and o.kind = 'SCHEDULED'
      group by 1, 2`),
  );
  const count = (type: string, season: boolean) => byKind.find((r) => r.type === type && r.season === season)?.n ?? 0;
  const projectQueued = {
    initialProject: count('initial', false),
    initialSeason: count('initial', true),
    reminder: count('reminder', false),
    total: byKind.reduce((sum, r) => sum + r.n, 0),
  };
  progress(`scheduler run 2 …`);
  const second = await measured(() => app.emails.runScheduler());

  // Sending: the app's sender, its claims capped at the number to send.
  const [queuedRow] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from email_outbox where status = 'QUEUED'`),
  );
  const queuedBefore = queuedRow!.n;
  const target = input.send > 0 ? Math.min(input.send, queuedBefore) : queuedBefore;
  const outbox = createEmailOutboxRepository(db);
  let claimed = 0;
  let claimMs = 0;
  const claimTimes: number[] = [];
  let workMs = 0;
  let mailerMs = 0;
  let markSentMs = 0;
  const timed = async <T>(fn: () => Promise<T>, add: (ms: number) => void): Promise<T> => {
    sampleMemory?.();
    const started = performance.now();
    try {
      return await fn();
    } finally {
      add(performance.now() - started);
    }
  };
  const tokens = createTokenService(config.sessionSecret, config.accessTokenTtlSeconds);
  const sender = createEmailSender({
    outbox: {
      ...outbox,
      async claim(now, leaseUntil, limit) {
        const room = target - claimed;
        if (room <= 0) return [];
        const started = performance.now();
        const rows = await outbox.claim(now, leaseUntil, Math.min(limit, room));
        claimMs += performance.now() - started;
        claimTimes.push(performance.now() - started);
        claimed += rows.length;
        return rows;
      },
      work: (ids) =>
        timed(
          () => outbox.work(ids),
          (ms) => (workMs += ms),
        ),
      markSent: (id, claimedAt, at) =>
        timed(
          () => outbox.markSent(id, claimedAt, at),
          (ms) => (markSentMs += ms),
        ),
    },
    mailer: {
      configured: mailer.configured,
      send: (message) =>
        timed(
          () => mailer.send(message),
          (ms) => (mailerMs += ms),
        ),
    } satisfies Mailer,
    clock,
    timeZone: config.scheduleTimeZone,
    publicUrl: config.publicUrl,
    support: config.support,
    dashboardLink: async (userId, now) =>
      `${config.publicUrl}/participant/link/${await tokens.signLinkToken(userId, now, config.linkTtlDays)}`,
  });
  progress(`sending ${target} of ${queuedBefore} queued emails …`);
  const sending = await measured(() => sender.drain());
  const [sentRow] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from email_outbox where status = 'SENT'`),
  );
  await app.close();
  await database.close();

  const run = (m: Awaited<ReturnType<typeof measured<{ picked: number; queued: number }>>>): SchedulerRun => ({
    seconds: m.seconds,
    picked: m.value.picked,
    queued: m.value.queued,
    peakRssMb: m.peakRssMb,
    peakHeapUsedMb: m.peakHeapUsedMb,
    heapFloorFirstHalfMb: m.heapFloorFirstHalfMb,
    heapFloorSecondHalfMb: m.heapFloorSecondHalfMb,
    samples: m.samples,
    heapAfterMb: m.heapAfterMb,
    cpuSeconds: m.cpuSeconds,
    loadAverage: m.loadAverage,
  });
  return {
    database: input.databaseUrl ? 'postgres' : 'pglite',
    day: input.day,
    seasonsRead,
    baseline,
    first: { ...run(first), projectQueued },
    second: run(second),
    sending: {
      target,
      queuedBefore,
      seconds: sending.seconds,
      emailsPerSecond: Math.round(sending.value.sent / sending.seconds),
      result: sending.value,
      rowsSent: sentRow!.n,
      claimSeconds: claimMs / 1000,
      claimMs: claimSummary(claimTimes),
      workSeconds: workMs / 1000,
      mailerMsPerEmail: Math.round((mailerMs / Math.max(1, sending.value.sent)) * 10) / 10,
      markSentMsPerEmail: Math.round((markSentMs / Math.max(1, sending.value.sent)) * 10) / 10,
      peakRssMb: sending.peakRssMb,
      cpuSeconds: sending.cpuSeconds,
      loadAverage: sending.loadAverage,
    },
  };
}

process.once('message', (input: EmailProcessInput) => {
  main(input).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (error: unknown) =>
      process.send!({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () =>
        process.exit(1),
      ),
  );
});
