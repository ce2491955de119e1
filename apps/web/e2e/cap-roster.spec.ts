import { expect, test } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';

test('a superadmin imports the CAP roster: a bad file is rejected row by row, a good one imported', async ({
  page,
}) => {
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await page.getByRole('button', { name: 'CAP roster' }).click();
  const dialog = page.getByRole('dialog', { name: 'CAP roster' });
  const fileInput = dialog.locator('input[type=file]');

  await fileInput.setInputFiles({
    name: 'bad-roster.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('cap_id,name,status\nCAP-10001,Northwind Health,Active\nnot valid!,Broken,Active\n'),
  });
  await dialog.getByRole('button', { name: 'Import' }).click();
  const status = dialog.getByTestId('cap-import-status');
  await expect(status).toContainText('rejected');
  await expect(status).toContainText('Line 3: "not valid!" is not a valid CAP ID.');

  await fileInput.setInputFiles({
    name: 'roster.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'cap_id;name;status\r\nCAP-10001;Northwind Health;Lapsed\r\nCAP-99999;Not Yet A Client;Active\r\n',
    ),
  });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(status).toContainText('2 rows imported.');

  await dialog.getByRole('textbox', { name: 'Check a CAP ID' }).fill('cap-99999');
  await dialog.getByRole('button', { name: 'Check' }).click();
  await expect(dialog.getByTestId('cap-lookup-result')).toHaveText('CAP-99999: Not Yet A Client — Active');
  await dialog.getByRole('textbox', { name: 'Check a CAP ID' }).fill('CAP-00000');
  await dialog.getByRole('button', { name: 'Check' }).click();
  await expect(dialog.getByTestId('cap-lookup-error')).toHaveText('No CAP client exists with this CAP ID.');

  // The client with that CAP ID now shows the roster's status.
  await page.keyboard.press('Escape');
  await page.getByRole('searchbox', { name: 'Search' }).fill('Northwind');
  await expect(page.getByRole('row', { name: /Northwind Health/ })).toContainText('Lapsed');
});
