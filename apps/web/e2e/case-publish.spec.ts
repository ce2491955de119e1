import { expect, test } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';
import { expectNoViolations } from './page-checks';

test('publishing a case in a running round asks first, says it becomes active at once, and shows the change at the top', async ({
  page,
}) => {
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await page.getByRole('link', { name: 'Northwind Health' }).click();
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Cases' }).click();
  // A copy of the active case (a draft), to be placed in the same running round.
  await page.getByRole('link', { name: 'Swollen ankles after a long flight', exact: true }).click();
  await expect(page).toHaveURL(/case-details\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('case-status')).toHaveText('Active');
  const season = await page.getByRole('combobox', { name: 'Season', exact: true }).inputValue();
  const round = await page.getByRole('combobox', { name: 'Round', exact: true }).inputValue();
  await page.getByRole('button', { name: 'Duplicate' }).click();
  await expect(page.getByText('Copied as')).toBeVisible();
  await expect(page.getByTestId('case-status')).toHaveText('Draft');
  // The copy, placed in the running round of the case it was copied from.
  await page.getByRole('combobox', { name: 'Season', exact: true }).click();
  await page.getByRole('option', { name: season, exact: true }).click();
  await page.getByRole('combobox', { name: 'Round', exact: true }).click();
  await page.getByRole('option', { name: round, exact: true }).click();

  // Published from the foot of the page, as an author does after the last field.
  const publish = page.getByRole('button', { name: 'Publish', exact: true }).last();
  await publish.scrollIntoViewIfNeeded();
  await publish.click();
  const dialog = page.getByRole('dialog', { name: 'Publish and make active now?' });
  await expect(dialog).toContainText(/Round \d of .+ is running, so this case becomes active at once/);
  await expect(dialog).toContainText('participants of the round can start it now');
  await expect(dialog).toContainText('can no longer be edited or returned to draft');
  await expectNoViolations(page);
  await page.screenshot({ path: test.info().outputPath('publish-confirm.png') });

  // Cancel changes nothing.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('case-status')).toHaveText('Draft');

  await publish.click();
  await dialog.getByRole('button', { name: 'Publish and make active' }).click();
  await expect(page.getByText('Case published: it is active now.')).toBeVisible();
  await expect(page.getByTestId('case-status')).toHaveText('Active');
  // The change is brought into view and read out: the page is back at its top, the note focused.
  const note = page.getByTestId('read-only');
  await expect(note).toBeFocused();
  await expect(note).toContainText('participants can start it');
  await expect(note).toBeInViewport();
  await expect(page.getByTestId('case-status')).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page.getByRole('button', { name: 'Return to draft' })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('publish-active.png') });
});
