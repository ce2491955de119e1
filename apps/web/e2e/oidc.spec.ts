import { expect, test, type Page } from '@playwright/test';

// A client administrator signs in through their organisation's identity provider (an
// oidc-provider that e2e/start-server.mjs runs beside the app) and signs out through it.

async function signInAtProvider(page: Page, email: string) {
  await page.goto('/login-landing');
  await page.getByText('Client administrator', { exact: true }).click();
  await page.getByRole('link', { name: 'Sign in with your organisation' }).click();
  // The provider's own sign-in page, on its own origin.
  await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
  expect(new URL(page.url()).port).not.toBe(new URL(test.info().project.use.baseURL!).port);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('a client administrator signs in with their organisation and signs out through it to /logged-out', async ({
  page,
}) => {
  await signInAtProvider(page, 'admin@northwind.demo.local');
  await expect(page).toHaveURL(/\/project-management\/clients\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('signed-in-as')).toHaveText('Signed in as Alex Northwind');
  await expect(page.getByRole('heading', { name: 'Northwind Health' })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  // The provider asks; its session ends, and it sends the browser back to the app's page.
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/logged-out$/);
  await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();

  // The app's session is gone, and the provider's too: signing in again asks who you are.
  await page.goto('/project-management');
  await expect(page).toHaveURL(/\/login-landing\?next=/);
  await page.getByText('Client administrator', { exact: true }).click();
  await page.getByRole('link', { name: 'Sign in with your organisation' }).click();
  await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
});

test('someone no administrator here is, is sent to /unauthorized with the reason', async ({ page }) => {
  await signInAtProvider(page, 'nobody@elsewhere.demo.local');
  await expect(page).toHaveURL(/\/unauthorized\?reason=OIDC_ACCOUNT_UNKNOWN$/);
  await expect(
    page.getByText('No client administrator account on this platform has your email address.'),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
});

test('an email the organisation has not verified is refused on /unauthorized', async ({ page }) => {
  await signInAtProvider(page, 'unverified@northwind.demo.local');
  await expect(page).toHaveURL(/\/unauthorized\?reason=OIDC_EMAIL_UNVERIFIED$/);
  await expect(page.getByText('Your organisation has not verified your email address')).toBeVisible();
});

test('an answer whose state was changed on its way back is refused on /unauthorized', async ({ page }) => {
  // The provider's answer reaches the API with another state than the one sent. (Playwright
  // does not route a redirect's later hops, so the landing page's call is changed instead.)
  await page.route('**/api/auth/oidc/callback', async (route) => {
    const body = JSON.parse(route.request().postData() ?? '{}') as { query: string };
    const answer = new URLSearchParams(body.query);
    answer.set('state', `${answer.get('state')}-changed`);
    await route.continue({ postData: JSON.stringify({ query: `?${answer}` }) });
  });
  await signInAtProvider(page, 'admin@northwind.demo.local');
  await expect(page).toHaveURL(/\/unauthorized\?reason=OIDC_SIGN_IN_INVALID$/);
  await expect(page.getByText('could not be verified')).toBeVisible();
  await page.goto('/project-management');
  await expect(page).toHaveURL(/\/login-landing\?next=/);
});

test('the sign-in screen offers the organisation to client administrators only', async ({ page }) => {
  await page.goto('/login-landing');
  await page.getByText('Client administrator', { exact: true }).click();
  await expect(page.getByRole('link', { name: 'Sign in with your organisation' })).toBeVisible();
  // Password sign-in stays (ADMIN_PASSWORD_LOGIN is not false here).
  await expect(page.getByRole('textbox', { name: /^Password/ })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('sign-in-with-organisation.png') });
  await page.getByText('Provider employee', { exact: true }).click();
  await expect(page.getByRole('link', { name: 'Sign in with your organisation' })).toHaveCount(0);
});
