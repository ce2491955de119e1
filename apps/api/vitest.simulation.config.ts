import { defineProject } from 'vitest/config';

/**
 * The season simulator's tests, a project of their own: two of them replace an email rule
 * with a broken one (`vi.mock`) to show the simulator catches it, which needs each test file
 * to import the app afresh. The other API tests share their imports within a worker
 * (apps/api/vitest.config.ts), where a mocked rule would reach the next file.
 *
 * `npm test` runs them once, on PostgreSQL when a server answers (scripts/test-all.mjs), so
 * the PGlite step that takes only the engine-sensitive API tests takes none of these.
 */
const engineSensitiveOnly = process.env.PSS_API_TESTS === 'engine-sensitive';

export default defineProject({
  test: {
    name: 'simulation',
    include: engineSensitiveOnly || process.env.PSS_ALONE_TESTS === '1' ? [] : ['simulation/**/*.test.ts'],
    passWithNoTests: true,
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
