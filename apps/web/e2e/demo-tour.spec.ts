import { expect, test, type Page } from '@playwright/test';
import { demoParticipantLinkPath, demoSignIns, signIn } from './fixtures';

/**
 * A newcomer's first look at the demo (`npm start` on an empty DATA_DIR): every screen of
 * the navigation shows the demo's content, never an empty list — for the provider's staff,
 * for the client's administrator, and on the dashboards of the printed demo participants.
 */

const MID_SEASON = 'maria.alvarez@northwind.demo.local';
const COMPLETER = 'james.chen@northwind.demo.local';
const NEWCOMER = 'elena.popescu@northwind.demo.local';
const PROJECT = 'Heart Failure Management 2026';

/** A list's table (by its caption) holding a row with this text. */
async function expectRow(page: Page, table: string | RegExp, text: string | RegExp) {
  await expect(
    page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text }).first(),
  ).toBeVisible();
}

async function section(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name, exact: true }).click();
}

/** The running demo project's sections, each with its demo content. */
async function tourProject(page: Page) {
  await expect(page.getByRole('heading', { name: PROJECT })).toBeVisible();
  await section(page, 'Cases');
  await expectRow(page, 'Cases', 'Breathless at night');
  await expectRow(page, 'Cases', 'Swollen ankles after a long flight');

  await section(page, 'Participants');
  await expectRow(page, 'Participants', /Alvarez, Maria/);
  await expectRow(page, 'Participants', /Popescu, Elena/);

  await section(page, 'Surveys');
  for (const [field, name] of [
    ['Start: new participant', 'Welcome: new participants'],
    ['Start: returning participant', 'Welcome back: returning participants'],
    ['Case review', 'Case review'],
    ['End of season', 'End of season'],
  ]) {
    await expect(page.getByRole('combobox', { name: field })).toHaveValue(name!);
  }

  await section(page, 'Elements');
  await expect(
    page.getByRole('table').getByRole('row').filter({ hasText: 'Breathless at night' }).first(),
  ).toBeVisible();

  await section(page, 'Emails');
  await expectRow(page, 'Project emails', 'Reminder Email');
  await page.getByRole('tab', { name: 'Delivery log' }).click();
  const log = page.getByRole('table', { name: 'Delivery log' });
  await expect(log.getByRole('row').filter({ hasText: 'Initial Launch Email' }).first()).toBeVisible();
  await expect(log.getByText('Sent', { exact: true }).first()).toBeVisible();

  await section(page, 'CMEs');
  await expectRow(page, 'CME credits', 'HF-2026-W');

  await section(page, 'Progress');
  await expect(page.getByTestId('tile-participation')).toContainText(/\d+ of \d+ participants started a case/);
  await page.getByRole('combobox', { name: 'Season' }).click();
  await page.getByRole('option', { name: 'Winter Season' }).click();
  await page.getByRole('link', { name: 'Results summary of Winter Season' }).click();
  await expect(page.getByTestId('summary-status')).toHaveText('Posted');
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue('Winter Season: what we learnt together');
  await expect(page.getByTestId('summary-sheet')).toContainText('winter-results.pdf');
}

test('the demo superadmin finds content on every screen: clients, users, survey templates, resources with thumbnails, module library and the project’s sections', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await expectRow(page, 'Clients', 'Northwind Health');

  await page.getByRole('link', { name: 'User Management' }).click();
  await expectRow(page, 'User Management', 'admin@northwind.demo.local');

  await page.getByRole('link', { name: 'Survey Templates' }).click();
  for (const name of [
    'Welcome: new participants',
    'Welcome back: returning participants',
    'Case review',
    'End of season',
  ]) {
    await expectRow(page, 'Survey Templates', name);
  }
  await page.screenshot({ path: test.info().outputPath('demo-survey-templates.png'), fullPage: true });

  await page.getByRole('link', { name: 'Resource Library' }).click();
  for (const name of [
    'Heart failure: daily weight diary (patient leaflet)',
    'ECG: sinus rhythm, 75 beats a minute',
    'Echocardiogram: what the patient will see (video)',
    'Heart failure guideline (NICE NG106)',
    'Ankle swelling: the first questions to ask',
  ]) {
    await expectRow(page, 'Resource Library', name);
  }
  // The PDF's and the image's thumbnails, drawn by the app after its start.
  await expect(async () => {
    await page.reload();
    for (const name of [
      'Heart failure: daily weight diary (patient leaflet)',
      'ECG: sinus rhythm, 75 beats a minute',
    ]) {
      const thumbnail = page.getByRole('img', { name: `Thumbnail of ${name}` });
      await expect(thumbnail).toBeVisible({ timeout: 2000 });
      expect(await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    }
  }).toPass({ timeout: 30_000 });
  await page.screenshot({ path: test.info().outputPath('demo-resource-library.png'), fullPage: true });

  await page.getByRole('link', { name: 'Module Library' }).click();
  await expectRow(page, 'Module Library', 'Cardiology essentials');
  await page.getByRole('link', { name: 'Cardiology essentials' }).click();
  await expectRow(page, 'Cases', 'Out of breath on the stairs');

  await page.getByRole('link', { name: 'Project Management' }).click();
  await page.getByRole('link', { name: 'Northwind Health' }).click();
  await page.getByRole('link', { name: PROJECT }).click();
  await tourProject(page);
});

test('the demo client administrator lands on their client and finds the project’s sections filled', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, 'Client administrator', demoSignIns().admin);
  await page.getByRole('link', { name: PROJECT }).click();
  await tourProject(page);
});

test('the printed participants’ dashboards: mid-season with cases to do, the season completed with its results and credit, and new today', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const open = async (email: string) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(demoParticipantLinkPath(email));
    await expect(page.getByRole('heading', { name: PROJECT })).toBeVisible();
    return { page, close: () => context.close() };
  };

  // Mid-season: her start survey answered, her cases wait (the case opens straight away).
  const mid = await open(MID_SEASON);
  await expect(mid.page.getByRole('heading', { name: 'Welcome, Maria' })).toBeVisible();
  await expect(mid.page.getByTestId('pending-count')).toHaveText('2');
  await expect(mid.page.getByText('0 of 4 cases completed for 2 credits')).toBeVisible();
  await mid.page.getByTestId('next-case').getByRole('link', { name: 'Start case' }).click();
  await expect(mid.page.getByRole('button', { name: 'Start case' })).toBeVisible();
  await expect(mid.page.getByText('Before you begin: a short survey')).toHaveCount(0);
  await mid.close();

  // The Winter Season completed: its posted results summary, its takeaways and the credit earned.
  const done = await open(COMPLETER);
  const summary = done.page.getByTestId('season-summary');
  await expect(summary).toContainText('Winter Season: what we learnt together');
  await expect(summary.getByRole('button', { name: 'Download the results sheet' })).toBeVisible();
  await expect(done.page.getByText('2 of 2 cases completed for 1 credit', { exact: true })).toBeVisible();
  await expect(done.page.getByText('Start a loop diuretic for fluid overload', { exact: false })).toBeVisible();
  await done.page.screenshot({ path: test.info().outputPath('demo-participant-dashboard.png'), fullPage: true });
  await done.close();

  // New today: the running round's case, and the start survey before it.
  const fresh = await open(NEWCOMER);
  await expect(fresh.page.getByRole('heading', { name: 'Welcome, Elena' })).toBeVisible();
  await expect(fresh.page.getByTestId('pending-count')).toHaveText('1');
  await fresh.page.getByTestId('next-case').getByRole('link', { name: 'Start case' }).click();
  await expect(fresh.page.getByText('Before you begin: a short survey')).toBeVisible();
  await expect(fresh.page.getByText('How long have you been in practice?')).toBeVisible();
  await fresh.close();
});
