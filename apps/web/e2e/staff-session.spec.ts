import { expect, test } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';

const tabs = [
  'Project Management',
  'User Management',
  'Survey Templates',
  'Resource Library',
  'Module Library',
  'Audit Log',
];

test('a provider employee signs in and sees the six tabs and who is signed in', async ({ page }) => {
  const { superadmin } = demoSignIns();
  await signIn(page, 'Provider employee', superadmin);
  await expect(page).toHaveURL(/\/project-management$/);
  await expect(page.getByRole('heading', { name: 'Patient Simulation Platform' })).toBeVisible();
  await expect(page.getByTestId('signed-in-as')).toHaveText('Signed in as Dana Provider');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(tabs);
  await expect(nav.getByRole('link', { name: 'Project Management' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('link', { name: 'Northwind Health' })).toBeVisible();
});

test('a client administrator signs in, sees no tabs and lands on their client', async ({ page }) => {
  const { admin } = demoSignIns();
  await signIn(page, 'Client administrator', admin);
  await expect(page).toHaveURL(/\/project-management\/clients\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Northwind Health' })).toBeVisible();
  await expect(page.getByTestId('signed-in-as')).toHaveText('Signed in as Alex Northwind');
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

  // The clients list is the provider's; an administrator is taken back to their client.
  await page.goto('/project-management');
  await expect(page).toHaveURL(/\/project-management\/clients\/[0-9a-f-]{36}$/);
});

test('a wrong password is refused with the catalogue message', async ({ page }) => {
  const { admin } = demoSignIns();
  await page.goto('/login-landing');
  await page.getByRole('textbox', { name: /^Email/ }).fill(admin.email);
  await page.getByRole('textbox', { name: /^Password/ }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('The password is incorrect.');
  await expect(page).toHaveURL(/\/login-landing/);
});

test('empty fields get messages beside them, without a call', async ({ page }) => {
  await page.goto('/login-landing');
  await page.getByRole('textbox', { name: /^Email/ }).fill('not-an-email');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  await expect(page.getByText('This field is required.')).toBeVisible();
});

test('sign out lands on /logged-out with a toast, and the session is gone', async ({ page }) => {
  const { superadmin } = demoSignIns();
  await signIn(page, 'Provider employee', superadmin);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/logged-out$/);
  const toast = page.getByRole('alert').filter({ hasText: 'You have been signed out.' });
  await expect(toast).toBeVisible();
  await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
  // Under the flows' reduced motion the toast stays until it is closed (its 3 seconds
  // otherwise: lib/toasts.test.tsx).
  await toast.getByRole('button', { name: 'Close' }).click();
  await expect(toast).toBeHidden();

  await page.goto('/project-management');
  await expect(page).toHaveURL(/\/login-landing\?next=/);
});

test('an anonymous visit to a protected route is sent to sign in, then back', async ({ page }) => {
  const { superadmin } = demoSignIns();
  await page.goto('/project-management?search=river');
  await expect(page).toHaveURL(/\/login-landing\?next=%2Fproject-management%3Fsearch%3Driver$/);
  await signIn(page, 'Provider employee', superadmin);
  await expect(page).toHaveURL(/\/project-management\?search=river$/);
  await expect(page.getByRole('link', { name: 'Riverside Medical Group' })).toBeVisible();
});

test('a session survives a reload', async ({ page }) => {
  const { superadmin } = demoSignIns();
  await signIn(page, 'Provider employee', superadmin);
  await page.reload();
  await expect(page.getByTestId('signed-in-as')).toHaveText('Signed in as Dana Provider');
});

test('an administrator is signed out within 5 s when the session cookie disappears', async ({ page, context }) => {
  const { admin } = demoSignIns();
  await signIn(page, 'Client administrator', admin);
  await context.clearCookies({ name: 'pss_session' });
  await expect(page).toHaveURL(/\/logged-out$/, { timeout: 7_000 });
});

test('the public pages work without signing in', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await page.goto('/unauthorized');
  await expect(page.getByRole('heading', { name: 'Please sign in' })).toBeVisible();
  await page.goto('/logged-out');
  await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
  await page.goto('/keycloak-landing');
  await expect(page).toHaveURL(/\/login-landing$/);
});

test('the Privacy Policy, Terms of Use and Support open from the footer of the staff and the participants’ sides, on a phone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/login-landing');
  const footer = page.getByRole('contentinfo');
  await footer.getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page.getByRole('heading', { name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByText('Your data is not sold or shared for advertising.', { exact: false })).toBeVisible();
  await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Use' }).click();
  await expect(page.getByRole('heading', { name: 'Terms of Use' })).toBeVisible();

  await page.goto('/participant/sign-in');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Support' }).click();
  await expect(page).toHaveURL(/\/support$/);
  await expect(page.getByRole('heading', { name: 'Support' })).toBeVisible();
  // The contact the emails give for {email}.
  await expect(page.getByRole('link', { name: /@/ }).first()).toBeVisible();

  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Support' }).click();
  await expect(page.getByRole('heading', { name: 'Support' })).toBeVisible();
});
