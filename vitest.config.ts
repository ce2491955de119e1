import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './tools/test-tiers/longest-first-sequencer.js';

// Three tiers, as in the design brief: contract units, API tests through app.inject on a
// real database (PGlite by default, PostgreSQL when TEST_DATABASE_URL is set), and web
// component tests. Browser flows run separately with Playwright (apps/web/e2e).
export default defineConfig({
  test: {
    maxWorkers: 2,
    // The longest files start first, measured in an earlier run: a fresh clone has no timings.
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      'packages/contract',
      'apps/api',
      'apps/api/vitest.simulation.config.ts',
      'apps/web',
      // The house's own tooling: the lint configuration's rules, checked to bite.
      { test: { name: 'tools', include: ['tools/**/*.test.ts'], testTimeout: 120_000 } },
    ],
  },
});
