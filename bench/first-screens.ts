/**
 * `npm run bench -- --scenarios first-screens [--first-screens-participants 10000] [--pg URL]`:
 * the three screens issue #48 found slow on their first opening, on a project of 10,000
 * participants, through the built server as a browser asks it:
 *
 * - the season calendar (`GET /projects/{id}/email-calendar`);
 * - the Progress page's first load: the project (its layout's call) and every call its
 *   overview makes, sent at once as the screen sends them, timed until the last answers;
 * - a certificate's PDF (`GET /certificates/{id}/pdf`).
 *
 * Each is taken cold (the first call after the server started: its pool's connections,
 * prepared plans, caches and drawing process not made yet) and warm (p50/p95 of the calls
 * after). The certificate is also taken after the drawing process's idle time has passed.
 * The floor is the same run's /api/health (the app's own cost of a call) and bare Fastify's
 * (bench/floor-server.ts), taken the same way. Then, unless --first-screens-browser is 0,
 * the same screens in Chromium (bench/first-screens-browser.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { issueCertificatesOfCme } from '../apps/api/src/db/certificates.js';
import { openDatabase, rowsOf } from '../apps/api/src/db/client.js';
import { ensureEmailTemplates } from '../apps/api/src/db/email-templates.js';
import { cmes } from '../apps/api/src/db/schema/index.js';
import { startAppServer } from './app-server.js';
import { createBenchDatabase } from './bench-database.js';
import { runFirstScreensBrowser, type BrowserFigures } from './first-screens-browser.js';
import { percentile } from './measure.js';
import { seedReportProject } from './report-seed.js';
import { resultsPath } from './results-table.js';
import { BENCH_SUPERADMIN, seedBenchData } from './seed.js';

export interface Timed {
  name: string;
  /** The first call after the server started, ms. */
  cold: number;
  /** The calls after it. */
  warm: { count: number; p50: number; p95: number };
}

export interface FirstScreensFixture {
  clientId: string;
  projectId: string;
  seasonName: string;
  certificateId: string;
  certificates: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

async function seed(db: Parameters<typeof seedBenchData>[0], participants: number): Promise<FirstScreensFixture> {
  await seedBenchData(db, 1, 1);
  const project = await seedReportProject(db, { participants, cases: 4, questions: 2 });
  await ensureEmailTemplates(db, project.projectId);
  // A CME of the four cases: everyone who completed them holds a certificate.
  const [cme] = await db
    .insert(cmes)
    .values({ projectId: project.projectId, minCases: 4, credits: 2, moc: true, toteraCourseId: 'BENCH-1' })
    .returning();
  const issued = await issueCertificatesOfCme(db, cme!.id, new Date());
  const [client] = rowsOf<{ client_id: string }>(
    await db.execute(sql`select client_id from projects where id = ${project.projectId}::uuid`),
  );
  if (!issued.length) throw new Error('no certificate was issued');
  return {
    clientId: client!.client_id,
    projectId: project.projectId,
    seasonName: project.seasonName,
    certificateId: issued[0]!,
    certificates: issued.length,
  };
}

/** Sends `urls` at once and answers the time until the last has arrived whole. */
async function together(urls: string[], headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  await Promise.all(
    urls.map(async (url) => {
      const response = await fetch(url, { headers });
      if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    }),
  );
  return performance.now() - started;
}

async function timed(name: string, count: number, once: () => Promise<number>): Promise<Timed> {
  const cold = await once();
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(await once());
  times.sort((a, b) => a - b);
  const figures = { name, cold: round1(cold), warm: { count, p50: percentile(times, 50), p95: percentile(times, 95) } };
  console.log(
    `  ${name.padEnd(34)} cold ${String(figures.cold).padStart(7)} ms   warm p50 ${figures.warm.p50} ms, p95 ${figures.warm.p95} ms`,
  );
  return figures;
}

/** The calls the Progress page sends as it opens on its overview (features/statistics). */
export function progressPageCalls(f: FirstScreensFixture): string[] {
  const at = `/api/statistics/${f.projectId}`;
  const season = `seasonName=${encodeURIComponent(f.seasonName)}`;
  return [
    `/api/projects/${f.projectId}`,
    `${at}/overal-participation-rate?${season}`,
    `${at}/overal-completion-rate?${season}&type=CASES`,
    `${at}/overal-completion-rate?${season}&type=PARTICIPANTS`,
    `${at}/case-completion?${season}`,
    `${at}/question-categories?${season}`,
    `${at}/completions-by-day?${season}`,
    `${at}/participation-completion-by-round?${season}`,
    `/api/projects/${f.projectId}/email-delivery-stats`,
  ];
}

async function floorServer(root: string, port: number, dataDir: string) {
  const routesFile = path.join(dataDir, 'floor-routes.json');
  writeFileSync(routesFile, '[]');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/floor-server.ts')], {
    env: { ...process.env, FLOOR_ROUTES: routesFile, DATABASE_URL: 'postgres://unused', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/floor/health`)).ok) return { child, base };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGTERM');
  throw new Error('the floor server did not start');
}

export async function runFirstScreensBench(options: {
  participants: number;
  pgUrl?: string;
  root: string;
  port: number;
  browser: boolean;
  /** How long the drawing process is left idle before the certificate's "after idle" download. */
  idleSeconds: number;
}): Promise<void> {
  const { participants, root, port } = options;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-bench-first-'));
  const fresh = options.pgUrl ? await createBenchDatabase(options.pgUrl) : undefined;
  const databaseUrl = fresh?.databaseUrl;
  const machine = `${os.cpus().length} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, ${databaseUrl ? 'PostgreSQL' : 'PGlite'}, Node ${process.version}`;
  console.log(`First screens at ${participants} participants (${machine})`);
  let server: Awaited<ReturnType<typeof startAppServer>> | undefined;
  let floor: Awaited<ReturnType<typeof floorServer>> | undefined;
  try {
    const seeding = performance.now();
    const database = await openDatabase({ databaseUrl, pgliteDataDir: path.join(dataDir, 'pglite') });
    await database.migrate();
    const fixture = await seed(database.db, participants);
    await database.close();
    console.log(
      `  seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s, ${fixture.certificates} certificates`,
    );

    server = await startAppServer({ root, port, dataDir, databaseUrl });
    floor = await floorServer(root, port + 1, dataDir);
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/api/auth/login/superadmin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(BENCH_SUPERADMIN),
    });
    if (!login.ok) throw new Error(`bench sign-in failed: ${await login.text()}`);
    const token = ((await login.json()) as { access_token: string }).access_token;
    const auth = { authorization: `Bearer ${token}` };
    const one =
      (url: string, headers: Record<string, string> = auth) =>
      () =>
        together([url], headers);

    const figures: Timed[] = [];
    figures.push(await timed('floor: bare Fastify health', 30, one(`${floor.base}/floor/health`, {})));
    figures.push(await timed('floor: /api/health', 30, one(`${base}/api/health`, {})));
    const calendar = `${base}/api/projects/${fixture.projectId}/email-calendar?season=${encodeURIComponent(fixture.seasonName)}`;
    figures.push(await timed('season calendar', 20, one(calendar)));
    const progress = progressPageCalls(fixture).map((p) => `${base}${p}`);
    figures.push(await timed('Progress page, its calls at once', 20, () => together(progress, auth)));
    const pdf = `${base}/api/certificates/${fixture.certificateId}/pdf`;
    figures.push(await timed('certificate PDF', 20, one(pdf)));
    // The drawing process left idle past its idle time, then a download, as a person would.
    process.stdout.write(`  certificate PDF after ${options.idleSeconds} s idle …`);
    await new Promise((resolve) => setTimeout(resolve, options.idleSeconds * 1000));
    const afterIdle = round1(await one(pdf)());
    console.log(` ${afterIdle} ms`);

    // Each of the Progress page's calls alone, cold on a second look: which one the opening waits for.
    const perCall = [];
    for (const url of progress) perCall.push({ call: url.slice(base.length), ms: round1(await one(url)()) });

    let browser: BrowserFigures | null = null;
    if (options.browser)
      browser = await runFirstScreensBrowser({
        base,
        fixture,
        credentials: BENCH_SUPERADMIN,
        idleSeconds: options.idleSeconds,
      });

    const file = resultsPath(root, 'first-screens-');
    writeFileSync(
      file,
      JSON.stringify(
        { at: new Date().toISOString(), machine, participants, fixture, figures, afterIdle, perCall, browser },
        null,
        2,
      ),
    );
    console.log(`\nWritten to ${path.relative(root, file)}`);
  } finally {
    floor?.child.kill('SIGTERM');
    server?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await fresh?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
