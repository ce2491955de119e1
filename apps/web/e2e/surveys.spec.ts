import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { demoParticipantLinkPath, demoSignIns, signIn } from './fixtures';
import { expectNoSideScroll, expectNoViolations } from './page-checks';

/** Ms. Priya Natarajan took part in the past Winter Season: a returning participant. */
const RETURNING = 'priya.natarajan@northwind.demo.local';
const tag = Date.now().toString(36).slice(-4);
const templateName = `Returning check-in ${tag}`;

/** Adds a question of a type to a page card and fills its text and choices; the new component's card. */
async function addQuestion(
  page: Page,
  card: Locator,
  type: string,
  text: string,
  choices: string[],
  required = true,
): Promise<Locator> {
  await card.getByRole('button', { name: 'Add question' }).click();
  await page.getByRole('menuitem', { name: type, exact: true }).click();
  const component = card.getByTestId('survey-component').last();
  await component.getByRole('textbox', { name: 'Question text' }).fill(text);
  for (const [i, choice] of choices.entries()) {
    const input = component.getByRole('textbox', { name: `Choice ${i + 1}`, exact: true });
    if (!(await input.count())) await component.getByRole('button', { name: 'Add choice' }).click();
    await component.getByRole('textbox', { name: `Choice ${i + 1}`, exact: true }).fill(choice);
  }
  if (!required) await component.getByRole('switch', { name: 'Required' }).uncheck({ force: true });
  return component;
}

test.describe.configure({ mode: 'serial' });

test('a START_RETURNING template is built over two pages, reordered by keyboard, attached, answered on a phone and reported', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await page.getByRole('link', { name: 'Survey Templates' }).click();
  await expect(page.getByRole('heading', { name: 'Survey Templates' })).toBeVisible();

  // A name and a type open the builder.
  await page.getByRole('button', { name: 'New survey template' }).click();
  const dialog = page.getByRole('dialog', { name: 'New survey template' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(templateName);
  await dialog.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Start: returning participant' }).click();
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/survey-templates\/new\?name=.*&type=START_RETURNING/);
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(templateName);

  // Two pages with a question of each type (and an info review on the second).
  await page.getByRole('button', { name: 'Add page' }).click();
  const first = page.getByTestId('survey-page').nth(0);
  await first.getByRole('textbox', { name: 'Page name' }).fill('Welcome');
  await addQuestion(page, first, 'Multiple choice, one answer', 'How was your last season?', [
    'Good',
    'Could be better',
  ]);
  const many = await addQuestion(
    page,
    first,
    'Multiple choice, many answers',
    'Which topics interest you?',
    ['Cardiology', 'Diabetes'],
    false,
  );
  await many.getByRole('checkbox', { name: '“None of the below”' }).check();
  await addQuestion(page, first, 'Text response', 'What do you hope to learn?', [], false);
  await page.getByRole('button', { name: 'Add page' }).click();
  const second = page.getByTestId('survey-page').nth(1);
  await second.getByRole('textbox', { name: 'Page name' }).fill('Details');
  await addQuestion(page, second, 'Dropdown', 'Where do you practise?', ['Hospital', 'Clinic'], false);
  await addQuestion(page, second, 'Type-ahead', 'Your specialty', ['Cardiology'], false);
  await second.getByRole('button', { name: 'Add info review' }).click();

  // The live preview shows the first page as a participant sees it.
  const preview = page.getByTestId('survey-preview');
  await expect(preview.getByText('Page 1 of 2: Welcome')).toBeVisible();
  await expect(preview.getByRole('radio', { name: 'Could be better' })).toBeVisible();

  // Page names are unique: a second "Welcome" is refused, naming the problem.
  await second.getByRole('textbox', { name: 'Page name' }).fill('welcome');
  await expect(page.getByText('A page with this name already exists.').first()).toBeVisible();
  await second.getByRole('textbox', { name: 'Page name' }).fill('Details');

  // Reorder by keyboard: the "Details" page's handle, space, arrow up, space.
  // (dnd-kit listens for the arrows a moment after the pick-up, as a person would press them.)
  await page.getByRole('button', { name: 'Drag to reorder page Details' }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('status').filter({ hasText: 'Details is over position 2' })).toBeAttached();
  await page.waitForTimeout(300);
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('status').filter({ hasText: 'Details is over position 1' })).toBeAttached();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('survey-page').nth(0).getByRole('textbox', { name: 'Page name' })).toHaveValue(
    'Details',
  );
  await expect(preview.getByText('Page 1 of 2: Details')).toBeVisible();
  await expect(preview.getByRole('cell', { name: 'Alvarez' })).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Survey template created.')).toBeVisible();
  await expect(page).toHaveURL(/\/survey-templates\/[0-9a-f-]{36}$/);
  await page.screenshot({ path: test.info().outputPath('survey-builder.png'), fullPage: true });

  // Info Review is refused in a START_NEW template.
  await page.getByRole('link', { name: 'Survey Templates' }).first().click();
  await page.getByRole('button', { name: 'New survey template' }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill(`Newcomers ${tag}`);
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/type=START_NEW/);
  // An empty survey is not saved: the builder says why, beside where a page goes.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(
    page.getByText('A survey needs at least one page, and every page at least one question or info review.'),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add a page with at least one question.' })).toBeVisible();
  await page.getByRole('button', { name: 'Add page' }).click();
  await expect(page.getByRole('link', { name: /Add a question or an info review to this page/ })).toBeVisible();
  await page.getByRole('button', { name: 'Add info review' }).click();
  await expect(
    page.getByText('A Start New Participant survey cannot include Info Review components.').first(),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(/\/survey-templates\/new/);
  // Leaving with unsaved changes asks first.
  await page.getByRole('link', { name: 'Project Management' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Leave' }).click();

  // Attach the template to the running demo project.
  await page.getByRole('link', { name: 'Northwind Health' }).click();
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Surveys' }).click();
  await page.getByRole('combobox', { name: 'Start: returning participant' }).click();
  await page.getByRole('option', { name: templateName }).click();
  await page.getByRole('button', { name: 'Save surveys' }).click();
  await expect(page.getByText('Surveys saved.')).toBeVisible();
  await expectNoViolations(page);
  await page.screenshot({ path: test.info().outputPath('project-surveys.png'), fullPage: true });
  const projectSurveys = page.url();

  // Attached, the template is read-only in the builder, which says why and where it is used.
  await page.getByRole('link', { name: 'Survey Templates' }).first().click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
  await page.getByRole('link', { name: templateName, exact: true }).click();
  await expect(page.getByRole('heading', { name: templateName }).first()).toBeVisible();
  const locked = page.getByTestId('survey-locked');
  await expect(locked.getByText('Read only: a project uses this survey')).toBeVisible();
  await expect(locked.getByRole('link', { name: 'Northwind Health › Heart Failure Management 2026' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add page' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Drag to reorder/ })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute('readonly', '');
  await expectNoViolations(page);
  await page.screenshot({ path: test.info().outputPath('survey-builder-attached.png'), fullPage: true });
  // The way forward: a copy, free to edit.
  await locked.getByRole('button', { name: 'Duplicate to edit' }).click();
  await expect(page.getByRole('heading', { name: `${templateName} (copy)` }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeVisible();
  await expect(page.getByTestId('survey-locked')).toHaveCount(0);

  // The list by client and project, kept in the address.
  await page.getByRole('link', { name: 'Survey Templates' }).first().click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
  await expect(page.getByRole('link', { name: `${templateName} (copy)` })).toBeVisible();
  await page.getByRole('combobox', { name: 'Client' }).click();
  await page.getByRole('option', { name: 'Riverside Medical Group' }).click();
  await expect(page.getByText('No survey templates match.')).toBeVisible();
  await page.getByRole('combobox', { name: 'Client' }).click();
  await page.getByRole('option', { name: 'Northwind Health' }).click();
  await page.getByRole('combobox', { name: 'Project' }).click();
  await page.getByRole('option', { name: 'Heart Failure Management 2026' }).click();
  await expect(page).toHaveURL(/[?&]client=[0-9a-f-]{36}/);
  await expect(page).toHaveURL(/[?&]project=[0-9a-f-]{36}/);
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Project' })).toHaveValue('Heart Failure Management 2026');
  await expect(page.getByRole('link', { name: templateName, exact: true })).toBeVisible();
  // The copy is used by no project.
  await expect(page.getByRole('link', { name: `${templateName} (copy)` })).toHaveCount(0);
  await expectNoViolations(page);

  // A returning participant answers it on a phone before her case, and corrects her mobile number.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const phone = await context.newPage();
  await phone.goto(demoParticipantLinkPath(RETURNING));
  await expect(phone.getByRole('heading', { name: 'Welcome, Priya' })).toBeVisible();
  // Her running Spring Season case (her next one is a Winter case she left half-way).
  await phone.getByRole('link', { name: 'Swollen ankles after a long flight' }).click();
  await expect(phone.getByText('Before you begin: a short survey')).toBeVisible();
  await expect(phone.getByText('Page 1 of 2: Details')).toBeVisible();
  await expect(phone.getByRole('cell', { name: 'Natarajan' })).toBeVisible();
  await phone.getByRole('textbox', { name: 'Mobile number' }).fill('+1 555 0199');
  await phone.getByRole('button', { name: 'Save correction: Mobile number' }).click();
  await expect(phone.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await phone.getByRole('combobox', { name: /Where do you practise/ }).click();
  await phone.getByRole('option', { name: 'Clinic' }).click();
  await expectNoSideScroll(phone);
  await phone.getByRole('button', { name: 'Next page' }).click();
  await expect(phone.getByText('Page 2 of 2: Welcome')).toBeVisible();
  // A required question is asked for before the survey completes.
  await phone.getByRole('button', { name: 'Submit survey' }).click();
  await expect(phone.getByText('This question needs an answer.')).toBeVisible();
  await phone.getByRole('radio', { name: 'Good' }).check();
  await phone.getByRole('textbox', { name: /What do you hope to learn/ }).fill('Guideline updates');
  await expectNoViolations(phone);
  await phone.screenshot({ path: test.info().outputPath('survey-phone.png'), fullPage: true });
  await phone.getByRole('button', { name: 'Submit survey' }).click();
  await expect(phone.getByText('Thank you: your answers are saved.')).toBeVisible();
  await expect(phone.getByRole('button', { name: 'Start case' })).toBeVisible();
  await expectNoSideScroll(phone);
  await context.close();

  // The survey-response report has her answer.
  await page.goto(projectSurveys);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    (async () => {
      await page.getByRole('button', { name: 'Start: returning participant responses' }).click();
      await page.getByRole('menuitem', { name: 'CSV' }).click();
    })(),
  ]);
  expect(download.suggestedFilename()).toMatch(/survey-responses-start-returning-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8');
  expect(csv).toContain('How was your last season?');
  const row = csv.split('\r\n').find((line) => line.startsWith('Natarajan,Priya'));
  expect(row).toContain(templateName);
  expect(row).toContain('Good');
  expect(row).toContain('Guideline updates');
  expect(row).toContain('Clinic');

  // Answered, the template is frozen: the builder says to duplicate it.
  await page.goto('/survey-templates');
  await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
  await expect(page.getByRole('link', { name: templateName, exact: true })).toBeVisible();
  await expectNoViolations(page);
  await page.screenshot({ path: test.info().outputPath('survey-templates-list.png'), fullPage: true });
  await page.getByRole('link', { name: templateName, exact: true }).click();
  await expect(page.getByText('Participants have answered this survey, so it cannot change.')).toBeVisible();
});
