import { expect, test } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';
import { expectNoViolations } from './page-checks';

/**
 * The season calendar on a project's Emails screen: every day of the running season with the
 * emails the schedule sends; a day opens its dry run ("Who gets what"), whose counts are the
 * calendar's for that day.
 */
test('an administrator reads the season calendar, and its first days’ counts are their dry runs’', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, 'Client administrator', demoSignIns().admin);
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Emails' }).click();
  await page.getByRole('tab', { name: 'Season calendar' }).click();

  const calendar = page.getByRole('table', { name: /^The emails of .+, day by day$/ });
  await expect(calendar).toBeVisible();
  await expectNoViolations(page);
  await page.screenshot({ path: test.info().outputPath('season-calendar.png'), fullPage: true });

  // The season's first days with emails: what the calendar says of each…
  const days = calendar.locator('td[data-date]').filter({ has: page.getByRole('link') });
  const checked = Math.min(3, await days.count());
  expect(checked).toBeGreaterThan(0);
  for (let i = 0; i < checked; i++) {
    if (i > 0) await page.getByRole('tab', { name: 'Season calendar' }).click();
    const day = days.nth(i);
    const date = await day.getAttribute('data-date');
    const counts = await day.locator('[data-email-type]').allTextContents();
    expect(counts.length).toBeGreaterThan(0);

    // …is what that day's dry run counts.
    await day.getByRole('link').click();
    await expect(page.getByRole('tab', { name: 'Who gets what', selected: true })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Day' })).toHaveValue(date!);
    const dryRun = page.getByTestId('schedule-counts').getByRole('listitem');
    await expect(dryRun).toHaveCount(counts.length);
    expect((await dryRun.allTextContents()).sort(), `the dry run of ${date}`).toEqual([...counts].sort());
  }
});
