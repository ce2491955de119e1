import { expect, test } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';

const run = Date.now().toString(36).slice(-5);

test('a superadmin finds a participant, edits their details and sees their assignments', async ({ page }) => {
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'User Management' }).click();
  await expect(page).toHaveURL(/\/user-management$/);
  await page.getByRole('searchbox', { name: 'Search' }).fill('alvarez');
  await page.getByRole('link', { name: 'Alvarez, Maria' }).click();

  await expect(page.getByRole('heading', { name: 'Maria Alvarez' })).toBeVisible();
  await expect(page.getByTestId('assignments')).toContainText('Spring Season');
  await expect(page.getByRole('cell', { name: 'Heart Failure Management 2026' }).first()).toBeVisible();

  await page.getByRole('textbox', { name: 'Mobile number' }).fill('+1 555 0100');
  await page.getByRole('textbox', { name: /^Email/ }).fill('not-an-email');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  await page.getByRole('textbox', { name: /^Email/ }).fill('maria.alvarez@northwind.demo.local');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('User saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Mobile number' })).toHaveValue('+1 555 0100');
});

test('a superadmin creates a client administrator who can then sign in', async ({ page, browser }) => {
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await page.goto('/user-management');
  await page.getByRole('button', { name: 'New staff account' }).click();
  const dialog = page.getByRole('dialog', { name: 'New staff account' });
  await dialog.getByLabel(/^Client/).click();
  await page.getByRole('option', { name: 'Riverside Medical Group' }).click();
  await dialog.getByRole('textbox', { name: /^Email/ }).fill(`nina.${run}@riverside.example`);
  await dialog.getByRole('textbox', { name: /^First name/ }).fill('Nina');
  await dialog.getByRole('textbox', { name: /^Last name/ }).fill('River');
  await dialog.getByRole('textbox', { name: /^Password/ }).fill('12345');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('The password must be at least 6 characters long.')).toBeVisible();
  await dialog.getByRole('textbox', { name: /^Password/ }).fill('river-pass-1');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Account nina.${run}@riverside.example created.`)).toBeVisible();

  const other = await (await browser.newContext()).newPage();
  await signIn(other, 'Client administrator', { email: `nina.${run}@riverside.example`, password: 'river-pass-1' });
  await expect(other.getByRole('heading', { name: 'Riverside Medical Group' })).toBeVisible();
});
