import { expect, test, type Page } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';

// Names unique to this run, so the flow can run again on the same server.
const run = Date.now().toString(36).slice(-5);
const clientName = `Lakeview Clinic ${run}`;
const capId = `CAP-E2E-${run}`;
const projectName = `Sepsis Recognition ${run}`;

async function createClient(page: Page, name: string, cap: string) {
  await page.getByRole('button', { name: 'New client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New client' });
  await dialog.getByRole('textbox', { name: /^Client name/ }).fill(name);
  await dialog.getByRole('textbox', { name: /^CAP ID/ }).fill(cap);
  await dialog.getByRole('textbox', { name: /^CAP status/ }).fill('Active');
  await dialog.getByRole('button', { name: 'Save' }).click();
  return dialog;
}

test('a superadmin creates a client and a project with seasons, archives it and finds it again', async ({ page }) => {
  await signIn(page, 'Provider employee', demoSignIns().superadmin);

  // A client with a CAP ID; the same CAP ID again is refused with the catalogue message.
  await expect(await createClient(page, clientName, capId)).toBeHidden();
  await expect(page.getByText(`Client ${clientName} created.`)).toBeVisible();
  const duplicate = await createClient(page, `Copy of ${clientName}`, capId.toLowerCase());
  await expect(duplicate.getByText('A client with this CAP ID already exists.')).toBeVisible();
  await duplicate.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('searchbox', { name: 'Search' }).fill(run);
  await page.getByRole('link', { name: clientName }).click();
  await expect(page.getByRole('heading', { name: clientName })).toBeVisible();
  await expect(page.getByText('This client has no projects yet.')).toBeVisible();

  // A project with two disease types, one question category and a season of four rounds.
  await page.getByRole('button', { name: 'New project' }).click();
  const form = page.getByRole('dialog', { name: 'New project' });
  await form.getByRole('textbox', { name: /^Project name/ }).fill(projectName);
  const diseaseTypes = form.getByLabel(/^Disease types/);
  await diseaseTypes.fill('Sepsis');
  await diseaseTypes.press('Enter');
  await diseaseTypes.fill('Pneumonia');
  await diseaseTypes.press('Enter');
  const categories = form.getByLabel(/^Question categories/);
  await categories.fill('Early Recognition');
  await categories.press('Enter');
  await form.getByRole('button', { name: 'Add season' }).click();
  await form.getByRole('textbox', { name: /^Season name/ }).fill('Season One');
  await form.getByLabel('Season Season One Round 1 start date').fill('2027-01-04');
  await form.getByLabel('Season Season One Round 1 end date').fill('2027-01-17');
  for (let round = 2; round <= 4; round++) {
    // Each added round starts the day after the previous one ends.
    await form.getByRole('button', { name: 'Add round' }).click();
  }
  await expect(form.getByLabel('Season Season One Round 4 start date')).toHaveValue('2027-02-15');
  // Make round 3 overlap round 2: refused beside the field, nothing saved.
  await form.getByLabel('Season Season One Round 3 start date').fill('2027-01-20');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Round 3 must start after Round 2 ends (2027-01-31)')).toBeVisible();
  await form.getByLabel('Season Season One Round 3 start date').fill('2027-02-01');
  await form.getByRole('button', { name: 'Save' }).click();

  // The new project's page: its catalogues and four rounds.
  await expect(page.getByRole('heading', { name: projectName })).toBeVisible();
  await expect(page.getByText('Sepsis', { exact: true })).toBeVisible();
  await expect(page.getByText('Pneumonia', { exact: true })).toBeVisible();
  await expect(page.getByText('Early Recognition', { exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Round 4' })).toBeVisible();

  await page.getByRole('button', { name: 'Archive' }).click();
  await expect(page.getByTestId('project-status')).toHaveText('Archived');
  await expect(page.getByRole('button', { name: 'Restore' })).toBeVisible();

  // The Surveys section offers a template per moment (e2e/surveys.spec.ts chooses one); CMEs work.
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Surveys' }).click();
  await expect(page.getByRole('combobox', { name: 'Start: returning participant' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'CMEs' }).click();
  await page.getByRole('button', { name: 'New CME credit' }).click();
  const cme = page.getByRole('dialog', { name: 'New CME credit' });
  await cme.getByRole('textbox', { name: /^Minimum cases/ }).fill('6');
  await cme.getByRole('textbox', { name: /^Credits/ }).fill('3.5');
  await cme.getByRole('checkbox', { name: 'Counts for MOC' }).check();
  await cme.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('cell', { name: '3.5' })).toBeVisible();

  // Back on the client: search for the project, filter archived, reload, still there.
  await page.getByRole('link', { name: clientName }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill('sepsis');
  await expect(page).toHaveURL(/search=sepsis/);
  await page
    .locator('label')
    .filter({ hasText: /^Archived$/ })
    .click();
  await expect(page).toHaveURL(/status=ARCHIVED/);
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('sepsis');
  await expect(page.getByRole('link', { name: projectName })).toBeVisible();
  await expect(page.getByRole('table').getByText('Archived')).toBeVisible();
});

test('the clients list pages in the URL and keeps its place across a reload', async ({ page }) => {
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await page.goto('/project-management?page=2&search=a&sort=name:ASC');
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('a');
  await page.reload();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByRole('button', { name: 'Page 2 of 2' })).toHaveAttribute('data-active', 'true');
});

test('a client administrator sees only their own client and its projects', async ({ page }) => {
  await signIn(page, 'Client administrator', demoSignIns().admin);
  await expect(page.getByRole('heading', { name: 'Northwind Health' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Heart Failure Management 2026' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit client' })).toHaveCount(0);

  // Another client's page, reached by its address, is not theirs to see.
  await page.goto('/project-management');
  await expect(page).toHaveURL(/\/project-management\/clients\/[0-9a-f-]{36}$/);
  const ownUrl = page.url();
  await page.goto(ownUrl.replace(/[0-9a-f-]{36}$/, '6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5'));
  await expect(page.getByRole('alert')).toContainText('The requested item could not be found.');
  await expect(page.getByRole('heading', { name: 'Projects' })).toHaveCount(0);
});
