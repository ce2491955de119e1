import { configDefaults, defineProject } from 'vitest/config';
import { engineSensitiveTests } from './test/engine-sensitive.js';

/**
 * `*.alone.test.ts` files time the server (health answering while hostile files are drawn):
 * another test file on the other core would be measured with them. `npm test` runs them in
 * a step of their own (PSS_ALONE_TESTS=1, one worker); every other run leaves them out.
 */
const alone = process.env.PSS_ALONE_TESTS === '1';
/**
 * `PSS_API_TESTS=engine-sensitive`: only the tests that must run on both engines
 * (test/engine-sensitive.ts), which `npm test` runs on PGlite when every API test runs on
 * PostgreSQL.
 */
const engineSensitiveOnly = process.env.PSS_API_TESTS === 'engine-sensitive';

export default defineProject({
  test: {
    name: 'api',
    include: alone
      ? ['src/**/*.alone.test.ts', 'test/**/*.alone.test.ts']
      : engineSensitiveOnly
        ? engineSensitiveTests
        : ['src/**/*.test.ts', 'demo/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: alone ? configDefaults.exclude : [...configDefaults.exclude, '**/*.alone.test.ts'],
    environment: 'node',
    // A test file imports the app once per worker, not once per file: the import was 40 % of
    // the API tests' time (docs/testing.md). Each file still builds its own app and database
    // (test/kit.ts: testContext), and a shared test helper never builds one when imported
    // (tools/test-tiers/test-helpers.test.ts). Tests that replace a module (vi.mock) are in
    // a project that imports afresh (vitest.simulation.config.ts).
    isolate: false,
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
