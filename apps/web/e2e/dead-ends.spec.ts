import { expect, test } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';
import { expectNoViolations } from './page-checks';

// Names unique to this run, so the flow can run again on the same server.
const run = Date.now().toString(36).slice(-5);

test('a client with projects offers no Delete that would fail: it says why; a client without projects is deleted', async ({
  page,
}) => {
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  const blocked = page.getByRole('button', { name: 'Delete Northwind Health' });
  await expect(blocked).toHaveAttribute('aria-disabled', 'true');
  await expect(blocked).toHaveAccessibleDescription(
    'A client with projects cannot be deleted: delete its projects first.',
  );
  // Pressed anyway (Playwright waits for an aria-disabled button to be enabled: forced).
  await blocked.click({ force: true });
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // The reason, as a toast.
  await expect(
    page.getByRole('alert').filter({ hasText: 'A client with projects cannot be deleted: delete its projects first.' }),
  ).toBeVisible();
  await expectNoViolations(page);
  await page.screenshot({ path: test.info().outputPath('client-delete-blocked.png') });

  // A client without projects: its Delete asks, then deletes.
  const name = `Empty Clinic ${run}`;
  await page.getByRole('button', { name: 'New client' }).click();
  const form = page.getByRole('dialog', { name: 'New client' });
  await form.getByRole('textbox', { name: /^Client name/ }).fill(name);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await page.getByRole('searchbox', { name: 'Search' }).fill(run);
  const remove = page.getByRole('button', { name: `Delete ${name}` });
  await expect(remove).not.toHaveAttribute('aria-disabled');
  await remove.click();
  await page.getByRole('dialog', { name: 'Delete client' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`Client ${name} deleted.`)).toBeVisible();
});

test('another client’s page opened by its address offers the way home, not "Try again"', async ({ page, browser }) => {
  // Another client's addresses, as the provider's staff see them.
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await page.getByRole('link', { name: 'Riverside Medical Group' }).click();
  await expect(page.getByRole('heading', { name: 'Riverside Medical Group' })).toBeVisible();
  const otherClient = new URL(page.url()).pathname;

  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, 'Client administrator', demoSignIns().admin);
  const home = new URL(admin.url()).pathname;
  expect(home).toMatch(/^\/project-management\/clients\/[0-9a-f-]{36}$/);
  for (const address of [otherClient, `${home}/projects/00000000-0000-4000-8000-000000000000`]) {
    await admin.goto(address);
    const problem = admin
      .getByRole('alert')
      .filter({ hasText: 'It may have been deleted, or it is not yours to open.' });
    await expect(problem).toBeVisible();
    await expect(problem).toContainText(/could not be found|does not exist/);
    await expect(problem.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await expectNoViolations(admin);
    await admin.screenshot({ path: test.info().outputPath(`not-found-way-home-${address.length}.png`) });
    await problem.getByRole('link', { name: 'Go to your start page' }).click();
    await expect(admin).toHaveURL(new RegExp(`${home}$`));
    await expect(admin.getByRole('heading', { name: 'Northwind Health' })).toBeVisible();
  }
  await admin.context().close();
});

test('in the New project form, Enter takes a disease type and closes its list, so the next click lands where it is aimed', async ({
  page,
}) => {
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await page.getByRole('link', { name: 'Northwind Health' }).click();
  await page.getByRole('button', { name: 'New project' }).click();
  const form = page.getByRole('dialog', { name: 'New project' });
  const diseaseTypes = form.getByLabel(/^Disease types/);
  await diseaseTypes.fill('Heart');
  // The shared catalogue's suggestions show while typing.
  await expect(page.getByRole('listbox')).toBeVisible();
  await diseaseTypes.press('Enter');
  await expect(diseaseTypes).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('listbox')).toBeHidden();
  await page.screenshot({ path: test.info().outputPath('new-project-after-enter.png') });

  // A click on Question categories goes to Question categories: no tag is added to Disease types.
  const categories = form.getByLabel(/^Question categories/);
  await categories.click();
  await expect(categories).toBeFocused();
  await expect(form.locator('.mantine-Pill-root')).toHaveCount(1);
  await expect(form.locator('.mantine-Pill-root')).toHaveText(['Heart']);

  // Typing opens the list again; a suggestion is taken from it and the list closes.
  await diseaseTypes.click();
  await diseaseTypes.fill('Hyper');
  await expect(page.getByRole('listbox')).toBeVisible();
  await diseaseTypes.press('Enter');
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(form.locator('.mantine-Pill-root')).toHaveText(['Heart', 'Hyper']);
});
