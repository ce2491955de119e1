import { expect, test } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';

test('an administrator searches and filters cases, duplicates one, is asked before losing edits, and moves or deletes a selection', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signIn(page, 'Client administrator', demoSignIns().admin);
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Cases' }).click();

  await page.getByRole('searchbox', { name: 'Search' }).fill('okoye');
  await expect(page).toHaveURL(/search=okoye/);
  await expect(page.getByRole('link', { name: 'Swollen ankles after a long flight' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Breathless at night' })).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Active', exact: true }).click();
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'Swollen ankles after a long flight' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'All', exact: true }).click();

  // A duplicate opens as a new draft.
  await page.getByRole('link', { name: 'Blood pressure at the pharmacy' }).click();
  await page.getByRole('button', { name: 'Duplicate' }).click();
  await expect(page.getByText('Copied as "Blood pressure at the pharmacy (copy)".')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Blood pressure at the pharmacy (copy)' })).toBeVisible();

  // Unsaved edits are not lost by a stray click.
  await page.getByLabel('Patient name').fill('Daniel Brooks Jr');
  await page.getByRole('link', { name: '← All cases' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByLabel('Patient name')).toHaveValue('Daniel Brooks Jr');
  await page.getByRole('link', { name: '← All cases' }).click();
  await page
    .getByRole('dialog', { name: 'Leave without saving?' })
    .getByRole('button', { name: 'Leave without saving' })
    .click();
  await expect(page.getByRole('heading', { name: 'Cases' })).toBeVisible();

  // A case in the running season cannot move; the dialog says why.
  await page
    .getByRole('row', { name: /Breathless at night/ })
    .getByRole('checkbox')
    .check();
  await page
    .getByRole('row', { name: /pharmacy \(copy\)/ })
    .getByRole('checkbox')
    .check();
  await page.getByRole('button', { name: 'Move 2 to another project' }).click();
  const move = page.getByRole('dialog', { name: 'Move 2 cases' });
  await move.getByRole('combobox', { name: 'Move to project' }).click();
  await page.getByRole('option', { name: 'Type 2 Diabetes Pathways' }).click();
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(move.getByRole('alert')).toHaveText(
    'This case is assigned to a current or future season and cannot be moved.',
  );
  await move.getByRole('button', { name: 'Cancel' }).click();

  // The copy, in no season, can be deleted.
  await page
    .getByRole('row', { name: /Breathless at night/ })
    .getByRole('checkbox')
    .uncheck();
  await page.getByRole('button', { name: 'Delete 1' }).click();
  await page.getByRole('dialog', { name: 'Delete cases' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Case deleted.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Blood pressure at the pharmacy (copy)' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Blood pressure at the pharmacy', exact: true })).toBeVisible();
});
