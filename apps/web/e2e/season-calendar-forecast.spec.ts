import { expect, test } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';
import { expectNoViolations } from './page-checks';

/**
 * The season calendar explains itself (issue #48): today is marked (seen, and announced as the
 * current date) on the app's day; the season is drawn to its last round's last day, not a day
 * more; a round without a published case says that no email goes for it; and each day ahead
 * gives its forecast beside its count, with one line naming what the forecast is based on and
 * the days ahead summed.
 */
test('the season calendar marks today, forecasts the days ahead, and says why a round sends nothing', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signIn(page, 'Client administrator', demoSignIns().admin);
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Emails' }).click();
  await page.getByRole('tab', { name: 'Season calendar' }).click();
  const calendar = page.getByRole('table', { name: /^The emails of .+, day by day$/ });
  await expect(calendar).toBeVisible();

  // Today: one day, marked with a visible "Today" and aria-current="date"; the notes name it too.
  const today = calendar.locator('td[aria-current="date"]');
  await expect(today).toHaveCount(1);
  await expect(today.getByText('Today', { exact: true })).toBeVisible();
  const todayDate = (await today.getAttribute('data-date'))!;
  const notes = page.getByTestId('calendar-notes');
  const todayText = (await today.locator('a, p').first().textContent())!.trim();
  await expect(notes).toContainText(`Today is ${todayText}.`);

  // The rounds: each with its published cases; a round without one says no email goes for it,
  // and none of its days has an email.
  const rounds = page.getByRole('list', { name: 'Rounds' }).getByRole('listitem');
  await expect(rounds).toHaveCount(4);
  const empty = rounds.filter({ hasText: 'No published case yet: no emails are sent for this round' });
  expect(await empty.count()).toBeGreaterThan(0);
  for (const round of await empty.all()) {
    const number = Number(await round.getAttribute('data-round'));
    const begins = calendar.locator(`td[data-date]:has([data-round-begins="${number}"])`);
    await expect(begins).toHaveCount(1);
    await expect(begins.locator('[data-email-type]')).toHaveCount(0);
  }

  // The last day drawn is the last round's last day.
  const lastRound = (await rounds.last().textContent())!;
  const lastDay = (await calendar.locator('td[data-date]').last().locator('a, p').first().textContent())!.trim();
  expect(lastRound).toContain(`– ${lastDay} ·`);

  // The forecast: what it is based on in one line; beside each count ahead (never above it),
  // none on today or before; the days ahead summed in the notes.
  await expect(page.getByTestId('forecast-basis')).toHaveText(
    /^(Forecast from \d+ past seasons? of this project|Forecast from this season’s \d+ ended rounds?|No forecast yet)/,
  );
  let count = 0;
  let forecast = 0;
  for (const day of await calendar.locator('td[data-date]').all()) {
    const date = (await day.getAttribute('data-date'))!;
    const counts = day.locator('[data-email-type]');
    const forecasts = day.locator('[data-forecast]');
    if (date <= todayDate) {
      await expect(forecasts).toHaveCount(0);
      continue;
    }
    await expect(forecasts).toHaveCount(await counts.count());
    for (let i = 0; i < (await counts.count()); i++) {
      const upTo = Number((await counts.nth(i).textContent())!.split(': ').at(-1));
      const expected = Number(await forecasts.nth(i).getAttribute('data-forecast'));
      await expect(forecasts.nth(i)).toHaveText(` (forecast ${expected})`);
      expect(expected).toBeLessThanOrEqual(upTo);
      count += upTo;
      forecast += expected;
    }
  }
  expect(count).toBeGreaterThan(0);
  await expect(page.getByTestId('calendar-ahead')).toHaveText(
    `After today: at most ${count} email${count === 1 ? '' : 's'}; forecast ${forecast}.`,
  );
  await expectNoViolations(page);
  await page.screenshot({ path: test.info().outputPath('season-calendar-forecast.png'), fullPage: true });
});
