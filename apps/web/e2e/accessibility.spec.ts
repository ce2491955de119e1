import { expect, test } from '@playwright/test';
import { demoParticipantLinkPath, demoSignIns, signIn } from './fixtures';
import { expectNoViolations } from './page-checks';

// WCAG 2.1 A/AA checks of each screen, plus a CSP check: the app must run under its own
// Content-Security-Policy without a single violation.

test('sign-in, public pages and the clients list pass axe and the CSP', async ({ browser }) => {
  // A dozen pages, each scanned by axe: well past the default 30 s on a busy 2-core machine.
  test.setTimeout(150_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      cspViolations.push(message.text());
  });

  await page.goto('/login-landing');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expectNoViolations(page);

  await page.goto('/logged-out');
  await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
  await expectNoViolations(page);

  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await expect(page.getByRole('link', { name: 'Northwind Health' })).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole('link', { name: 'Northwind Health' }).click();
  await expect(page.getByRole('link', { name: 'Heart Failure Management 2026' })).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByRole('dialog', { name: 'New project' }).getByRole('button', { name: 'Add season' }).click();
  await expectNoViolations(page);
  await page.keyboard.press('Escape');

  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await expect(page.getByRole('cell', { name: 'Round 4' }).first()).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'CMEs' }).click();
  await expect(page.getByRole('cell', { name: 'HF-2026-A' })).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Progress' }).click();
  await expect(page.getByRole('table', { name: 'Case completion' }).getByRole('row').nth(1)).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Participants' }).click();
  await expect(page.getByRole('cell', { name: 'maria.alvarez@northwind.demo.local' })).toBeVisible();
  await expectNoViolations(page);
  await page.getByRole('button', { name: 'Import participants' }).click();
  await expect(page.getByRole('dialog', { name: 'Import participants' })).toBeVisible();
  await expectNoViolations(page);
  await page.keyboard.press('Escape');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'User Management' }).click();
  await expect(page.getByRole('link', { name: 'Alvarez, Maria' })).toBeVisible();
  await expectNoViolations(page);
  await page.getByRole('link', { name: 'Alvarez, Maria' }).click();
  await expect(page.getByTestId('assignments')).toContainText('Spring Season');
  await expectNoViolations(page);

  expect(cspViolations).toEqual([]);
  await context.close();
});

test('Case Setup screens pass axe and the CSP', async ({ page }) => {
  test.setTimeout(90_000);
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      cspViolations.push(message.text());
  });
  await signIn(page, 'Client administrator', demoSignIns().admin);
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Cases' }).click();
  await expect(page.getByRole('link', { name: 'Swollen ankles after a long flight' })).toBeVisible();
  await expectNoViolations(page);

  // An active case: read-only.
  await page.getByRole('link', { name: 'Swollen ankles after a long flight' }).click();
  await expect(page.getByTestId('read-only')).toBeVisible();
  await expect(page.getByTestId('case-status')).toHaveText('Active');
  await expectNoViolations(page);

  // A draft with problems listed after a refused publish.
  await page.getByRole('link', { name: '← All cases' }).click();
  await page.getByRole('link', { name: 'Blood pressure at the pharmacy' }).click();
  await page.getByRole('button', { name: 'Publish' }).first().click();
  await expect(page.getByText(/problems? stops? this case being published/)).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole('link', { name: '← All cases' }).click();
  await page.getByRole('link', { name: 'Breathless at night' }).click();
  await page.getByRole('link', { name: 'Previews' }).click();
  await expect(page.getByText('No previews yet')).toBeVisible();
  await expectNoViolations(page);
  await page.getByRole('link', { name: 'Take a preview' }).click();
  await expect(page.getByRole('heading', { name: 'Robert Hale' })).toBeVisible();
  await expectNoViolations(page);
  expect(cspViolations).toEqual([]);
});

test('module library and elements screens pass axe and the CSP', async ({ page }) => {
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      cspViolations.push(message.text());
  });
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Module Library' }).click();
  await expect(page.getByRole('heading', { name: 'Module Library' })).toBeVisible();
  await expectNoViolations(page);
  await page.getByRole('button', { name: 'New module library' }).click();
  await expect(page.getByRole('dialog', { name: 'New module library' })).toBeVisible();
  await expectNoViolations(page);
  await page.keyboard.press('Escape');

  await page.goto('/project-management?search=Northwind');
  await page.getByRole('link', { name: 'Northwind Health' }).click();
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Elements' }).click();
  await expect(page.getByRole('heading', { name: 'Participant Dashboard Content' })).toBeVisible();
  await expectNoViolations(page);
  expect(cspViolations).toEqual([]);
});

test('the participants’ pages pass axe and the CSP', async ({ page }) => {
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      cspViolations.push(message.text());
  });
  await page.goto('/participant/sign-in');
  await expect(page.getByRole('heading', { name: 'Sign in to your cases' })).toBeVisible();
  await expectNoViolations(page);
  await page.goto(demoParticipantLinkPath());
  await expect(page.getByRole('heading', { name: 'Welcome, Maria' })).toBeVisible();
  await expectNoViolations(page);
  await page.getByTestId('next-case').getByRole('link').click();
  await expect(page.getByRole('button', { name: 'Start case' })).toBeVisible();
  await expectNoViolations(page);
  await page.goto('/create-password');
  await expect(page.getByRole('heading', { name: 'Create a password' })).toBeVisible();
  await expectNoViolations(page);
  expect(cspViolations).toEqual([]);
});

test('the sign-in form works by keyboard alone', async ({ page }) => {
  const { admin } = demoSignIns();
  await page.goto('/login-landing');
  await page.getByRole('textbox', { name: /^Email/ }).focus();
  await page.keyboard.type(admin.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(admin.password);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
});
