import { expect, test, type Page } from '@playwright/test';
import { demoParticipantLinkPath, demoSignIns, signIn } from './fixtures';

/**
 * A first load as the server now sends it (issue #19): index.html sends the first calls
 * itself and carries the screen's style sheets inline. Each call goes out once (the app takes
 * the script's answers rather than asking again), no inlined sheet is fetched, not even by a
 * later screen that needs it, the styles apply, and the page's policy lets its script run.
 */
function watch(page: Page) {
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    requests.push(`${url.pathname}${url.search}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { requests, problems };
}

const count = (requests: string[], path: string) => requests.filter((r) => r === path).length;

test("the clients list's first load: its calls once each, its style sheets inline", async ({ page }) => {
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  const { requests, problems } = watch(page);
  await page.goto('/project-management');
  await expect(page.getByRole('heading', { name: 'Project Management' })).toBeVisible();
  await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();

  expect(count(requests, '/api/settings')).toBe(1);
  expect(count(requests, '/api/auth/admin/refresh')).toBe(1);
  expect(count(requests, '/api/clients?page=1&limit=25')).toBe(1);
  expect(requests.filter((r) => r.endsWith('.css'))).toEqual([]);
  const inline = await page.evaluate(() => ({
    styles: document.querySelectorAll('head style').length,
    disabledLinks: [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][disabled]')].map(
      (link) => new URL(link.href).pathname,
    ),
  }));
  expect(inline.styles).toBeGreaterThan(3);
  expect(inline.disabledLinks.length).toBe(inline.styles);
  // Mantine's table rules are there: its header cells are bold, its table collapses its borders.
  const table = page.getByRole('table');
  await expect(table).toHaveCSS('border-collapse', 'collapse');
  await expect(table.getByRole('columnheader').first()).toHaveCSS('font-weight', '700');

  // A later screen fetches the sheets it needs that this page did not carry, and none that it did.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'User Management' }).click();
  await expect(page).toHaveURL(/\/user-management$/);
  await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
  const fetchedSheets = requests.filter((r) => r.endsWith('.css'));
  expect(fetchedSheets.length).toBeGreaterThan(0);
  for (const sheet of fetchedSheets) expect(inline.disabledLinks, sheet).not.toContain(sheet);
  expect(problems).toEqual([]);
});

test("a participant's dashboard, opened anew: its calls once each", async ({ page }) => {
  await page.goto(demoParticipantLinkPath());
  await expect(page).toHaveURL(/\/participant(\?|$)/);
  const { requests, problems } = watch(page);
  await page.goto('/participant');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your cases' })).toBeVisible();
  expect(count(requests, '/api/settings')).toBe(1);
  expect(count(requests, '/api/auth/user/refresh')).toBe(1);
  expect(count(requests, '/api/dashboard')).toBe(1);
  expect(requests.filter((r) => r.endsWith('.css'))).toEqual([]);
  expect(problems).toEqual([]);
});
