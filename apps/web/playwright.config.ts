import { execSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * The system's Chromium; a browser is never downloaded. Debian's `chromium-headless-shell` (the
 * old headless mode, what Playwright itself runs headless) when it is installed, else Debian's
 * `chromium`: the shell drew the flows on about a fifth less CPU, and the flows are bound by
 * the CPU of a two-core machine (docs/testing.md). Lighthouse starts the full `chromium` itself
 * (lighthouse.spec.ts), as its figures were set on it.
 */
function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execSync('command -v chromium-headless-shell || command -v chromium || command -v chromium-browser', {
      shell: '/bin/sh',
    })
      .toString()
      .trim();
  } catch {
    throw new Error('Chromium was not found: install Debian\'s "chromium" package or set CHROMIUM_PATH.');
  }
}

/** The flows that change the demo in a way no later flow could undo (see `projects` below). */
const LAST_FLOWS = /case-publish\.spec\.ts$/;
/** Lighthouse measures speed: it runs last, alone on the machine (see `projects` below). */
const QUIET_FLOWS = /lighthouse\.spec\.ts$/;

/**
 * Two servers, each with its own fresh demo, and the flows split between them, one flow at a
 * time on each: the two cores each drive a browser and a server instead of one waiting on the
 * other. The split is by measured time (the 2026-12-07 baseline: about 357 s a side); a new
 * flow goes to the first server unless it is named here. A flow only ever sees its own server.
 */
const SECOND_SERVER_FLOWS = new RegExp(
  `(${[
    'accessibility',
    'archived-project',
    'audit-log',
    'cap-roster',
    'case-list',
    'case-setup',
    'certificates',
    'dead-ends',
    'first-load',
    'module-library',
    'oidc',
    'resources',
    'season-calendar-forecast',
    'season-summary',
    'second-factor',
    'user-management',
  ].join('|')})\\.spec\\.ts$`,
);

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
/** The second server listens a hundred ports up (E2E_PORT is 3210 unless set). */
export const E2E_PORTS = [E2E_PORT, E2E_PORT + 100] as const;

/** Where the server on `port` keeps its database, files and demo sign-ins. */
export function e2eDataDir(port: number): string {
  return path.join(os.tmpdir(), `pss-e2e-${port}`);
}

const baseUrlOf = (port: number) => `http://127.0.0.1:${port}`;

/** One server of the flows, on `port`. */
function e2eServer(port: number) {
  return {
    // The production build on an empty embedded database, so it fills itself with demo data.
    command: `node e2e/start-server.mjs`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    // First start seeds the demo before the server listens.
    timeout: 180_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: e2eDataDir(port),
      NODE_ENV: 'production',
      // Production requires the public address (emailed links); plain http here, so cookies are not Secure.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      // The flows sign the demo's staff in with a password alone; second-factor.spec.ts sets up
      // factors for staff of its own. Passkeys need a domain, not an address: that flow opens
      // the app at localhost, which the server takes as the passkeys' site.
      MFA_REQUIRED_ROLES: '',
      // Every flow signs in from this one address, many in a minute: the limits on anonymous
      // calls are the API tests' (modules/call-limits), not the flows'.
      ANONYMOUS_CALLS_PER_MINUTE: '100000',
      ANONYMOUS_CALLS_PER_MINUTE_TOTAL: '100000',
      WEBAUTHN_RP_ID: 'localhost',
      WEBAUTHN_ORIGINS: `http://localhost:${port}`,
    },
  };
}

export default defineConfig({
  testDir: './e2e',
  // The flows are the specs; a `*.test.ts` beside them is a unit test of their helpers (Vitest).
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  // One flow at a time on each server (each project's own `workers: 1`), both servers at once.
  workers: 2,
  // No second try: a flow that passes only on one is reported flaky, and `npm test` counts a
  // flaky flow as failed (scripts/test-all.mjs). e2e/page-checks.test.ts keeps this at 0.
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  globalSetup: './e2e/global-setup.ts',
  projects: [
    {
      name: 'flows',
      testIgnore: [LAST_FLOWS, QUIET_FLOWS, SECOND_SERVER_FLOWS],
      workers: 1,
      use: { baseURL: baseUrlOf(E2E_PORTS[0]) },
    },
    {
      name: 'flows-second-server',
      testMatch: SECOND_SERVER_FLOWS,
      workers: 1,
      use: { baseURL: baseUrlOf(E2E_PORTS[1]) },
    },
    // A flow that changes the demo for good (a case published into the running round adds a
    // case to every participant's dashboard, and an active case can be neither deleted nor
    // returned to draft) runs after every other flow on its server, which read the demo as it
    // was seeded; the other server's demo it never touches.
    // Alone: `npx playwright test --config apps/web/playwright.config.ts --no-deps <spec>`.
    {
      name: 'after-the-others',
      testMatch: LAST_FLOWS,
      dependencies: ['flows'],
      workers: 1,
      use: { baseURL: baseUrlOf(E2E_PORTS[0]) },
    },
    // Lighthouse scores depend on the CPU they get: nothing else runs beside it.
    {
      name: 'quiet',
      testMatch: QUIET_FLOWS,
      dependencies: ['after-the-others', 'flows-second-server'],
      workers: 1,
      use: { baseURL: baseUrlOf(E2E_PORTS[1]) },
    },
  ],
  use: {
    viewport: { width: 1280, height: 800 },
    // Nothing slides or fades and no toast closes by itself (docs/design/web-app.md#toasts), so
    // a page holds still while axe measures it and one scan decides (e2e/page-checks.ts).
    reducedMotion: 'reduce',
    // A trace records every action of every flow to keep the failing ones: a quarter of the
    // browser's CPU in the flows (docs/testing.md). CI keeps none of a run's files, so there it
    // records none; on a developer's machine a failing flow keeps its trace.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: E2E_PORTS.map(e2eServer),
});
