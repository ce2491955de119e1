import { expect, test, type Locator, type Page } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';

const run = Date.now().toString(36).slice(-5);

/** Picks an option of a Mantine Select found by its label. */
async function choose(page: Page, scope: Page | Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function addQuestion(page: Page, type: string) {
  await page.getByRole('button', { name: 'Add question' }).click();
  await page.getByRole('menuitem', { name: type }).click();
}

async function fillChoice(page: Page, question: number, choice: number, text: string, mark?: string) {
  await page.getByLabel(`Question ${question} choice ${choice}`, { exact: true }).fill(text);
  if (mark) await choose(page, page, `Question ${question} choice ${choice} marked as`, mark);
}

test('a superadmin builds a case with every question type, publishes it after fixing its problems, and previews it', async ({
  page,
}, testInfo) => {
  // The longest flow: about 40 s alone, well past a minute on a loaded machine.
  test.setTimeout(180_000);
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await page.goto('/project-management?search=Northwind');
  await page.getByRole('link', { name: 'Northwind Health' }).click();
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Cases' }).click();
  await page.getByRole('link', { name: 'New case' }).click();

  const caseName = `Breathless at night ${run}`;
  await page.getByRole('textbox', { name: 'Case name', exact: true }).fill(caseName);
  await choose(page, page, 'Disease type', 'Heart Failure');
  await page.getByRole('button', { name: 'Create and open' }).click();
  await expect(page).toHaveURL(/case-details\/[0-9a-f-]{36}\?newCase=true/);
  await expect(page.getByText('Case created')).toBeVisible();

  // One question of each type, some left incomplete on purpose.
  await addQuestion(page, 'Multiple choice, one answer');
  await addQuestion(page, 'Multiple choice, many answers');
  await addQuestion(page, 'Text response');
  await addQuestion(page, 'Dropdown');
  await addQuestion(page, 'Type-ahead');
  await page.getByLabel('Question 1 text').fill('What is the most likely diagnosis?');
  await fillChoice(page, 1, 1, 'Heart failure', 'Necessary');
  await fillChoice(page, 1, 2, 'Pneumonia', 'Necessary');
  await page.getByRole('button', { name: 'Publish' }).first().click();

  // Refused, with the list of what is wrong, each beside its field.
  const problems = page.getByRole('alert').filter({ hasText: 'stop this case being published' });
  await expect(problems).toBeVisible();
  await expect(problems).toContainText('Patient name: Enter the patient’s name.');
  await expect(problems).toContainText(
    'Question 1: A single-answer question may have only one choice marked Necessary.',
  );
  await expect(problems).toContainText('Question 4, choice 1: Write this choice.');
  await expect(problems).toContainText('Feedback: Choose personalised or general feedback.');
  await expect(page.getByTestId('case-status')).toHaveText('Draft');

  // A save is checked in the browser as the server checks it: a draft needs its name.
  await page.getByRole('textbox', { name: 'Case name' }).fill('');
  await page.getByRole('button', { name: 'Save' }).first().click();
  await expect(page.getByRole('textbox', { name: 'Case name' })).toHaveAccessibleDescription('This field is required.');
  await expect(page.getByRole('textbox', { name: 'Case name' })).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath('case-setup-validation.png') });
  await page.getByRole('textbox', { name: 'Case name' }).fill(caseName);
  await expect(page.getByText('This field is required.')).toBeHidden();

  // Fix everything.
  await page.getByLabel('Patient name').fill('Robert Hale');
  await page.getByLabel('Patient age').fill('67');
  await page.getByRole('textbox', { name: /^Reason for encounter/ }).click();
  await page.keyboard.type('Shortness of breath when lying flat, worse for two weeks.');
  await page.getByRole('button', { name: 'Add details section' }).click();
  await page.getByLabel('Section 1 name').fill('History');
  await page.getByRole('textbox', { name: /^Section 1 text/ }).click();
  await page.keyboard.type('Hypertension for 15 years; stopped his medication in spring.');
  await page.getByRole('button', { name: 'Add grouper' }).click();
  await page.getByLabel('Grouper 1 name').fill('Work-up');
  await choose(page, page, 'Question 1 grouper', 'Work-up');
  await choose(page, page, 'Question 2 grouper', 'Work-up');

  for (const n of [1, 2, 3, 4, 5]) await choose(page, page, `Question ${n} category`, 'Diagnosis');
  await choose(page, page, 'Question 1 choice 2 marked as', 'Unnecessary');
  await page.getByLabel('Question 2 text').fill('Which tests do you order?');
  await fillChoice(page, 2, 1, 'BNP', 'Necessary');
  await fillChoice(page, 2, 2, 'Echocardiogram', 'Necessary');
  await page.getByRole('button', { name: 'Add choice to question 2' }).click();
  await fillChoice(page, 2, 3, 'Chest CT', 'Unnecessary');
  await page.getByLabel('Question 3 text').fill('Describe your follow-up plan.');
  await page.getByLabel('Question 4 text').fill('Which medication do you start first?');
  await fillChoice(page, 4, 1, 'ACE inhibitor', 'Necessary');
  await fillChoice(page, 4, 2, 'Antibiotic', 'Unnecessary');
  await page.getByLabel('Question 5 text').fill('Which specialist do you refer him to?');
  await fillChoice(page, 5, 1, 'Cardiologist');
  await page.getByRole('radio', { name: /^Personalised/ }).check();
  await expect(problems).toBeHidden();
  await expect(page.getByTestId('unsaved')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('case-setup-editor.png'), fullPage: true });

  // Scrolled down to the feedback, the editor's bar of actions stays in sight below the app's
  // header, not under it (app/app-shell.tsx): its Publish is what a click there reaches.
  const publish = page.getByRole('button', { name: 'Publish' }).first();
  const reached = await publish.evaluate((button) => {
    const box = button.getBoundingClientRect();
    return (
      window.scrollY > 0 && button.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2))
    );
  });
  expect(reached).toBe(true);
  await publish.click();
  // Not placed in a round: the dialog names the way back.
  const confirm = page.getByRole('dialog', { name: 'Publish this case?' });
  await expect(confirm).toContainText('you can return it to draft');
  await confirm.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Case published.')).toBeVisible();
  await expect(page.getByTestId('case-status')).toHaveText('Published');

  // Published: read-only.
  await expect(page.getByTestId('read-only')).toBeVisible();
  await expect(page.getByLabel('Patient name')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Return to draft' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: /^Reason for encounter/ })).toHaveAttribute(
    'contenteditable',
    'false',
  );

  // A preview, answered as a participant would.
  await page.getByRole('link', { name: 'Previews' }).click();
  await expect(page.getByText('No previews yet')).toBeVisible();
  await page.getByRole('link', { name: 'Take a preview' }).click();
  await expect(page.getByRole('heading', { name: 'Robert Hale' })).toBeVisible();
  await expect(page.getByText('Shortness of breath when lying flat')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Work-up' })).toBeVisible();
  await page.getByRole('button', { name: 'Submit answers' }).click();
  await expect(page.getByText('This question needs an answer.').first()).toBeVisible();

  await page.getByRole('radio', { name: 'Heart failure' }).check();
  await page.getByRole('checkbox', { name: 'BNP' }).check();
  await page.getByRole('checkbox', { name: 'Chest CT' }).check();
  await page.getByLabel('3. Describe your follow-up plan.').fill('Review in one week with weights and electrolytes.');
  await choose(page, page, '4. Which medication do you start first?', 'ACE inhibitor');
  await page.getByRole('combobox', { name: '5. Which specialist do you refer him to?' }).fill('Cardio');
  await page.getByRole('option', { name: 'Cardiologist' }).click();
  await page.getByRole('button', { name: 'Submit answers' }).click();

  // 4 necessary choices, 3 picked, 1 unnecessary: 100 × (3 − 1) ÷ 4 = 50.
  await expect(page).toHaveURL(/previews\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('preview-score')).toHaveText('50%');
  await expect(page.getByTestId('necessary-missed')).toContainText('Echocardiogram');
  await expect(page.getByTestId('unnecessary-chosen')).toContainText('Chest CT');
  await page.screenshot({ path: testInfo.outputPath('case-preview-result.png'), fullPage: true });

  await page.getByRole('link', { name: 'All previews of this case' }).click();
  await expect(page.getByRole('cell', { name: '50%' })).toBeVisible();
});
