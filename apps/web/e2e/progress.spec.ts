import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';
import { expectNoViolations, watchCsp } from './page-checks';

async function openProgress(page: Page) {
  await signIn(page, 'Client administrator', demoSignIns().admin);
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Progress' }).click();
  await expect(page.getByRole('heading', { name: 'Progress', exact: true })).toBeVisible();
}

test('the dashboard shows the running season’s rates, charts and tables, changes with the season, narrows its participants and downloads a report', async ({
  page,
}) => {
  // Several axe scans and a download on a busy 2-core machine.
  test.setTimeout(120_000);
  const csp = watchCsp(page);
  await openProgress(page);

  // The season running today is shown first, and named in the address once chosen.
  const season = page.getByRole('combobox', { name: 'Season' });
  await expect(season).toHaveValue('Spring Season');
  const participation = page.getByTestId('tile-participation');
  await expect(participation).toContainText(/\d+ of \d+ participants started a case/);
  await expect(participation.getByTestId('rate')).not.toHaveText('0%');
  await expect(page.getByTestId('tile-case-completion')).toContainText(/\d+ of \d+ unlocked cases completed/);
  await expect(page.getByTestId('tile-participant-completion')).toContainText(/of \d+ participants completed/);

  // Both charts are drawn, each named and described.
  const byDay = page.getByRole('figure', { name: 'Cases completed in the last two weeks' });
  await expect(byDay).toHaveAccessibleDescription(/cases completed from .+; the busiest day was/);
  await expect(byDay.locator('.recharts-surface')).toBeVisible();
  await expect(byDay.locator('.recharts-bar-rectangle')).toHaveCount(14);
  const byRound = page.getByRole('figure', { name: 'Participation and completion by round' });
  await expect(byRound.locator('.recharts-surface')).toBeVisible();
  await expect(byRound.locator('.recharts-bar-rectangle')).not.toHaveCount(0);
  await expect(byRound.getByText('Round 1').first()).toBeVisible();

  const cases = page.getByRole('table', { name: 'Case completion' });
  await expect(cases.getByRole('row')).not.toHaveCount(1);
  const categories = page.getByRole('table', { name: 'Under-use and over-use per question category' });
  await expect(categories.getByRole('cell', { name: 'Diagnosis' })).toBeVisible();
  await expectNoViolations(page);

  // The past Winter Season: two participants, one finished, three of four cases completed.
  await season.click();
  await page.getByRole('option', { name: 'Winter Season' }).click();
  await expect(page).toHaveURL(/season=Winter\+Season|season=Winter%20Season/);
  await expect(participation).toContainText('2 of 2 participants started a case');
  await expect(participation.getByTestId('rate')).toHaveText('100%');
  await expect(page.getByTestId('tile-case-completion')).toContainText('3 of 4 unlocked cases completed');
  await expect(page.getByTestId('tile-participant-completion').getByTestId('rate')).toHaveText('50%');
  await expect(cases.getByRole('cell', { name: 'Dizzy after a new tablet' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Results summary of Winter Season' })).toBeVisible();

  // Back to the running season: its participants, searched and filtered in the address.
  await season.click();
  await page.getByRole('option', { name: 'Spring Season' }).click();
  await page.getByRole('tab', { name: 'Participants' }).click();
  const table = page.getByRole('table', { name: 'Participant completion' });
  await expect(table.getByRole('cell', { name: 'Becker, Tom' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Round 2' })).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole('searchbox', { name: 'Search' }).fill('becker');
  await expect(page).toHaveURL(/search=becker/);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('cell', { name: 'Becker, Tom' })).toBeVisible();

  // The participants' report follows the table's search.
  await page.getByRole('button', { name: 'Download report' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: "Participants' progress (CSV)" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8');
  expect(csv).toContain('Becker');
  expect(csv).not.toContain('Okafor');

  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await expect(page).not.toHaveURL(/search=/);
  await page.getByRole('combobox', { name: 'Progress' }).click();
  await page.getByRole('option', { name: 'Not started' }).click();
  await expect(page).toHaveURL(/progress=NOT_STARTED/);
  await expect(table.getByRole('cell', { name: 'Becker, Tom' })).toHaveCount(0);
  const rows = table.getByRole('row');
  await expect(rows.nth(1)).toContainText('Not started');
  for (const row of await rows.all()) {
    if ((await row.getByRole('cell').count()) > 0) await expect(row).toContainText('Not started');
  }

  // The project's survey responses, one report per survey type, from the same menu (spec §2, §3).
  await page.getByRole('button', { name: 'Download report' }).click();
  const [surveyDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Survey responses: start, new participants (CSV)' }).click(),
  ]);
  expect(surveyDownload.suggestedFilename()).toMatch(/\.csv$/);
  expect(readFileSync(await surveyDownload.path(), 'utf8')).toContain('Last name');

  // The client's connected accounts.
  await page.getByRole('tab', { name: 'Connected accounts' }).click();
  await expect(page.getByRole('table', { name: 'Connected accounts' })).toBeVisible();
  await expectNoViolations(page);

  expect(csp).toEqual([]);
});

test('the dashboard fits a phone', async ({ browser }) => {
  test.setTimeout(60_000);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await openProgress(page);
  await expect(
    page.getByRole('figure', { name: 'Cases completed in the last two weeks' }).locator('.recharts-surface'),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Case completion' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await page.screenshot({ path: test.info().outputPath('progress-phone.png'), fullPage: true });
  await context.close();
});
