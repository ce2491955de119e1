import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';
import { expectNoViolations, watchCsp } from './page-checks';

const run = Date.now().toString(36).slice(-5);
// Neither name holds the other, so each side of the change is found on its own.
const firstCaseName = `Cough at night ${run}`;
const caseName = `Wheeze at dawn ${run}`;
const firstName = `Noah ${run}`;

/** The row of an event's change table (History or the log) whose field shows `before` then `after`. */
function changeRow(scope: Locator, before: string, after: string): Locator {
  return scope.getByTestId('audit-changes').getByRole('row').filter({ hasText: before }).filter({ hasText: after });
}

async function expectChange(scope: Locator, before: string, after: string) {
  const row = changeRow(scope, before, after).first();
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell').nth(0)).toHaveText(before);
  await expect(row.getByRole('cell').nth(1)).toHaveText(after);
}

/** A typed filter of the log, applied once typing pauses (it lands in the address). */
async function typeFilter(page: Page, label: string, value: string, param: string) {
  // The target type offers the types it knows as it is typed in (a combobox); the others are plain boxes.
  const role = label === 'Target type' ? 'combobox' : 'textbox';
  await page.getByRole(role, { name: label, exact: true }).fill(value);
  await expect(page).toHaveURL(new RegExp(`${param}=${encodeURIComponent(value).replace(/\./g, '\\.')}`));
}

/** The log's action filter, picked by its words: the address keeps the action's code. */
async function pickAction(page: Page, words: string, code: string) {
  await page.getByRole('combobox', { name: 'Action', exact: true }).fill(words);
  await page.getByRole('option', { name: words, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`action=${code.replace('.', '\\.')}(&|$)`));
}

test('a superadmin changes a case and a participant, finds both in the Audit Log and on their History, and exports them', async ({
  page,
}) => {
  // Two edits, two histories, the log with its filters, two downloads and four axe scans.
  test.setTimeout(180_000);
  const csp = watchCsp(page);
  await signIn(page, 'Provider employee', demoSignIns().superadmin);

  // A draft case, renamed and saved.
  await page.goto('/project-management?search=Northwind');
  await page.getByRole('link', { name: 'Northwind Health' }).click();
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await expect(page).toHaveURL(/\/projects\/[0-9a-f-]{36}$/);
  const projectUrl = page.url();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Cases' }).click();
  await page.getByRole('link', { name: 'New case' }).click();
  await page.getByRole('textbox', { name: 'Case name', exact: true }).fill(firstCaseName);
  await page.getByRole('combobox', { name: 'Disease type', exact: true }).click();
  await page.getByRole('option', { name: 'Heart Failure', exact: true }).click();
  await page.getByRole('button', { name: 'Create and open' }).click();
  await expect(page).toHaveURL(/case-details\/[0-9a-f-]{36}\?newCase=true/);
  const caseId = /case-details\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await page.getByRole('textbox', { name: 'Case name', exact: true }).fill(caseName);
  await expect(page.getByTestId('unsaved')).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).first().click();
  await expect(page.getByTestId('unsaved')).toHaveCount(0);

  // The case's History: the rename, before | after, and who did it.
  await page.getByRole('button', { name: 'Show history' }).click();
  const caseHistory = page.getByTestId('history');
  // The action in words (its code is the export's).
  const rename = caseHistory.getByRole('listitem').filter({ hasText: 'Edited case' }).first();
  await expect(rename).toContainText('superadmin@demo.local');
  await expectChange(rename, firstCaseName, caseName);
  await expectNoViolations(page);

  // A participant's first name, changed on their page.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'User Management' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill('fischer');
  await page.getByRole('link', { name: 'Fischer, Noah' }).click();
  await expect(page.getByRole('heading', { name: 'Noah Fischer' })).toBeVisible();
  const userId = /user-management\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await page.getByRole('textbox', { name: /^First name/ }).fill(firstName);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('User saved.')).toBeVisible();
  await expect(page.getByRole('heading', { name: `${firstName} Fischer` })).toBeVisible();

  // Their History: the first name, before | after.
  await page.getByRole('button', { name: 'Show history' }).click();
  const userHistory = page.getByTestId('history');
  await expectChange(userHistory.getByRole('listitem').filter({ hasText: 'Edited user' }).first(), 'Noah', firstName);

  // The Audit Log, from the main tabs: the case's rename, found by action and target.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit Log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
  const log = page.getByRole('table', { name: 'Audit events, newest first' });
  await pickAction(page, 'Edited case', 'cases.update');
  await typeFilter(page, 'Target ID', caseId, 'target_id');
  await expectChange(log, firstCaseName, caseName);
  for (const row of await log.locator(':scope > tbody > tr').all()) {
    await expect(row.getByTestId('audit-action')).toHaveText('Edited case');
  }
  await expectNoViolations(page);

  // The filters are in the address: a reload shows the same events.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Action', exact: true })).toHaveValue('Edited case');
  await expectChange(log, firstCaseName, caseName);

  // The participant's change, found by its target.
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/action=/);
  await typeFilter(page, 'Target type', 'user', 'target_type');
  await typeFilter(page, 'Target ID', userId, 'target_id');
  await expectChange(log, 'Noah', firstName);
  await expect(log).toContainText('Edited user');

  // Both, as the superadmin's own events of today, exported as CSV and as XLSX.
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByRole('combobox', { name: 'Actor', exact: true }).click();
  await page.getByRole('option', { name: 'Me (superadmin@demo.local)' }).click();
  await expect(page).toHaveURL(/actor_id=[0-9a-f-]{36}/);
  const today = new Date();
  const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  await page.getByLabel('From', { exact: true }).fill(day);
  await expect(page).toHaveURL(new RegExp(`from=${day}`));
  await expectChange(log, firstCaseName, caseName);

  const [csvFile] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(csvFile.suggestedFilename()).toMatch(/\.csv$/);
  const csv = readFileSync(await csvFile.path(), 'utf8');
  for (const text of [caseId, userId, caseName, firstName, 'cases.update', 'users.update']) expect(csv).toContain(text);

  const [xlsxFile] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export XLSX' }).click(),
  ]);
  expect(xlsxFile.suggestedFilename()).toMatch(/\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await xlsxFile.path());
  const cells: string[] = [];
  workbook.worksheets[0]!.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value))));
  for (const id of [caseId, userId]) expect(cells).toContain(id);
  expect(cells.some((cell) => cell.includes(caseName))).toBe(true);
  expect(cells.some((cell) => cell.includes(firstName))).toBe(true);

  // Keyset paging: older events and back (when the day holds more than a page).
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/actor_id=/);
  await expect(log).toHaveAttribute('aria-busy', 'false');
  // The pages' buttons are there only when there is more than one page.
  const older = page.getByRole('button', { name: 'Older' });
  if ((await older.count()) > 0) {
    await older.click();
    await expect(page).toHaveURL(/cursor=\d+/);
    await expect(page.getByText(/^Page 2, older events$/)).toBeVisible();
    await page.getByRole('button', { name: 'Newest' }).click();
    await expect(page).not.toHaveURL(/cursor=/);
  }

  // The project's History tab.
  await page.goto(projectUrl);
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'History' }).click();
  await expect(page.getByRole('heading', { name: 'History' })).toBeVisible();
  await expect(page.getByTestId('history')).toBeVisible();
  await expectNoViolations(page);

  expect(csp).toEqual([]);
});

test('a client administrator reads the Audit Log from the header', async ({ page }) => {
  await signIn(page, 'Client administrator', demoSignIns().admin);
  await page.getByRole('link', { name: 'Audit Log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
  await expect(page.getByText('about your organisation’s data')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Audit events, newest first' })).toBeVisible();
  await expectNoViolations(page);
});

test('the Audit Log names each action in words and who signed in, by name', async ({ page }) => {
  const admin = demoSignIns().admin;
  // A client administrator signs in (before any session: the step names them) and out.
  await signIn(page, 'Client administrator', admin);
  const signedInAs = await page.getByText(/^Signed in as /).textContent();
  const adminName = signedInAs!.replace('Signed in as ', '').trim();
  await page.getByRole('button', { name: 'Sign out' }).click();

  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  const myName = (await page.getByText(/^Signed in as /).textContent())!.replace('Signed in as ', '').trim();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit Log' }).click();
  const log = page.getByRole('table', { name: 'Audit events, newest first' });
  await expect(log).toHaveAttribute('aria-busy', 'false');
  // Every action in words: no code on the screen.
  const actions = log.getByTestId('audit-action');
  await expect(actions.first()).toBeVisible();
  for (const cell of await actions.all()) await expect(cell).not.toHaveText(/^[a-zA-Z]+\.[a-zA-Z]+$/);
  // The superadmin's own sign-in, newest: their name, not "Not signed in".
  const mine = log.locator(':scope > tbody > tr').filter({ hasText: 'Signed in (provider)' }).first();
  await expect(mine.getByTestId('audit-actor')).toContainText(myName);
  await expect(mine.getByTestId('audit-actor')).toContainText('superadmin@demo.local');
  await expect(mine.getByTestId('audit-actor')).not.toContainText('Not signed in');

  // The administrator's sign-in, found by its words: named as who signed in.
  await pickAction(page, 'Signed in (client administrator)', 'auth.loginAdmin');
  const theirs = log.locator(':scope > tbody > tr').filter({ hasText: admin.email }).first();
  await expect(theirs.getByTestId('audit-actor')).toContainText(adminName);
  await expect(theirs.getByTestId('audit-actor')).toContainText('Client administrator');
  await expect(theirs.getByTestId('audit-actor')).not.toContainText('Not signed in');
  await expect(theirs.getByTestId('audit-action')).toHaveText('Signed in (client administrator)');
  await expectNoViolations(page);
});
