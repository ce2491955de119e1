import { expect, request, test, type Page } from '@playwright/test';
import { demoSignIns, serverUrl } from './fixtures';
import { waitForMail } from './mail-sink';
import { expectNoViolations } from './page-checks';

/**
 * Issue #46: failed sign-ins lock an account and mail its owner a single-use unlock link; the
 * link's page spends it with a button (not on opening, so a mail scanner leaves it), and the
 * owner signs in again. The flow uses a provider employee of its own, made through the API, so
 * that the other flows' demo sign-ins are untouched.
 */

const PASSWORD = 'unlock-flow-pass';
/** The server's LOGIN_MAX_FAILURES (its default). */
const MAX_FAILURES = 10;

async function newStaffMember(): Promise<{ email: string; password: string }> {
  const api = await request.newContext({ baseURL: serverUrl() });
  const login = await api.post('/api/auth/login/superadmin', { data: demoSignIns().superadmin });
  expect(login.ok()).toBe(true);
  const { access_token: token } = (await login.json()) as { access_token: string };
  const email = `unlock-${Date.now()}@lockout.test`;
  const created = await api.post('/api/users', {
    headers: { authorization: `Bearer ${token}` },
    data: { email, first_name: 'Lee', last_name: 'Locked', role: 'SUPERADMIN', password: PASSWORD },
  });
  expect(created.status(), await created.text()).toBe(201);
  await api.dispose();
  return { email, password: PASSWORD };
}

async function signInWith(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login-landing');
  await page.getByText('Provider employee', { exact: true }).click();
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await page.getByRole('textbox', { name: /^Password/ }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('guesses lock an account; its owner unlocks it with the emailed link and signs in', async ({ page }) => {
  test.setTimeout(90_000);
  const member = await newStaffMember();

  // The guesses, through the API as a script would send them.
  const guesser = await request.newContext({ baseURL: serverUrl() });
  for (let i = 0; i < MAX_FAILURES; i++) {
    const guess = await guesser.post('/api/auth/login/superadmin', {
      data: { email: member.email, password: `guess-${i}-wrong` },
    });
    expect(guess.status()).toBe(401);
  }
  await guesser.dispose();

  // Locked: the right password from the guesser's address is refused, with the catalogue's words.
  await signInWith(page, member.email, member.password);
  await expect(page.getByRole('alert')).toContainText('This account is locked: use the unlock link we emailed.');
  await expect(page).toHaveURL(/\/login-landing/);

  const mail = await waitForMail(
    (m) => m.to.includes(member.email) && m.subject === 'Your Patient Simulation Platform account was locked',
  );
  const link = /https?:\/\/\S+\/unlock-account\?token=[\w-]+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  const { pathname, search } = new URL(link!);

  // Opening the link spends nothing: the page asks first.
  await page.goto(`${pathname}${search}`);
  await expect(page.getByRole('heading', { name: 'Unlock your account' })).toBeVisible();
  await expectNoViolations(page);
  await page.screenshot({ path: test.info().outputPath('unlock-page.png'), fullPage: true });
  await page.getByRole('button', { name: 'Unlock my account' }).click();
  await expect(page.getByRole('status')).toContainText('Your account is unlocked');
  await expectNoViolations(page);

  // The link is spent: a second use is refused.
  await page.goto(`${pathname}${search}`);
  await page.getByRole('button', { name: 'Unlock my account' }).click();
  await expect(page.getByRole('alert')).toHaveText('This unlock link has expired or was already used.');

  await page.getByRole('link', { name: 'Staff sign-in' }).click();
  await expect(page).toHaveURL(/\/login-landing/);
  await signInWith(page, member.email, member.password);
  await expect(page).toHaveURL(/\/project-management$/);
  await expect(page.getByTestId('signed-in-as')).toHaveText('Signed in as Lee Locked');
});
