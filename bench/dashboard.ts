/**
 * The Progress Dashboard at size, before and after the kept counts (issue #36), in one run on
 * PostgreSQL:
 *
 * - **before**: the reference server (bench/reference-statistics-server.ts) answers the same
 *   seven calls by reading the season's work, as the app did before;
 * - **after, cold**: a second app server of the same database with the result cache off
 *   (STATISTICS_CACHE_SECONDS=0), so each opening reads the kept counts;
 * - **after, warm**: the bench's own server, whose 30-second cache answers a figure again.
 *
 * An opening is the dashboard's seven calls made at once, as the screen makes them, timed
 * until the last answers; each side is opened several times in turn and its p50/p95 kept.
 * Then each call at 10 connections beside /api/health (autocannon). And the kept figures
 * are checked equal to the reference's on the seeded season.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { openDatabase, rowsOf } from '../apps/api/src/db/client.js';
import { sql } from 'drizzle-orm';
import { dayIn } from '../apps/api/src/lib/clock.js';
import { createKeptFiguresRepository } from '../apps/api/src/modules/statistics/kept-figures.repository.js';
import { createSeasonFiguresRepository } from '../apps/api/test/season-figures-reference.js';
import { startAppServer } from './app-server.js';
import { measure, percentile, type Measured } from './measure.js';
import { dashboardCalls } from './scenarios.js';
import { waitForHealth } from './server-waits.js';

export interface Openings {
  side: string;
  openings: number;
  p50: number;
  p95: number;
  max: number;
}

export interface DashboardFigures {
  figuresEqual: boolean;
  openings: Openings[];
  load: { side: string; results: Measured[] }[];
}

/** Opens the dashboard `count` times in turn (its calls at once each time) and answers the times. */
async function open(side: string, count: number, urls: string[], headers: Record<string, string>): Promise<Openings> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const responses = await Promise.all(urls.map((url) => fetch(url, { headers })));
    for (const response of responses) {
      if (!response.ok) throw new Error(`${side}: ${response.url} answered ${response.status}`);
      await response.arrayBuffer();
    }
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { side, openings: count, p50: percentile(times, 50), p95: percentile(times, 95), max: percentile(times, 100) };
}

async function startReferenceServer(
  root: string,
  env: Record<string, string>,
  port: number,
): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/reference-statistics-server.ts')], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/before/health`)).ok) return { child, base };
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error('the reference statistics server did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Whether the kept figures and categories equal the reference computation's on this season. */
async function keptEqualsReference(databaseUrl: string, projectId: string, seasonId: string, timeZone: string) {
  const database = await openDatabase({ databaseUrl });
  try {
    const scope = { projectId, seasonId, today: dayIn(timeZone, new Date()), timeZone };
    const kept = createKeptFiguresRepository(database.db);
    const reference = createSeasonFiguresRepository(database.db);
    const byKey = (rows: { category_id: string | null; round_number: number }[]) =>
      [...rows].sort((a, b) =>
        `${a.category_id}:${a.round_number}`.localeCompare(`${b.category_id}:${b.round_number}`),
      );
    return (
      isDeepStrictEqual(await kept.seasonFigures(scope), await reference.seasonFigures(scope)) &&
      isDeepStrictEqual(byKey(await kept.categoryUse(scope)), byKey(await reference.categoryUse(scope)))
    );
  } finally {
    await database.close();
  }
}

export async function runDashboardBench(options: {
  root: string;
  /** The bench's server: its port, sign-in, and data directory (shared by the cold server). */
  port: number;
  token: string;
  dataDir: string;
  databaseUrl: string;
  projectId: string;
  seasonName: string;
  load: { connections: number; duration: number };
  /** Openings of each side (the reference's take seconds each: fewer). */
  openings?: { before: number; after: number };
}): Promise<DashboardFigures> {
  const { root, port, token, dataDir, databaseUrl, projectId, seasonName, load } = options;
  const openings = options.openings ?? { before: 5, after: 60 };
  const timeZone = process.env.SCHEDULE_TIME_ZONE ?? 'UTC';
  const lookup = await openDatabase({ databaseUrl });
  const [season] = rowsOf<{ id: string }>(
    await lookup.db.execute(sql`select id from seasons where project_id = ${projectId}::uuid and name = ${seasonName}`),
  );
  await lookup.close();
  if (!season) throw new Error(`no season ${seasonName}`);

  const calls = dashboardCalls(projectId, seasonName);
  const headers = { authorization: `Bearer ${token}` };
  const warmBase = `http://127.0.0.1:${port}`;
  const coldPort = port + 2;
  const coldBase = `http://127.0.0.1:${coldPort}`;
  const cold = await startAppServer({
    root,
    port: coldPort,
    dataDir,
    databaseUrl,
    env: { STATISTICS_CACHE_SECONDS: '0' },
  });
  const reference = await startReferenceServer(
    root,
    { DATABASE_URL: databaseUrl, PROJECT_ID: projectId, SEASON_ID: season.id, TIME_ZONE: timeZone },
    port + 3,
  ).catch((error: unknown) => {
    cold.kill('SIGTERM');
    throw error;
  });
  try {
    await waitForHealth(coldBase);
    const figuresEqual = await keptEqualsReference(databaseUrl, projectId, season.id, timeZone);
    console.log(`  dashboard: kept figures ${figuresEqual ? 'equal' : 'DIFFER FROM'} the reference computation's`);
    const beforeUrls = calls.map((c) => `${reference.base}${c.before}`);
    const afterPaths = calls.map((c) => String(c.path));
    // One opening of each first, not counted: connections, prepared statements, the warm cache.
    await open('before', 1, beforeUrls, {});
    await open(
      'after, cold',
      1,
      afterPaths.map((p) => `${coldBase}${p}`),
      headers,
    );
    await open(
      'after, warm',
      1,
      afterPaths.map((p) => `${warmBase}${p}`),
      headers,
    );
    const opened = [
      await open('before (reads the season’s work)', openings.before, beforeUrls, {}),
      await open(
        'after, cold (reads the kept counts)',
        openings.after,
        afterPaths.map((p) => `${coldBase}${p}`),
        headers,
      ),
      await open(
        'after, warm (the 30 s cache)',
        openings.after,
        afterPaths.map((p) => `${warmBase}${p}`),
        headers,
      ),
    ];
    for (const o of opened)
      console.log(`  dashboard opened, ${o.side}: p50 ${o.p50} ms, p95 ${o.p95} ms (${o.openings} openings)`);

    // Each call at `load.connections` connections, with /api/health in the same run.
    const measured = async (
      side: string,
      targets: { name: string; url: string; headers: Record<string, string> }[],
    ) => {
      const results: Measured[] = [];
      for (const t of targets) {
        const m = await measure(t.name, t.url, t.headers, load);
        console.log(
          `  ${side} ${t.name}: ${m.requestsPerSecond} req/s, p95 ${m.p95} ms${m.errors + m.non2xx ? `, ${m.errors + m.non2xx} failed` : ''}`,
        );
        results.push(m);
      }
      return { side, results };
    };
    const loads = [
      await measure('health', `${warmBase}/api/health`, {}, load).then((health) => ({
        side: 'health',
        results: [health],
      })),
      await measured(
        'before',
        calls.map((c) => ({ name: c.name, url: `${reference.base}${c.before}`, headers: {} })),
      ),
      await measured(
        'after, cold',
        calls.map((c) => ({ name: c.name, url: `${coldBase}${String(c.path)}`, headers })),
      ),
      await measured(
        'after, warm',
        calls.map((c) => ({ name: c.name, url: `${warmBase}${String(c.path)}`, headers })),
      ),
    ];
    const health = loads[0]!.results[0]!;
    console.log(`  health beside them: ${health.requestsPerSecond} req/s, p95 ${health.p95} ms`);
    return { figuresEqual, openings: opened, load: loads };
  } finally {
    reference.child.kill('SIGTERM');
    cold.kill('SIGTERM');
  }
}
