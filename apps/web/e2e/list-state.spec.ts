import { expect, test } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';

test('the clients list keeps page, search and sort in the URL across a reload', async ({ page }) => {
  const { superadmin } = demoSignIns();
  await signIn(page, 'Provider employee', superadmin);
  const rows = page.getByRole('table').getByRole('row');

  // 28 demo clients (and any other flow made): more than one page of 25.
  const firstPage = await rows.allInnerTexts();
  await page.getByRole('button', { name: /^Page 2 of / }).click();
  await expect(page).toHaveURL(/[?&]page=2/);
  // The previous page stays on screen until the next one arrives.
  await expect.poll(() => rows.allInnerTexts()).not.toEqual(firstPage);
  const secondPage = await rows.allInnerTexts();
  expect(secondPage.length).toBeGreaterThan(1);
  await page.reload();
  await expect.poll(() => rows.allInnerTexts()).toEqual(secondPage);

  // Sorting by name: ascending, then descending.
  await page.getByRole('button', { name: 'Sort by Client name' }).click();
  await expect(page).toHaveURL(/sort=name%3AASC/);
  await expect(page).not.toHaveURL(/page=/);
  await expect(rows.nth(1)).toContainText('Aspen Grove Medical');
  await page.getByRole('button', { name: 'Sort by Client name' }).click();
  await expect(rows.nth(1)).toContainText('Willow Bend Health');

  // Search is applied after typing stops and survives a reload.
  await page.getByRole('searchbox', { name: 'Search' }).fill('health');
  await expect(page).toHaveURL(/search=health/);
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('health');
  await expect(page).toHaveURL(/sort=name%3ADESC/);
  // After the reload the table first shows its loading rows (empty text): wait for the
  // searched rows, every one of them a match, rather than reading whatever is on screen.
  await expect
    .poll(async () => {
      const texts = (await rows.allInnerTexts()).filter((text) => !text.includes('Client name'));
      return texts.length > 0 && texts.every((text) => text.toLowerCase().includes('health'));
    })
    .toBe(true);
});

test('select-all with exceptions counts every matching client', async ({ page }) => {
  const { superadmin } = demoSignIns();
  await signIn(page, 'Provider employee', superadmin);
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  // Every matching client, not just this page's 25.
  const all = Number((await page.getByTestId('selection-count').innerText()).split(' ')[0]);
  expect(all).toBeGreaterThanOrEqual(28);
  await page.getByRole('checkbox', { name: 'Select row' }).first().uncheck();
  await expect(page.getByTestId('selection-count')).toHaveText(`${all - 1} selected`);
  await expect(page.getByRole('checkbox', { name: 'Select all rows' })).not.toBeChecked();
});
