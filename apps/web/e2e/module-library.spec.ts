import { expect, test, type Page } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';

const run = Date.now().toString(36).slice(-5);

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a superadmin creates a module with a case and copies it into a project, where it is listed', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Module Library' }).click();
  await page.getByRole('button', { name: 'New module library' }).click();
  const form = page.getByRole('dialog', { name: 'New module library' });
  const moduleName = `Cardiology essentials ${run}`;
  await form.getByLabel('Name').fill(moduleName);
  await form.getByLabel(/^Disease types/).fill('Heart Failure');
  await form.getByLabel(/^Disease types/).press('Enter');
  await form.getByLabel(/^Question categories/).fill('Diagnosis');
  await form.getByLabel(/^Question categories/).press('Enter');
  await form.getByLabel('Description').click();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: moduleName })).toBeVisible();
  await expect(page.getByText('No cases yet')).toBeVisible();

  // A module case, built with the same editor as project cases.
  await page.getByRole('link', { name: 'New case' }).click();
  await page.getByRole('textbox', { name: 'Case name', exact: true }).fill(`Chest pain on the stairs ${run}`);
  await page.getByRole('button', { name: 'Create and open' }).click();
  await expect(page).toHaveURL(/\/module-library\/[0-9a-f-]{36}\/cases\/case-details\/[0-9a-f-]{36}\?newCase=true/);
  await expect(page.getByRole('combobox', { name: 'Season' })).toHaveCount(0);
  await page.getByLabel('Patient name').fill('Helen Park');
  await page.getByLabel('Patient age').fill('71');
  await page.getByRole('textbox', { name: /^Reason for encounter/ }).click();
  await page.keyboard.type('Breathless climbing one flight of stairs.');
  await page.getByRole('button', { name: 'Add question' }).click();
  await page.getByRole('menuitem', { name: 'Multiple choice, one answer' }).click();
  await page.getByLabel('Question 1 text').fill('What is the most likely diagnosis?');
  await page.getByLabel('Question 1 choice 1', { exact: true }).fill('Heart failure');
  await choose(page, 'Question 1 choice 1 marked as', 'Necessary');
  await page.getByLabel('Question 1 choice 2', { exact: true }).fill('Anxiety');
  await choose(page, 'Question 1 choice 2 marked as', 'Unnecessary');
  await page.getByRole('radio', { name: /^General/ }).check();
  await page.getByRole('textbox', { name: /^Explanation/ }).click();
  await page.keyboard.type('Exertional breathlessness at 71 is heart failure until shown otherwise.');
  await page.getByRole('button', { name: 'Save' }).first().click();
  await expect(page.getByTestId('unsaved')).toHaveCount(0);
  await page.getByRole('link', { name: '← All cases' }).click();

  // Key takeaways of the module's case, uploaded on its elements page.
  await page
    .getByRole('navigation', { name: 'Module library sections' })
    .getByRole('link', { name: 'Elements' })
    .click();
  const takeaways = [
    'case_name;key_takeaway',
    `Chest pain on the stairs ${run};Exertional breathlessness is heart failure until shown otherwise.`,
    `Chest pain on the stairs ${run};Order a BNP before an echocardiogram.`,
  ].join('\r\n');
  const section = page.getByRole('region', { name: 'Key takeaways' });
  await section.locator('input[type=file]').setInputFiles({
    name: 'takeaways.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(takeaways),
  });
  await page.getByRole('button', { name: 'Upload key takeaways' }).click();
  await expect(page.getByTestId('elements-import-SUMMARY')).toContainText('2 rows imported.');
  await expect(page.getByText('Order a BNP before an echocardiogram.')).toBeVisible();
  await page.getByRole('navigation', { name: 'Module library sections' }).getByRole('link', { name: 'Cases' }).click();

  // Copying into a project lacking the disease type is refused with the reason.
  await page
    .getByRole('row', { name: /Chest pain on the stairs/ })
    .getByRole('checkbox')
    .check();
  await page.getByRole('button', { name: 'Copy 1…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy a case' });
  await dialog.getByRole('combobox', { name: 'Project' }).fill('Type 2 Diabetes');
  await page.getByRole('option', { name: 'Northwind Health › Type 2 Diabetes Pathways' }).click();
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The project does not have the disease types used by this case.');

  // Into a project with its disease type and category, it is copied.
  await dialog.getByRole('combobox', { name: 'Project' }).fill('Heart Failure');
  await page.getByRole('option', { name: 'Northwind Health › Heart Failure Management 2026' }).click();
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Case copied.')).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Module library sections' })
    .getByRole('link', { name: 'Projects using it' })
    .click();
  await expect(page.getByRole('row', { name: /Heart Failure Management 2026.*Northwind Health.*1/ })).toBeVisible();

  await page.goto('/project-management?search=Northwind');
  await page.getByRole('link', { name: 'Northwind Health' }).click();
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Cases' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill('Chest pain on the stairs');
  await expect(page.getByRole('link', { name: `Chest pain on the stairs ${run}` })).toBeVisible();
  await expect(page.getByRole('row', { name: /Chest pain on the stairs/ }).getByTestId('case-status')).toHaveText(
    'Draft',
  );

  // The copy brought its key takeaways to the project's dashboard content.
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Elements' }).click();
  await expect(page.getByRole('heading', { name: 'Participant Dashboard Content' })).toBeVisible();
  await expect(page.getByTestId('case-takeaways').filter({ hasText: `Chest pain on the stairs ${run}` })).toContainText(
    'Exertional breathlessness is heart failure until shown otherwise.',
  );
  await page.screenshot({ path: test.info().outputPath('project-elements.png'), fullPage: true });
});
