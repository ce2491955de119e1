/**
 * `npm run bench`: seeds a database of a chosen size, starts the built server on it,
 * drives chosen calls with autocannon and prints throughput and p50/p95/p99 for each,
 * beside /api/health measured in the same run: on a noisy 2-core machine the ratio to
 * health is the figure to compare between runs. Results go to bench/results/*.json.
 *
 *   npm run bench -- [--clients 5000] [--duration 10] [--connections 20] [--pg postgres://...]
 *     [--scenarios emails|resources] [--email-participants 100000] [--email-send 10000] [--report-answers 1000000]
 *     [--statistics-participants 100000]
 *   npm run bench -- --scenarios soak [--minutes 60] [--pg postgres://...]
 *
 * With --pg the harness makes a fresh database on that server and drops it afterwards;
 * otherwise it uses embedded PGlite in a temporary directory.
 *
 * The `emails` scenario (bench/emails.ts) runs once the server has stopped: it seeds a
 * project of --email-participants, runs the schedule twice and sends --email-send of what
 * it queued to a local SMTP server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { clientListQuery, participantListQuery, professions } from '@pss/contract';
import pg from 'pg';
import { openDatabase } from '../apps/api/src/db/client.js';
import { checkStoredAnswers, runAnswerBench, seedAnswerBench } from './answers.js';
import { runEmailBench, seedEmailBench, type EmailBenchFigures } from './emails.js';
import { seedBenchData, BENCH_SUPERADMIN, type BenchFixture } from './seed.js';
import { participantsFor, seedReportProject } from './report-seed.js';
import { runReportBench, type ReportFigures } from './reports.js';
import { describeResourceBench, runResourceBench } from './resources.js';
import { runSoak } from './soak.js';
import { captureStatements, type FloorRoute } from './floor.js';
import { measureCopyFloor, type CopyFloor } from './import-floor.js';
import type { Db } from '../apps/api/src/db/client.js';
import { createClientsRepository } from '../apps/api/src/modules/clients/clients.repository.js';
import { createParticipantsRepository } from '../apps/api/src/modules/participants/participants.repository.js';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '5000' },
    'projects-per-client': { type: 'string', default: '4' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    pg: { type: 'string' },
    port: { type: 'string', default: '3310' },
    participants: { type: 'string', default: '100000' },
    /** Participants saving answers at once in the answer benchmark (0 skips it). */
    'answer-participants': { type: 'string', default: '50' },
    /** How many times each of them answers each of the case's ten questions. */
    'answer-passes': { type: 'string', default: '5' },
    /** Participants of the emails scenario's project (0 skips it). */
    'email-participants': { type: 'string', default: '100000' },
    /** Emails the emails scenario sends of those it queued (0: all of them). */
    'email-send': { type: 'string', default: '10000' },
    /** Answers in the project the reports are downloaded from (0 skips the reports benchmark). */
    'report-answers': { type: 'string', default: '1000000' },
    /** Participants of the project the statistics calls read (0 skips them). */
    'statistics-participants': { type: 'string', default: '100000' },
    /** Only the calls whose name matches this regular expression (health always runs; `emails` is the emails scenario). */
    scenarios: { type: 'string' },
    /** The soak's length (`--scenarios soak`, bench/soak.ts). */
    minutes: { type: 'string', default: '60' },
    /** The soak's participants (each answers the case once; 50-60 a minute take it, so 5000 outlast an hour). */
    'soak-participants': { type: 'string', default: '5000' },
  },
});
const clientCount = Number(values.clients);
const projectsPerClient = Number(values['projects-per-client']);
const duration = Number(values.duration);
const connections = Number(values.connections);
const port = Number(values.port);
const root = path.resolve(import.meta.dirname, '..');
const base = `http://127.0.0.1:${port}`;

interface Scenario {
  name: string;
  path: string | ((f: BenchFixture) => string);
  auth: boolean;
  /**
   * The repository call that reads the same page, whose SQL the floor server replays
   * (bench/floor.ts); on PostgreSQL only, where the harness can share the database.
   */
  floor?: (db: Db, f: BenchFixture) => Promise<unknown>;
}

/** The query string of a scenario's path, as the app's list schema reads it. */
const queryOf = (target: string) => Object.fromEntries(new URL(target, base).searchParams);

/** A clients list page through the clients repository, as `GET /api/clients` reads it. */
const clientsFloor =
  (target: string | ((f: BenchFixture) => string)) =>
  (db: Db, f: BenchFixture): Promise<unknown> =>
    createClientsRepository(db).list(
      clientListQuery.parse(queryOf(typeof target === 'string' ? target : target(f))),
      null,
    );

function withClientsFloor(scenario: Scenario): Scenario {
  return { ...scenario, floor: clientsFloor(scenario.path) };
}

const participantRepositories = new WeakMap<Db, ReturnType<typeof createParticipantsRepository>>();

/**
 * A participants list page through the participants repository: the project's head (its
 * client for the access check, its kept counts: the total of an unsearched list), then the
 * page, as `GET /api/projects/{id}/users` reads it.
 */
const participantsFloor =
  (projectId: string, target: string) =>
  async (db: Db): Promise<unknown> => {
    // One repository per database, so that its page marks (an in-process cache) are warm
    // when the second call is captured, as they are in the running app.
    let participants = participantRepositories.get(db);
    if (!participants) {
      participants = createParticipantsRepository(db);
      participantRepositories.set(db, participants);
    }
    const query = participantListQuery.parse(queryOf(target));
    const head = await participants.listHead(projectId);
    if (!head) throw new Error(`no project ${projectId}`);
    let kept: number | null = null;
    if (!query.search && !query.filter.progress && !query.filter.data_status) {
      kept = query.filter.archived ? head.archived : head.active;
    }
    return participants.list(projectId, query, head, kept);
  };

/** The calls measured. Later features add theirs here. */
const scenarios: Scenario[] = [
  { name: 'health', path: '/api/health', auth: false },
  { name: 'users/me', path: '/api/users/me', auth: true },
  withClientsFloor({ name: 'clients page 1', path: '/api/clients?limit=25', auth: true }),
  withClientsFloor({ name: 'clients sorted by name', path: '/api/clients?limit=25&sort=name:ASC', auth: true }),
  withClientsFloor({ name: 'clients search', path: '/api/clients?limit=25&search=health', auth: true }),
  withClientsFloor({
    name: 'clients deep page',
    path: (f) => `/api/clients?limit=25&page=${Math.max(1, Math.floor(f.clients / 25) - 1)}`,
    auth: true,
  }),
  { name: 'client by id', path: (f) => `/api/clients/${f.sampleClientId}`, auth: true },
  { name: 'clients p2 sorted+search', path: '/api/clients?page=2&limit=10&sort=name:ASC&search=care', auth: true },
  { name: 'projects page 1', path: '/api/projects?limit=25', auth: true },
  { name: 'projects search', path: '/api/projects?limit=25&search=sepsis&sort=name:ASC', auth: true },
  {
    name: 'projects archived',
    path: `/api/projects?limit=25&filter=${encodeURIComponent('{"status":"ARCHIVED"}')}`,
    auth: true,
  },
  { name: "a client's projects", path: (f) => `/api/clients/${f.sampleClientId}/projects`, auth: true },
  { name: 'project by id', path: (f) => `/api/projects/${f.sampleProjectId}`, auth: true },
  { name: 'active seasons', path: '/api/clients/active-seasons?limit=25', auth: true },
  { name: 'CMEs of a project', path: (f) => `/api/cmes/${f.sampleProjectId}`, auth: true },
];

/** Every statistics call of the Progress Dashboard, on the seeded project's season. */
function statisticsScenarios(projectId: string, seasonName: string): Scenario[] {
  const base = `/api/statistics/${projectId}`;
  const season = `seasonName=${encodeURIComponent(seasonName)}`;
  return [
    { name: 'statistics participation', path: `${base}/overal-participation-rate?${season}`, auth: true },
    { name: 'statistics completion cases', path: `${base}/overal-completion-rate?${season}&type=CASES`, auth: true },
    {
      name: 'statistics completion people',
      path: `${base}/overal-completion-rate?${season}&type=PARTICIPANTS`,
      auth: true,
    },
    { name: 'statistics by round', path: `${base}/participation-completion-by-round?${season}`, auth: true },
    { name: 'statistics case completion', path: `${base}/case-completion?${season}`, auth: true },
    { name: 'statistics by day', path: `${base}/completions-by-day?${season}`, auth: true },
    { name: 'statistics categories', path: `${base}/question-categories?${season}`, auth: true },
    { name: 'statistics participants p1', path: `${base}/participants?${season}&limit=25`, auth: true },
    { name: 'statistics participants p2000', path: `${base}/participants?${season}&limit=25&page=2000`, auth: true },
    {
      name: 'statistics participants find',
      path: `${base}/participants?${season}&limit=25&search=last0001234`,
      auth: true,
    },
    { name: 'statistics connected', path: `${base}/client-connected-accounts?limit=25`, auth: true },
  ];
}

interface Measured {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  const value = sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return Math.round(value * 10) / 10;
}

async function measure(name: string, url: string, headers: Record<string, string>): Promise<Measured> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration, headers }, (error, finished) =>
      error ? reject(error) : resolve(finished),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  latencies.sort((a, b) => a - b);
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

async function waitForHealth(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('server did not start');
}

async function main(): Promise<void> {
  // The soak is a run of its own: two processes, a steady mix, for minutes (bench/soak.ts).
  if (values.scenarios === 'soak') {
    await runSoak({
      serverUrl: values.pg ?? `postgres://${os.userInfo().username}@127.0.0.1:5432/test`,
      minutes: Number(values.minutes),
      participants: Number(values['soak-participants']),
    });
    return;
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-bench-'));
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (values.pg) {
    const name = `pss_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: values.pg });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(values.pg);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    // BENCH_KEEP_DATABASE=<name> keeps the seeded database under that name (replacing one
    // of the same name) instead of dropping it, to look at its plans after a run.
    const keep = process.env.BENCH_KEEP_DATABASE;
    if (keep && !/^[a-z_][a-z0-9_]*$/.test(keep)) throw new Error('BENCH_KEEP_DATABASE: a plain lower-case name');
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: values.pg });
      await c.connect();
      if (keep) {
        await c.query(`drop database if exists ${keep} with (force)`);
        await c.query(`alter database ${name} rename to ${keep}`);
      } else {
        await c.query(`drop database if exists ${name} with (force)`);
      }
      await c.end();
    };
  }

  console.log(
    `Seeding ${clientCount} clients and ${clientCount * projectsPerClient} projects on ${databaseUrl ? 'PostgreSQL' : 'PGlite'}…`,
  );
  const database = await openDatabase({ databaseUrl, pgliteDataDir: path.join(dataDir, 'pglite') });
  await database.migrate();
  const fixture = await seedBenchData(database.db, clientCount, projectsPerClient);
  const answerParticipants = Number(values['answer-participants']);
  const answerFixture = answerParticipants > 0 ? await seedAnswerBench(database.db, answerParticipants) : null;
  const reportAnswers = Number(values['report-answers']);
  let reportSeed: Awaited<ReturnType<typeof seedReportProject>> | null = null;
  if (reportAnswers > 0) {
    const seeding = performance.now();
    reportSeed = await seedReportProject(database.db, {
      participants: participantsFor(reportAnswers, 5, 10),
      cases: 5,
      questions: 10,
    });
    console.log(
      `Seeded the reports' project: ${reportSeed.participants} participants, ${reportSeed.attempts} attempts, ` +
        `${reportSeed.answers} answers in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );
  }
  const statisticsParticipants = Number(values['statistics-participants']);
  const wantsStatistics = statisticsParticipants > 0 && (!values.scenarios || /statistics/i.test(values.scenarios));
  if (wantsStatistics) {
    const seeding = performance.now();
    // Four cases of two questions each: 100,000 participants make 400,000 attempts and
    // about 600,000 answers, read by the question-category call.
    const seeded = await seedReportProject(database.db, {
      participants: statisticsParticipants,
      cases: 4,
      questions: 2,
    });
    console.log(
      `Seeded the statistics project: ${seeded.participants} participants, ${seeded.attempts} attempts, ` +
        `${seeded.answers} answers in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );
    scenarios.push(...statisticsScenarios(seeded.projectId, seeded.seasonName));
  }
  await database.close();
  let reportFigures: ReportFigures[] | null = null;
  let answerFigures: Awaited<ReturnType<typeof runAnswerBench>> | null = null;
  const only = values.scenarios ? new RegExp(values.scenarios, 'i') : null;
  const emailParticipants = Number(values['email-participants']);
  const emailsWanted = emailParticipants > 0 && (!only || only.test('emails'));
  let measuredAll = false;

  let server: ChildProcess | undefined;
  let floors: Floors | null = null;
  try {
    // BENCH_SERVER_NODE_FLAGS (for example `--trace-gc`) goes to the server's node only, and
    // BENCH_SERVER_STDOUT keeps what the server prints (otherwise dropped), to look inside a run.
    const serverFlags = process.env.BENCH_SERVER_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
    const serverOut = process.env.BENCH_SERVER_STDOUT ? openSync(process.env.BENCH_SERVER_STDOUT, 'w') : 'ignore';
    server = spawn('node', [...serverFlags, path.join(root, 'apps/api/dist/main.js')], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        LOG_LEVEL: 'warn',
        LOGIN_MAX_FAILURES: '1000',
        // The server's email schedule runs once as it starts, not again while calls are
        // measured (it would queue the imported participants' emails and, with no
        // SMTP_URL, mark them UNSENT meanwhile); the emails scenario measures it alone.
        SCHEDULER_INTERVAL_SECONDS: String(24 * 3600),
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      },
      stdio: ['ignore', serverOut, 'inherit'],
    });
    await waitForHealth();
    const login = await fetch(`${base}/api/auth/login/superadmin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(BENCH_SUPERADMIN),
    });
    if (!login.ok) throw new Error(`bench sign-in failed: ${await login.text()}`);
    const token = ((await login.json()) as { access_token: string }).access_token;

    if (reportSeed) {
      await waitForQuietOutbox(databaseUrl);
      console.log(`  reports over ${reportSeed.answers} answers:`);
      reportFigures = await runReportBench(base, token, reportSeed, server.pid!);
    }

    // The resource library: a 50 MB video streamed in, a 20-page PDF's thumbnail.
    if (!values.scenarios || /resources/i.test(values.scenarios)) {
      console.log('  resource library:');
      for (const line of describeResourceBench(await runResourceBench(base, token, server.pid!))) console.log(line);
    }

    const participantCount = Number(values.participants);
    const importFigures =
      participantCount > 0 ? await benchParticipantImport(token, participantCount, server.pid!) : null;
    if (importFigures) {
      console.log(
        `  import of ${participantCount} participants: ${importFigures.seconds.toFixed(1)} s, ` +
          `${Math.round(importFigures.rowsPerSecond)} rows/s, server peak memory ${importFigures.peakMemoryMb} MB`,
      );
      // The lists are measured once the import's follow-up (search rows, vacuum) is done.
      const settled = await waitForImportFollowUp(databaseUrl, importFigures.projectId);
      if (settled !== null) console.log(`  search rows up to date ${settled.toFixed(1)} s after the import completed`);
      if (databaseUrl) {
        // The floor: the same rows by plain COPY into the same tables, in this run, rolled back.
        const floor = await measureCopyFloor(databaseUrl, importFigures.projectId, participantCount);
        importFigures.copyFloor = floor;
        console.log(
          `  its floor, raw COPY of the same ${participantCount} rows into users, assignments and participations: ` +
            `${floor.triggersOn.toFixed(1)} s (${Math.round(participantCount / floor.triggersOn)} rows/s), ` +
            `${floor.triggersOff.toFixed(1)} s with foreign-key triggers off as the import runs ` +
            `(import ÷ floor ${(importFigures.seconds / floor.triggersOff).toFixed(1)})`,
        );
      }
      const f = `/api/projects/${importFigures.projectId}/users`;
      const deepPage = Math.floor(participantCount / 25 / 2);
      const listed = (name: string, target: string): Scenario => ({
        name,
        path: target,
        auth: true,
        floor: participantsFloor(importFigures.projectId, target),
      });
      scenarios.push(
        listed('participants page 1', `${f}?limit=25`),
        listed(`participants page ${deepPage}`, `${f}?limit=25&page=${deepPage}`),
        listed('participants by email', `${f}?limit=25&sort=email:DESC`),
        listed('participants search', `${f}?limit=25&search=last123`),
        {
          name: 'participants not ready',
          path: `${f}?limit=25&filter=${encodeURIComponent('{"data_status":"NOT_READY"}')}`,
          auth: true,
        },
        {
          name: 'participants archived',
          path: `${f}?limit=25&filter=${encodeURIComponent('{"archived":true}')}`,
          auth: true,
        },
      );
    }

    if (answerFixture) {
      process.stdout.write(`  answers: ${answerParticipants} participants saving at once …`);
      answerFigures = await runAnswerBench(base, answerFixture, Number(values['answer-passes']));
      process.stdout.write(` ${answerFigures.requestsPerSecond} req/s\n`);
    }

    const chosen = scenarios.filter((s) => !only || s.name === 'health' || only.test(s.name));
    floors = databaseUrl ? await startFloors(databaseUrl, chosen, fixture) : null;
    const floorResults = new Map<string, Measured>();
    if (floors) {
      process.stdout.write('  floor: bare Fastify health …');
      const bare = await measure('bare health', `${floors.base}/floor/health`, {});
      floorResults.set('health', bare);
      process.stdout.write(` ${bare.requestsPerSecond} req/s\n`);
    }
    const results: Measured[] = [];
    for (const scenario of chosen) {
      const target = typeof scenario.path === 'string' ? scenario.path : scenario.path(fixture);
      const headers: Record<string, string> = scenario.auth ? { authorization: `Bearer ${token}` } : {};
      process.stdout.write(`  ${scenario.name} …`);
      const measured = await measure(scenario.name, `${base}${target}`, headers);
      results.push(measured);
      process.stdout.write(` ${measured.requestsPerSecond} req/s`);
      const floorIndex = floors?.indexOf.get(scenario.name);
      if (floors && floorIndex !== undefined) {
        const floor = await measure(`floor of ${scenario.name}`, `${floors.base}/floor/${floorIndex}`, {});
        // A floor that answers errors measures nothing: its SQL was not replayed as captured.
        if (floor.errors + floor.non2xx > 0) throw new Error(`the floor of ${scenario.name} answered errors`);
        floorResults.set(scenario.name, floor);
        process.stdout.write(`, its floor ${floor.requestsPerSecond} req/s`);
      }
      process.stdout.write('\n');
    }

    const health = results[0]!;
    const ratioToFloor = (r: Measured) => {
      const floor = floorResults.get(r.name);
      return floor ? r.requestsPerSecond / floor.requestsPerSecond : null;
    };
    console.log(
      `\n${'call'.padEnd(30)}${'req/s'.padStart(8)}${'÷health'.padStart(9)}${'floor'.padStart(8)}${'÷floor'.padStart(8)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'p99 ms'.padStart(8)}  errors`,
    );
    for (const r of results) {
      const ratio = (r.requestsPerSecond / health.requestsPerSecond).toFixed(2);
      const floor = floorResults.get(r.name);
      console.log(
        `${r.name.padEnd(30)}${String(r.requestsPerSecond).padStart(8)}${ratio.padStart(9)}` +
          `${(floor ? String(floor.requestsPerSecond) : '').padStart(8)}${(ratioToFloor(r)?.toFixed(2) ?? '').padStart(8)}` +
          `${String(r.p50).padStart(8)}${String(r.p95).padStart(8)}${String(r.p99).padStart(8)}  ${r.errors + r.non2xx}`,
      );
    }
    const resultsDir = path.join(root, 'bench/results');
    mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        {
          at: new Date().toISOString(),
          database: databaseUrl ? 'postgres' : 'pglite',
          clients: clientCount,
          projects: fixture.projects,
          duration,
          connections,
          node: process.version,
          participantImport: importFigures,
          reports: reportSeed && { seed: reportSeed, figures: reportFigures },
          cpus: os.cpus().length,
          results: results.map((r) => ({
            ...r,
            ratioToHealth: r.requestsPerSecond / health.requestsPerSecond,
            floor: floorResults.get(r.name) ?? null,
            ratioToFloor: ratioToFloor(r),
          })),
        },
        null,
        2,
      ),
    );
    console.log(`\nWritten to ${path.relative(root, file)}`);
    measuredAll = true;
  } finally {
    await floors?.stop();
    server?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    if (answerFigures) {
      // Counted once the server has stopped (embedded PGlite has one owner at a time).
      const check = await openDatabase({ databaseUrl, pgliteDataDir: path.join(dataDir, 'pglite') });
      const stored = await checkStoredAnswers(check.db, answerFigures.lastSent);
      await check.close();
      const { lastSent: _, ...figures } = answerFigures;
      console.log(
        `\nAnswer saving: ${figures.participants} participants at once, ${figures.requests} answers in ` +
          `${figures.seconds.toFixed(1)} s = ${figures.requestsPerSecond} answers/s, p50 ${figures.p50} ms, ` +
          `p95 ${figures.p95} ms, p99 ${figures.p99} ms, ${figures.failures} failed; stored ${stored.stored} of ` +
          `${stored.expected} (one per participant and question), ${stored.mismatched} not the last answer sent`,
      );
      const resultsDir = path.join(root, 'bench/results');
      mkdirSync(resultsDir, { recursive: true });
      writeFileSync(
        path.join(resultsDir, `answers-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
        JSON.stringify({ database: databaseUrl ? 'postgres' : 'pglite', ...figures, ...stored }, null, 2),
      );
    }
    try {
      if (emailsWanted && measuredAll) await benchEmails(databaseUrl, dataDir, emailParticipants);
    } finally {
      await dropDatabase?.();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

/**
 * The emails scenario, with the server stopped: seeds a project of `count` participants,
 * one scheduler run (time, memory), a second (must queue nothing), then sending to a local
 * SMTP server (emails/s; all must arrive). Prints its line and writes bench/results/emails-*.json.
 */
async function benchEmails(
  databaseUrl: string | undefined,
  dataDir: string,
  count: number,
): Promise<EmailBenchFigures> {
  const pgliteDataDir = path.join(dataDir, 'pglite');
  const day = new Date().toISOString().slice(0, 10);
  process.stdout.write(`\n  emails: seeding a project of ${count} participants …`);
  const seeding = await openDatabase({ databaseUrl, pgliteDataDir });
  const seedStarted = performance.now();
  const fixture = await seedEmailBench(seeding.db, count, day);
  await seeding.close();
  process.stdout.write(` ${((performance.now() - seedStarted) / 1000).toFixed(1)} s\n`);
  const send = Number(values['email-send']);
  const f = await runEmailBench({
    fixture,
    databaseUrl,
    pgliteDataDir,
    dataDir,
    send,
    onProgress: (line) => console.log(`  emails: ${line}`),
  });
  const { first, second, sending } = f;
  const q = first.projectQueued;
  console.log(
    [
      `\nEmails: a project of ${f.participants} participants (${f.seasonsRead} seasons running on ${f.day} in the database)`,
      `  scheduler run: queued ${first.queued} in ${first.seconds.toFixed(1)} s (in the project ${q.total}: ` +
        `${q.initialProject} initial, ${q.initialSeason} season initial, ${q.reminder} reminders, as seeded), ` +
        `${first.cpuSeconds.toFixed(1)} s of CPU in the app's process; peak RSS ${first.peakRssMb} MB ` +
        `(${f.baseline.rssMb} MB before); heap in use at most ${first.peakHeapUsedMb} MB, left after collections at most ` +
        `${first.heapFloorFirstHalfMb ?? '–'} MB in the run's first half and ${first.heapFloorSecondHalfMb ?? '–'} MB in its ` +
        `second, ${first.heapAfterMb} MB after it and a full GC (${f.baseline.heapUsedMb} MB before)`,
      `  second run: queued ${second.queued} in ${second.seconds.toFixed(1)} s, peak RSS ${second.peakRssMb} MB`,
      `  sending: ${sending.result.sent} of ${sending.queuedBefore} queued` +
        `${sending.target < sending.queuedBefore ? ` (capped by --email-send ${send})` : ''} in ` +
        `${sending.seconds.toFixed(1)} s = ${sending.emailsPerSecond} emails/s to a local SMTP server, ` +
        `${f.received} received; claiming ${sending.claimSeconds.toFixed(1)} s (${sending.claimMs.claims} claims, median ` +
        `${sending.claimMs.median} ms, first tenth ${sending.claimMs.firstTenth} ms, last ${sending.claimMs.lastTenth} ms), ` +
        `reading ${sending.workSeconds.toFixed(1)} s, ` +
        `per email ${sending.mailerMsPerEmail} ms handing over and ${sending.markSentMsPerEmail} ms recording (four at a time); ` +
        `peak RSS ${sending.peakRssMb} MB`,
      `  (load average ${first.loadAverage}, ${second.loadAverage} and ${sending.loadAverage} at the ends of the three on ${os.cpus().length} cores)`,
    ].join('\n'),
  );
  const resultsDir = path.join(root, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    path.join(resultsDir, `emails-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, ...f }, null, 2),
  );
  return f;
}

/** The server's peak resident memory, from /proc (Linux). */
function peakMemoryMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * Waits until the project's participant search is up to date and no vacuum runs (on
 * PostgreSQL, asked of the database; the embedded one cannot be asked from outside while
 * the server holds it, so there a fixed pause). Answers the seconds waited on PostgreSQL.
 */
interface Floors {
  base: string;
  /** Each scenario's floor route number. */
  indexOf: Map<string, number>;
  stop(): Promise<void>;
}

/**
 * Captures the SQL of each chosen scenario that has a floor (on a database opened here,
 * beside the running server) and starts the floor server on the next port.
 */
async function startFloors(databaseUrl: string, chosen: Scenario[], fixture: BenchFixture): Promise<Floors | null> {
  const withFloor = chosen.filter((s) => s.floor);
  if (!withFloor.length) return null;
  const capture = await openDatabase({ databaseUrl });
  const routes: FloorRoute[] = [];
  try {
    for (const scenario of withFloor) {
      // Once to warm what the app keeps between requests, then captured.
      await scenario.floor!(capture.db, fixture);
      routes.push({ name: scenario.name, groups: await captureStatements(() => scenario.floor!(capture.db, fixture)) });
    }
  } finally {
    await capture.close();
  }
  // Kept beside the results: the SQL each floor replayed.
  const routesFile = path.join(
    root,
    'bench/results',
    `floor-routes-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  mkdirSync(path.dirname(routesFile), { recursive: true });
  writeFileSync(routesFile, JSON.stringify(routes));
  const floorPort = port + 1;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/floor-server.ts')], {
    env: { ...process.env, FLOOR_ROUTES: routesFile, DATABASE_URL: databaseUrl, PORT: String(floorPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const floorBase = `http://127.0.0.1:${floorPort}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${floorBase}/floor/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('the floor server did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base: floorBase,
    indexOf: new Map(routes.map((r, i) => [r.name, i])),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/**
 * Waits until the server's outbox has nothing queued or being sent. As it starts, the server
 * runs the email schedule once, which queues the seeded participants' invitations and (with
 * no SMTP_URL) marks them unsent one by one: measured meanwhile, a report would share the
 * CPU and the memory with that sender. On PGlite the harness cannot look, so it waits a while.
 */
async function waitForQuietOutbox(databaseUrl: string | undefined): Promise<void> {
  if (!databaseUrl) {
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + 300_000;
    for (let settled = 0; settled < 3 && Date.now() < deadline;) {
      const { rows } = await client.query<{ busy: number }>(
        `select count(*)::int as busy from email_outbox where status in ('QUEUED', 'SENDING')`,
      );
      settled = rows[0]!.busy === 0 ? settled + 1 : 0;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await client.end();
  }
}

async function waitForImportFollowUp(databaseUrl: string | undefined, projectId: string): Promise<number | null> {
  if (!databaseUrl) {
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    return null;
  }
  const started = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let searchReadyAt: number | null = null;
    for (;;) {
      const { rows } = await client.query<{ stale: boolean; vacuums: number }>(
        `select (select participant_search_stale from projects where id = $1) as stale,
           (select count(*)::int from pg_stat_activity where query ilike 'vacuum%' and pid <> pg_backend_pid()) as vacuums`,
        [projectId],
      );
      if (!rows[0]!.stale && searchReadyAt === null) searchReadyAt = (performance.now() - started) / 1000;
      if (!rows[0]!.stale && rows[0]!.vacuums === 0) return searchReadyAt;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}

/**
 * Imports `count` participants into a new project through the real upload call and times
 * it from upload to COMPLETE.
 */
async function benchParticipantImport(token: string, count: number, serverPid: number) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const clientsPage = (await (await fetch(`${base}/api/clients?limit=1`, { headers })).json()) as {
    items: { id: string }[];
  };
  const today = new Date();
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const projectResponse = await fetch(`${base}/api/projects`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      client_id: clientsPage.items[0]!.id,
      name: `Import bench ${Date.now()}`,
      disease_types: ['Bench Disease'],
      question_categories: ['Bench Category'],
      seasons: [
        {
          name: 'Bench Season',
          rounds: [1, 2, 3, 4].map((n) => ({
            number: n,
            start_date: day((n - 1) * 14),
            end_date: day((n - 1) * 14 + 13),
          })),
        },
      ],
    }),
  });
  const project = (await projectResponse.json()) as { id: string };
  const lines = ['user_id,salutation,first_name,last_name,email,role,profession,facility,season,rounds,start_date'];
  for (let i = 0; i < count; i++) {
    const assigned = i % 10 !== 0;
    lines.push(
      `B-${i},Dr.,First${i},Last${i},bench${i}@example.org,USER,${professions[i % 4]},"Clinic ${i % 50}, Floor ${i % 7}",` +
        (assigned ? `Bench Season,${(i % 4) + 1}-4,` : ',,'),
    );
  }
  const form = new FormData();
  form.append('file', new Blob([lines.join('\r\n')], { type: 'text/csv' }), 'bench.csv');
  const started = performance.now();
  const upload = await fetch(`${base}/api/projects/${project.id}/upload`, {
    method: 'POST',
    headers: { authorization: headers.authorization },
    body: form,
  });
  if (upload.status !== 202) throw new Error(`upload failed: ${await upload.text()}`);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const job = (await (await fetch(`${base}/api/projects/${project.id}/import`, { headers })).json()) as {
      state: string;
      errors: unknown[];
    };
    if (job.state === 'ERROR') throw new Error(`import failed: ${JSON.stringify(job.errors).slice(0, 500)}`);
    if (job.state === 'COMPLETE') break;
  }
  const seconds = (performance.now() - started) / 1000;
  // Archive a tenth so the archived list has rows.
  const ids = (await (
    await fetch(`${base}/api/projects/${project.id}/usersId?search=last1`, { headers })
  ).json()) as string[];
  await fetch(`${base}/api/users/${ids.slice(0, 500).join(',')}/${project.id}/archive`, {
    method: 'PUT',
    headers: { authorization: headers.authorization },
  });
  return {
    projectId: project.id,
    rows: count,
    seconds,
    rowsPerSecond: count / seconds,
    peakMemoryMb: peakMemoryMb(serverPid),
    copyFloor: null as CopyFloor | null,
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
