import { expect, test } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';

/**
 * Issue #48: the Progress page's first opening sent its charts' calls only once the charts'
 * file had arrived and rendered, a second wave after the tiles' and tables'. Here that file is
 * held back by the browser until every call of the overview has gone out; held until then, it
 * shows that none of them waits for it. Told by what was asked for, not by how long it took.
 */
test('the Progress page sends every call of its overview without waiting for the charts’ file', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, 'Client administrator', demoSignIns().admin);
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) asked.push(url.pathname);
  });
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let chartsAsked = false;
  await page.route(/\/assets\/progress-charts-[^/]*\.js$/, async (route) => {
    chartsAsked = true;
    await released;
    await route.continue();
  });

  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Progress' }).click();
  await expect(page.getByRole('heading', { name: 'Progress', exact: true })).toBeVisible();

  const overview = [
    'overal-participation-rate',
    'overal-completion-rate',
    'case-completion',
    'question-categories',
    'completions-by-day',
    'participation-completion-by-round',
    'email-delivery-stats',
  ];
  // Every call has gone out while the charts' file is still held back.
  await expect
    .poll(() => overview.filter((name) => !asked.some((path) => path.endsWith(`/${name}`))), { timeout: 15_000 })
    .toEqual([]);
  expect(chartsAsked).toBe(true);
  // The tiles show meanwhile; the charts wait for their file, then draw from the answers already here.
  await expect(page.getByTestId('tile-participation')).toContainText(/\d+ of \d+ participants started a case/);
  const byDayCalls = () => asked.filter((path) => path.endsWith('/completions-by-day')).length;
  const before = byDayCalls();
  release();
  const byDay = page.getByRole('figure', { name: 'Cases completed in the last two weeks' });
  await expect(byDay.locator('.recharts-bar-rectangle')).toHaveCount(14);
  await expect(
    page.getByRole('figure', { name: 'Participation and completion by round' }).locator('.recharts-surface'),
  ).toBeVisible();
  // Not asked for a second time by the charts once they came.
  expect(byDayCalls()).toBe(before);
});
