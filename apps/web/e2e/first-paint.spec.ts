import { expect, test, type Page } from '@playwright/test';
import { demoParticipantLinkPath } from './fixtures';

/**
 * Slow 4G as Lighthouse's mobile preset has it: 150 ms round trip, 1.6 Mbps down, 750 kbps up.
 * Chromium's throughput is in bytes per second.
 */
const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1000 * 1000) / 8,
  uploadThroughput: (750 * 1000) / 8,
};

/**
 * Generous on purpose: a shared two-core machine runs this beside other work (measured here:
 * 6.6 s for a first sign-in screen, 3.4 s for the dashboard, under load 7-10; see
 * docs/benchmarks.md). It catches a screen that again waits for far more than it shows.
 */
const FIRST_PAINT_BOUND_MS = 10_000;

/** Loads `path` with a cold cache over slow 4G and answers its first-contentful-paint time. */
async function firstContentfulPaint(page: Page, path: string): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await page.goto(path);
  const fcp = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        // The entry may already be there, or may come with the next frame.
        new PerformanceObserver((list) => {
          const entry = list.getEntriesByName('first-contentful-paint')[0];
          if (entry) resolve(entry.startTime);
        }).observe({ type: 'paint', buffered: true });
      }),
  );
  await cdp.send('Network.emulateNetworkConditions', {
    ...SLOW_4G,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  return fcp;
}

test('the sign-in screen paints within the bound on slow 4G', async ({ page }) => {
  test.setTimeout(60_000);
  const fcp = await firstContentfulPaint(page, '/login-landing');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  console.log(`first-contentful-paint /login-landing (slow 4G, cold cache): ${Math.round(fcp)} ms`);
  expect(fcp).toBeGreaterThan(0);
  expect(fcp).toBeLessThan(FIRST_PAINT_BOUND_MS);
});

test("the participant's dashboard paints within the bound on slow 4G", async ({ page }) => {
  test.setTimeout(60_000);
  // Signed in first, at full speed: the link's sign-in is not what is measured.
  await page.goto(demoParticipantLinkPath());
  await expect(page.getByRole('heading', { name: 'Welcome, Maria' })).toBeVisible();
  const fcp = await firstContentfulPaint(page, '/participant');
  await expect(page.getByRole('heading', { name: 'Welcome, Maria' })).toBeVisible();
  console.log(`first-contentful-paint /participant (slow 4G, cold cache): ${Math.round(fcp)} ms`);
  expect(fcp).toBeGreaterThan(0);
  expect(fcp).toBeLessThan(FIRST_PAINT_BOUND_MS);
});
