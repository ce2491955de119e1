import { expect, test, type Page } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';

const run = Date.now().toString(36).slice(-5);

async function openParticipants(page: Page) {
  await signIn(page, 'Client administrator', demoSignIns().admin);
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Participants' }).click();
  await expect(page.getByRole('heading', { name: 'Participants' })).toBeVisible();
}

async function importCsv(page: Page, name: string, content: string) {
  await page.getByRole('button', { name: 'Import participants' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import participants' });
  await dialog.locator('input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
  await dialog.getByRole('button', { name: 'Import' }).click();
  return dialog;
}

test('an administrator imports participants and sees them listed; a bad file shows its row errors', async ({
  page,
}) => {
  await openParticipants(page);

  const rows = ['user_id;salutation;first_name;last_name;email;role;profession;season;rounds;start_date'];
  for (let i = 0; i < 60; i++)
    rows.push(`E2E-${run}-${i};Dr.;Imported${i};Zed${run};imp${i}.${run}@example.org;USER;MD;Spring Season;1-4;`);
  const dialog = await importCsv(page, 'participants.csv', '\uFEFF' + rows.join('\r\n'));
  const status = dialog.getByTestId('participant-import-status');
  await expect(status).toContainText('60 rows imported.');
  await page.keyboard.press('Escape');

  await page.getByRole('searchbox', { name: 'Search' }).fill(`zed${run}`);
  await expect(page).toHaveURL(/search=zed/);
  await expect(page.getByRole('cell', { name: `imp0.${run}@example.org` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Page 3 of 3' })).toBeVisible();

  const bad = await importCsv(
    page,
    'bad.csv',
    'user_id,salutation,first_name,last_name,email,role,profession\nX-1,Dr.,Ok,Person,ok@example.org,USER,MD\nX-2,Dr.,,Nameless,nameless@example.org,USER,MD\nX-3,Dr.,Bad,Role,bad@example.org,ADMIN,MD\n',
  );
  const errors = bad.getByTestId('import-errors');
  await expect(errors).toContainText('Line 3: first_name is required.');
  await expect(errors).toContainText('Line 4: role must be USER, HALFUSER or TESTUSER, not "ADMIN".');
  await page.keyboard.press('Escape');
  await page.getByRole('searchbox', { name: 'Search' }).fill('ok@example.org');
  await expect(page.getByText('No participants match.')).toBeVisible();
});

test('an administrator archives two participants via multi-select and finds them under the archived filter', async ({
  page,
}) => {
  await openParticipants(page);
  await page.getByRole('searchbox', { name: 'Search' }).fill('northwind.demo');
  await expect(page).toHaveURL(/search=northwind/);
  const checkboxes = page.getByRole('checkbox', { name: 'Select row' });
  await expect(checkboxes.first()).toBeVisible();
  const firstTwo = [
    await page.getByRole('row').nth(1).getByRole('cell').nth(2).innerText(),
    await page.getByRole('row').nth(2).getByRole('cell').nth(2).innerText(),
  ];
  await checkboxes.nth(0).check();
  await checkboxes.nth(1).check();
  await page.getByRole('button', { name: 'Archive 2 selected' }).click();
  await expect(page.getByText('2 participants archived.')).toBeVisible();
  for (const email of firstTwo) await expect(page.getByRole('cell', { name: email })).toHaveCount(0);

  await page
    .locator('label')
    .filter({ hasText: /^Archived$/ })
    .click();
  await expect(page).toHaveURL(/archived=true/);
  for (const email of firstTwo) await expect(page.getByRole('cell', { name: email })).toBeVisible();
  await page.reload();
  for (const email of firstTwo) await expect(page.getByRole('cell', { name: email })).toBeVisible();
});
