#!/usr/bin/env node
// `npm test`: every tier, one after another, and one closing line with the counts.
//   1. unit, contract, web and tools tests (Vitest) and API tests on embedded PGlite: every API
//      test when no PostgreSQL server answers, else the engine-sensitive ones
//      (apps/api/test/engine-sensitive.ts); then the API tests that time the server
//      (`*.alone.test.ts`) by themselves
//   2. every API test on PostgreSQL, when one answers (TEST_DATABASE_URL, or
//      127.0.0.1:5432 database `test`): the engine-sensitive ones thus run on both engines,
//      the rest once, on the engine where they take half the time
//   3. the production build, its bundle budget (one test per screen), then the browser flows
//      in Chromium (Playwright) and Lighthouse on three screens (one test per screen)
// Options: --only=unit|pg|e2e runs one tier; --skip-build reuses an existing build.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, '.test-reports');
const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const skipBuild = args.includes('--skip-build');
const inCi = process.env.CI === 'true' || process.env.CI === '1';

// The tests run on the Node the project brings (`node` in devDependencies, first on an npm
// script's PATH): a run on an older system Node would test a runtime production never uses.
const nodeMajor = Number(process.versions.node.split('.')[0]);
if (nodeMajor < 24) {
  console.error(`The tests need Node.js 24 or newer; this is ${process.version}. Run them with \`npm test\`.`);
  console.log('Tests: 0 passed, 1 failed');
  process.exit(1);
}
console.log(`Node.js ${process.version}`);

rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
let stepFailed = false;

/**
 * The Vitest tests that passed, each counted once however many engines ran it: the closing line
 * counts runs (an engine-sensitive API test passes twice), this says how many tests there are.
 */
const distinctPassed = new Set();

/** Each step's wall-clock seconds, printed at the end: where a run's time goes. */
const stepTimes = [];

function run(label, command, commandArgs, env = {}) {
  console.log(`\n=== ${label}`);
  const started = performance.now();
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  stepTimes.push({ label, seconds: Math.round((performance.now() - started) / 1000) });
  return result.status === 0;
}

function countVitest(file, label) {
  if (!existsSync(file)) {
    console.error(`${label}: no report was written`);
    totals.failed += 1;
    return;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  for (const result of report.testResults)
    for (const test of result.assertionResults)
      if (test.status === 'passed') distinctPassed.add(`${path.relative(root, result.name)} ${test.fullName}`);
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  // A file that fails to load has no failed test but fails the run.
  const brokenFiles = report.testResults.filter((r) => r.status === 'failed' && r.assertionResults.length === 0);
  totals.failed += brokenFiles.length;
}

/** Each screen of the bundle budget (apps/web/build/bundle-budget.ts) counts as a test. */
function countBudget(file) {
  if (!existsSync(file)) {
    console.error('bundle budget: no report was written');
    totals.failed += 1;
    return;
  }
  const results = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += results.filter((r) => r.ok).length;
  totals.failed += results.filter((r) => !r.ok).length;
}

function countPlaywright(file) {
  if (!existsSync(file)) {
    console.error('browser flows: no report was written');
    totals.failed += 1;
    return;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.stats.expected;
  totals.failed += report.stats.unexpected + report.stats.flaky;
  totals.skipped += report.stats.skipped;
  if (report.errors?.length) totals.failed += report.errors.length;
}

async function postgresUrl() {
  const url = process.env.TEST_DATABASE_URL ?? `postgres://${os.userInfo().username}@127.0.0.1:5432/test`;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return url;
  } catch (error) {
    console.log(
      `\n=== API tests on PostgreSQL: skipped, ${url.replace(/\/\/[^@]*@/, '//')} does not answer (${error.message})`,
    );
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function chromiumFound() {
  if (process.env.CHROMIUM_PATH) return existsSync(process.env.CHROMIUM_PATH);
  return spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser']).status === 0;
}

// Asked once: when every API test runs on PostgreSQL in this run, PGlite takes only the
// engine-sensitive ones (`--only=unit` alone runs them all on PGlite).
const postgres = !only || only === 'pg' ? await postgresUrl() : null;
const apiTestsOnBoth = !only && postgres !== null;

if (!only || only === 'unit') {
  const file = path.join(reports, 'vitest-pglite.json');
  const ok = run(
    apiTestsOnBoth
      ? 'Unit, contract, web and tools tests, and the engine-sensitive API tests (PGlite)'
      : 'Unit, contract, web, tools and API tests (PGlite)',
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    apiTestsOnBoth ? { PSS_API_TESTS: 'engine-sensitive' } : {},
  );
  countVitest(file, 'vitest');
  if (!ok && totals.failed === 0) stepFailed = true;

  // Tests that time the server (`*.alone.test.ts`: health answering while hostile files are
  // drawn) run by themselves, one file at a time, so that no other test file shares the CPU.
  const aloneFile = path.join(reports, 'vitest-alone.json');
  const aloneOk = run(
    'API tests that time the server, alone on the machine (PGlite)',
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'api',
      '--maxWorkers=1',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${aloneFile}`,
    ],
    { PSS_ALONE_TESTS: '1' },
  );
  countVitest(aloneFile, 'vitest (alone)');
  if (!aloneOk && totals.failed === 0) stepFailed = true;
}

if (!only || only === 'pg') {
  const url = postgres;
  if (url) {
    const file = path.join(reports, 'vitest-postgres.json');
    const ok = run(
      'API tests on PostgreSQL',
      'npx',
      [
        'vitest',
        'run',
        '--project',
        'api',
        '--project',
        'simulation',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${file}`,
      ],
      { TEST_DATABASE_URL: url },
    );
    countVitest(file, 'vitest (PostgreSQL)');
    if (!ok && totals.failed === 0) stepFailed = true;
  } else if (only === 'pg') {
    stepFailed = true;
  }
}

if (!only || only === 'e2e') {
  if (!chromiumFound()) {
    const message = 'Chromium was not found (apt-get install chromium, or set CHROMIUM_PATH)';
    if (inCi) {
      console.error(`\n=== Browser flows: ${message}`);
      stepFailed = true;
    } else {
      console.warn(`\n=== Browser flows: skipped. ${message}`);
    }
  } else {
    const built = skipBuild || run('Production build', 'npm', ['run', 'build']);
    if (!built) {
      stepFailed = true;
    } else {
      const budgetFile = path.join(reports, 'bundle-budget.json');
      run('Bundle budget (JavaScript before first paint, gzipped)', 'npx', [
        'tsx',
        'apps/web/build/check-bundle-budget.ts',
        `--json=${budgetFile}`,
      ]);
      countBudget(budgetFile);
      const file = path.join(reports, 'playwright.json');
      run('Browser flows (Chromium)', 'npx', ['playwright', 'test', '--config', 'apps/web/playwright.config.ts'], {
        PLAYWRIGHT_JSON_OUTPUT_NAME: file,
      });
      countPlaywright(file);
    }
  }
}

console.log('\n=== Time by step');
for (const step of stepTimes) console.log(`  ${step.label}: ${step.seconds} s`);

console.log(`\nVitest tests that passed, each counted once whatever engines ran it: ${distinctPassed.size}`);

if (stepFailed && totals.failed === 0) totals.failed = 1;
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(totals.failed > 0 ? 1 : 0);
