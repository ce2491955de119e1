import { expect, test, type Browser, type Page } from '@playwright/test';
import { demoParticipantLinkPath, demoSignIns, signIn } from './fixtures';
import { expectNoSideScroll, expectNoViolations, watchCsp } from './page-checks';

const COMPLETER = 'james.chen@northwind.demo.local';
const UNFINISHED = 'priya.natarajan@northwind.demo.local';
const title = `What the Winter Season found ${Date.now().toString(36).slice(-4)}`;

// A one-page PDF, and the first atoms of an MP4: the server reads what a file is from its bytes.
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n' +
    'trailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);
const mp4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x14]),
  Buffer.from('ftypisom\0\0\0\0isom', 'latin1'),
  Buffer.from([0, 0, 0, 0x10]),
  Buffer.from('mdat', 'latin1'),
  Buffer.alloc(8),
]);

async function uploadFile(page: Page, button: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: button }).click();
  await (await chooser).setFiles(file);
}

async function participantDashboard(browser: Browser, email: string, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const csp = watchCsp(page);
  await page.goto(demoParticipantLinkPath(email));
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Heart Failure Management 2026' })).toBeVisible();
  return { page, csp, close: () => context.close() };
}

test.describe.configure({ mode: 'serial' });

test('a results summary is written, posted, seen by a participant who completed the season and not by one who did not, then taken down', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const csp = watchCsp(page);
  await signIn(page, 'Client administrator', demoSignIns().admin);
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Progress' }).click();
  // The dashboard opens on the running season; the summary is the past Winter Season's.
  await page.getByRole('combobox', { name: 'Season' }).click();
  await page.getByRole('option', { name: 'Winter Season' }).click();
  await page.getByRole('link', { name: 'Results summary of Winter Season' }).click();
  await expect(page.getByRole('heading', { name: 'Season Results Summary: Winter Season' })).toBeVisible();
  // The demo's summary is posted: taken down, it is written anew here.
  await expect(page.getByTestId('summary-status')).toHaveText('Posted');
  await page.getByRole('button', { name: 'Take down' }).click();
  await page
    .getByRole('dialog', { name: 'Take this summary down?' })
    .getByRole('button', { name: 'Take down' })
    .click();
  await expect(page.getByTestId('summary-status')).toHaveText('Draft');
  await expectNoViolations(page);

  // A summary needs a title: the browser says so beside the field.
  await page.getByRole('textbox', { name: 'Title' }).fill('');
  await page.getByRole('textbox', { name: 'Greeting' }).fill('Thank you for taking part this winter.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('This field is required.')).toBeVisible();

  // Leaving with unsaved changes asks first.
  await page.getByRole('link', { name: '← Progress' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('textbox', { name: 'Description' }).click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type('Most of you ordered a BNP first. ');
  await page.keyboard.press('Control+b');
  await page.keyboard.type('Well done.');
  // The title by keyboard; Enter saves the form.
  await page.getByRole('textbox', { name: 'Title' }).focus();
  await page.keyboard.type(title);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Summary saved.')).toBeVisible();
  await expect(page.getByTestId('unsaved')).toHaveCount(0);

  // The sheet is checked by its content: a text file named .pdf is refused.
  await uploadFile(page, 'Replace the sheet', {
    name: 'results.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('Completion 82%\n'),
  });
  await expect(page.getByText('The sheet must be a PDF or XLSX file.')).toBeVisible();
  // The demo's sheet stays until another replaces it.
  await expect(page.getByTestId('summary-sheet')).toContainText('winter-results.pdf');
  await uploadFile(page, 'Replace the sheet', { name: 'winter-results.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(page.getByTestId('summary-sheet')).toContainText('winter-results.pdf');
  await uploadFile(page, 'Upload a video', { name: 'thank-you.mp4', mimeType: 'video/mp4', buffer: mp4 });
  await expect(page.getByTestId('summary-video')).toContainText('thank-you.mp4');
  // One video: with one uploaded, the link field waits.
  await expect(page.getByRole('textbox', { name: 'Video link' })).toBeDisabled();
  await expectNoViolations(page);

  await page.getByRole('button', { name: 'Post' }).click();
  const post = page.getByRole('dialog', { name: 'Post this summary?' });
  await expect(post).toContainText('every participant who completed Winter Season');
  await post.getByRole('button', { name: 'Post' }).click();
  await expect(page.getByText('Summary posted.')).toBeVisible();
  await expect(page.getByTestId('summary-status')).toHaveText('Posted');
  await page.screenshot({ path: test.info().outputPath('season-summary-editor.png'), fullPage: true });

  // The participant who completed the Winter Season sees it, downloads the sheet and plays the video.
  const completer = await participantDashboard(browser, COMPLETER);
  const card = completer.page.getByTestId('season-summary');
  await expect(card).toContainText(title);
  await expect(card).toContainText('Winter Season results');
  await expect(card).toContainText('Thank you for taking part this winter.');
  await expect(card.locator('strong')).toHaveText('Well done.');
  await expectNoViolations(completer.page);
  const download = completer.page.waitForEvent('download');
  await card.getByRole('button', { name: 'Download the results sheet' }).click();
  expect((await download).suggestedFilename()).toBe('winter-results.pdf');
  await card.getByRole('button', { name: 'Play the video' }).click();
  await expect(card.getByLabel(`Video: ${title}`)).toHaveAttribute('src', /^blob:/);
  await completer.page.screenshot({ path: test.info().outputPath('season-summary-dashboard.png'), fullPage: true });
  expect(completer.csp).toEqual([]);
  await completer.close();

  // On a phone, the summary fits the screen.
  const phone = await participantDashboard(browser, COMPLETER, { width: 390, height: 844 });
  await expect(phone.page.getByTestId('season-summary')).toContainText(title);
  await expectNoSideScroll(phone.page);
  await phone.close();

  // The one who stopped half-way does not.
  const unfinished = await participantDashboard(browser, UNFINISHED);
  // Left in progress; once the season has ended it shows as closed.
  await expect(unfinished.page.getByTestId('dashboard-case').filter({ hasText: 'Arthur Pike' })).toContainText(
    /In progress|Closed/,
  );
  await expect(unfinished.page.getByTestId('season-summary')).toHaveCount(0);
  await unfinished.close();

  // Taken down, it is gone from the completer's dashboard.
  await page.getByRole('button', { name: 'Take down' }).click();
  const takeDown = page.getByRole('dialog', { name: 'Take this summary down?' });
  await takeDown.getByRole('button', { name: 'Take down' }).click();
  await expect(page.getByText('Summary taken down.')).toBeVisible();
  await expect(page.getByTestId('summary-status')).toHaveText('Draft');
  const after = await participantDashboard(browser, COMPLETER);
  await expect(after.page.getByTestId('dashboard-case').first()).toBeVisible();
  await expect(after.page.getByTestId('season-summary')).toHaveCount(0);
  await after.close();

  expect(csp).toEqual([]);
});

test('the editor fits a phone and keeps what was saved', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await signIn(page, 'Client administrator', demoSignIns().admin);
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Progress' }).click();
  // The dashboard opens on the running season; the summary is the past Winter Season's.
  await page.getByRole('combobox', { name: 'Season' }).click();
  await page.getByRole('option', { name: 'Winter Season' }).click();
  await page.getByRole('link', { name: 'Results summary of Winter Season' }).click();
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue(title);
  await expect(page.getByTestId('summary-sheet')).toContainText('winter-results.pdf');
  await expectNoSideScroll(page);
  await page.screenshot({ path: test.info().outputPath('season-summary-editor-phone.png'), fullPage: true });
  await context.close();
});
