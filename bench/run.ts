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
 *   npm run bench -- --scenarios season [--season-participants 1000] [--pg postgres://...]
 *   npm run bench -- --scenarios first-screens [--first-screens-participants 10000] [--pg postgres://...]
 *
 * With --pg the harness makes a fresh database on that server and drops it afterwards;
 * otherwise it uses embedded PGlite in a temporary directory.
 *
 * The `emails` scenario (bench/emails.ts) runs once the server has stopped: it seeds a
 * project of --email-participants, runs the schedule twice and sends --email-send of what
 * it queued to a local SMTP server.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../apps/api/src/db/client.js';
import { startAppServer } from './app-server.js';
import { checkStoredAnswers, describeAnswerFigures, runAnswerBench, seedAnswerBench } from './answers.js';
import { createBenchDatabase } from './bench-database.js';
import { rebuildKeptCountsOfProject, setKeptTriggers } from './kept-triggers.js';
import { runDashboardBench, type DashboardFigures } from './dashboard.js';
import { benchEmails } from './emails-scenario.js';
import { startFloors, type Floors } from './floor-start.js';
import { measureCopyFloor } from './import-floor.js';
import { measure, type Measured } from './measure.js';
import { runFirstScreensBench } from './first-screens.js';
import { runImports, type ImportRun } from './import-runs.js';
import { participantsFor, seedReportProject } from './report-seed.js';
import { runReportBench, type ReportFigures } from './reports.js';
import { describeResourceBench, runResourceBench } from './resources.js';
import { printResultsTable, ratioToFloor, resultsPath } from './results-table.js';
import { base, clientCount, connections, duration, port, projectsPerClient, root, values } from './run-options.js';
import { participantListScenarios, scenarios, statisticsScenarios } from './scenarios.js';
import { seedBenchData, BENCH_SUPERADMIN } from './seed.js';
import { waitForQuietOutbox } from './server-waits.js';
import { runSeasonBench } from './season.js';
import { runSoak } from './soak.js';

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
  // The season rehearsal is a run of its own too: a whole season on its own app (bench/season.ts).
  if (values.scenarios === 'season') {
    await runSeasonBench({ participants: Number(values['season-participants']), pgUrl: values.pg });
    return;
  }
  // The first screens (issue #48) too: a project of their own, cold and warm, and Chromium.
  if (values.scenarios === 'first-screens') {
    await runFirstScreensBench({
      participants: Number(values['first-screens-participants']),
      pgUrl: values.pg,
      root,
      port,
      browser: values['first-screens-browser'] !== '0',
      idleSeconds: Number(values['first-screens-idle']),
    });
    return;
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-bench-'));
  const fresh = values.pg ? await createBenchDatabase(values.pg) : undefined;
  const databaseUrl = fresh?.databaseUrl;
  const dropDatabase = fresh?.drop;

  console.log(
    `Seeding ${clientCount} clients and ${clientCount * projectsPerClient} projects on ${databaseUrl ? 'PostgreSQL' : 'PGlite'}…`,
  );
  const database = await openDatabase({ databaseUrl, pgliteDataDir: path.join(dataDir, 'pglite') });
  await database.migrate();
  const fixture = await seedBenchData(database.db, clientCount, projectsPerClient);
  const answerParticipants = Number(values['answer-participants']);
  const answerFixture = answerParticipants > 0 ? await seedAnswerBench(database.db, answerParticipants) : null;
  // On PostgreSQL the same again, answered with the kept counts' triggers off: the "before".
  const answerFixtureBefore =
    answerParticipants > 0 && databaseUrl ? await seedAnswerBench(database.db, answerParticipants, 'b') : null;
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
  let statisticsSeed: { projectId: string; seasonName: string } | null = null;
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
    statisticsSeed = seeded;
  }
  await database.close();
  let reportFigures: ReportFigures[] | null = null;
  let answerFigures: Awaited<ReturnType<typeof runAnswerBench>> | null = null;
  let answerFiguresBefore: Awaited<ReturnType<typeof runAnswerBench>> | null = null;
  const only = values.scenarios ? new RegExp(values.scenarios, 'i') : null;
  const emailParticipants = Number(values['email-participants']);
  const emailsWanted = emailParticipants > 0 && (!only || only.test('emails'));
  let measuredAll = false;
  const load = { connections, duration };

  let server: ChildProcess | undefined;
  let floors: Floors | null = null;
  try {
    server = await startAppServer({ root, port, dataDir, databaseUrl });
    const login = await fetch(`${base}/api/auth/login/superadmin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(BENCH_SUPERADMIN),
    });
    if (!login.ok) throw new Error(`bench sign-in failed: ${await login.text()}`);
    const token = ((await login.json()) as { access_token: string }).access_token;

    // The dashboard before and after the kept counts, on PostgreSQL (the cold server and the
    // reference server share its database).
    let dashboard: DashboardFigures | null = null;
    if (statisticsSeed && databaseUrl) {
      await waitForQuietOutbox(databaseUrl);
      dashboard = await runDashboardBench({ root, port, token, dataDir, databaseUrl, ...statisticsSeed, load });
    }

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
    let importFigures: ImportRun | null = null;
    const imports =
      participantCount > 0
        ? await runImports({
            base,
            token,
            count: participantCount,
            serverPid: server.pid!,
            databaseUrl,
            runs: Number(values['import-runs']),
          })
        : null;
    importFigures = imports?.last ?? null;
    if (imports && importFigures) {
      const seconds = (s: number | null) => (s === null ? '–' : `${s.toFixed(2)} s`);
      console.log(
        `  import of ${participantCount}: median ${seconds(imports.medianWith)} with the kept counts` +
          (imports.medianWithout !== null ? `, ${seconds(imports.medianWithout)} without` : ''),
      );
      if (databaseUrl) {
        // The floor: the same rows by plain COPY into the same tables, in this run, rolled back.
        const floor = await measureCopyFloor(databaseUrl, importFigures.projectId, participantCount);
        importFigures.copyFloor = floor;
        console.log(
          `  its floor, raw COPY of the same ${participantCount} rows into users, assignments and participations: ` +
            `${floor.triggersOn.toFixed(1)} s (${Math.round(participantCount / floor.triggersOn)} rows/s), ` +
            `${floor.triggersOff.toFixed(1)} s with foreign-key triggers off as the import runs ` +
            `(import ÷ floor ${((imports.medianWith ?? importFigures.seconds) / floor.triggersOff).toFixed(1)})`,
        );
      }
      scenarios.push(...participantListScenarios(importFigures.projectId, participantCount));
    }

    if (answerFixtureBefore && databaseUrl) {
      process.stdout.write(`  answers without the kept counts: ${answerParticipants} participants saving at once …`);
      await setKeptTriggers(databaseUrl, false);
      try {
        answerFiguresBefore = await runAnswerBench(
          base,
          answerFixtureBefore,
          Number(values['answer-passes']),
          server.pid!,
          databaseUrl,
        );
      } finally {
        await setKeptTriggers(databaseUrl, true);
      }
      await rebuildKeptCountsOfProject(databaseUrl, answerFixtureBefore.projectId);
      process.stdout.write(` ${answerFiguresBefore.requestsPerSecond} req/s\n`);
    }
    if (answerFixture) {
      process.stdout.write(`  answers: ${answerParticipants} participants saving at once …`);
      answerFigures = await runAnswerBench(
        base,
        answerFixture,
        Number(values['answer-passes']),
        server.pid!,
        databaseUrl,
      );
      process.stdout.write(` ${answerFigures.requestsPerSecond} req/s\n`);
    }

    const chosen = scenarios.filter((s) => !only || s.name === 'health' || only.test(s.name));
    floors = databaseUrl ? await startFloors(databaseUrl, chosen, fixture, { root, port }) : null;
    const floorResults = new Map<string, Measured>();
    if (floors) {
      process.stdout.write('  floor: bare Fastify health …');
      const bare = await measure('bare health', `${floors.base}/floor/health`, {}, load);
      floorResults.set('health', bare);
      process.stdout.write(` ${bare.requestsPerSecond} req/s\n`);
    }
    const results: Measured[] = [];
    for (const scenario of chosen) {
      const target = typeof scenario.path === 'string' ? scenario.path : scenario.path(fixture);
      const headers: Record<string, string> = scenario.auth ? { authorization: `Bearer ${token}` } : {};
      process.stdout.write(`  ${scenario.name} …`);
      const measured = await measure(scenario.name, `${base}${target}`, headers, load);
      results.push(measured);
      process.stdout.write(` ${measured.requestsPerSecond} req/s`);
      const floorIndex = floors?.indexOf.get(scenario.name);
      if (floors && floorIndex !== undefined) {
        const floor = await measure(`floor of ${scenario.name}`, `${floors.base}/floor/${floorIndex}`, {}, load);
        // A floor that answers errors measures nothing: its SQL was not replayed as captured.
        if (floor.errors + floor.non2xx > 0) throw new Error(`the floor of ${scenario.name} answered errors`);
        floorResults.set(scenario.name, floor);
        process.stdout.write(`, its floor ${floor.requestsPerSecond} req/s`);
      }
      process.stdout.write('\n');
    }

    const health = results[0]!;
    printResultsTable(results, floorResults);
    const file = resultsPath(root);
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
          imports: imports?.runs ?? null,
          dashboard,
          reports: reportSeed && { seed: reportSeed, figures: reportFigures },
          cpus: os.cpus().length,
          results: results.map((r) => ({
            ...r,
            ratioToHealth: r.requestsPerSecond / health.requestsPerSecond,
            floor: floorResults.get(r.name) ?? null,
            ratioToFloor: ratioToFloor(r, floorResults),
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
    const answerRuns = [
      { label: 'without the kept counts', figures: answerFiguresBefore },
      { label: 'with the kept counts', figures: answerFigures },
    ].filter((run) => run.figures);
    if (answerRuns.length) {
      // Counted once the server has stopped (embedded PGlite has one owner at a time).
      const check = await openDatabase({ databaseUrl, pgliteDataDir: path.join(dataDir, 'pglite') });
      const written = [];
      for (const { label, figures: measuredFigures } of answerRuns) {
        const stored = await checkStoredAnswers(check.db, measuredFigures!.lastSent);
        const { lastSent: _, ...figures } = measuredFigures!;
        console.log(`\nAnswer saving ${label}: ${describeAnswerFigures(figures, stored)}`);
        written.push({ run: label, ...figures, ...stored });
      }
      await check.close();
      writeFileSync(
        resultsPath(root, 'answers-'),
        JSON.stringify({ database: databaseUrl ? 'postgres' : 'pglite', runs: written }, null, 2),
      );
    }
    try {
      if (emailsWanted && measuredAll)
        await benchEmails(databaseUrl, dataDir, emailParticipants, { send: Number(values['email-send']), root });
    } finally {
      await dropDatabase?.();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
