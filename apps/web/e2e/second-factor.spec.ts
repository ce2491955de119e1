import { expect, request, test, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { demoSignIns, serverUrl, signIn } from './fixtures';
import { expectNoViolations } from './page-checks';

/**
 * A staff member's second factor in the browser: an authenticator app set up from the QR
 * code's key (the test computes the codes, as the app would), then a sign-in that asks for a
 * code; a passkey registered with Chromium's virtual authenticator, then a sign-in with it
 * alone. Each flow uses a provider employee of its own, made through the API, so that the
 * other flows' demo sign-ins are untouched.
 */

const PASSWORD = 'second-factor-pass';

/**
 * A new provider employee, made by the demo superadmin through the API (with cookies of its
 * own, not the browser's): their sign-in.
 */
async function newStaffMember(name: string): Promise<{ email: string; password: string; token: string }> {
  const api = await request.newContext({ baseURL: serverUrl() });
  const demo = demoSignIns().superadmin;
  const login = await api.post('/api/auth/login/superadmin', { data: demo });
  expect(login.ok()).toBe(true);
  const { access_token: token } = (await login.json()) as { access_token: string };
  const email = `${name}-${Date.now()}@second-factor.test`;
  const created = await api.post('/api/users', {
    headers: { authorization: `Bearer ${token}` },
    data: { email, first_name: 'Sam', last_name: name, role: 'SUPERADMIN', password: PASSWORD },
  });
  expect(created.status(), await created.text()).toBe(201);
  const own = await api.post('/api/auth/login/superadmin', { data: { email, password: PASSWORD } });
  const session = (await own.json()) as { access_token: string };
  await api.dispose();
  return { email, password: PASSWORD, token: session.access_token };
}

/** The app's code for a key, `steps` time steps from now (the server takes one step either side). */
const codeOf = (secret: string, steps = 0) =>
  generate({ secret: secret.replace(/\s/g, ''), epoch: Math.floor(Date.now() / 1000) + steps * 30 });

async function signInWithPassword(page: Page, who: { email: string; password: string }) {
  await page.goto('/login-landing');
  await page.getByText('Provider employee', { exact: true }).click();
  await page.getByRole('textbox', { name: /^Email/ }).fill(who.email);
  await page.getByRole('textbox', { name: /^Password/ }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('a staff member sets up an authenticator app, and the next sign-in asks for its code', async ({ page }) => {
  test.setTimeout(90_000);
  const member = await newStaffMember('app');
  await signIn(page, 'Provider employee', member);

  await page.getByRole('link', { name: 'Security' }).click();
  await expect(page.getByRole('heading', { name: 'Security' })).toBeVisible();
  await expect(page.getByText('Not set up.')).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set up an authenticator app' });
  await expect(dialog.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await dialog.getByTestId('totp-secret').textContent())!;
  expect(secret.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{32}$/);
  await expectNoViolations(page);
  await dialog.getByRole('textbox', { name: /Code from your authenticator app/ }).fill(await codeOf(secret));
  await dialog.getByRole('button', { name: 'Confirm' }).click();

  const codes = page.getByRole('dialog', { name: 'Recovery codes' });
  await expect(codes.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await expectNoViolations(page);
  await codes.getByRole('checkbox', { name: 'I have saved these codes' }).check();
  await codes.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Set up. Each sign-in asks for its code.')).toBeVisible();
  await expect(page.getByText('10 unused recovery codes.')).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/logged-out|login-landing/);
  await signInWithPassword(page, member);
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await expectNoViolations(page);
  // The code that confirmed the app is spent: a wrong one is refused, the next step's signs in.
  await page.getByRole('textbox', { name: /Code from your authenticator app/ }).fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('The code is incorrect.');
  await page.getByRole('textbox', { name: /Code from your authenticator app/ }).fill(await codeOf(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page).toHaveURL(/project-management/);
});

test('a staff member registers a passkey and signs in with it alone', async ({ browser }) => {
  test.setTimeout(90_000);
  // Passkeys belong to a domain: this flow uses the app at localhost (the server's WEBAUTHN_RP_ID).
  const context = await browser.newContext({ baseURL: serverUrl().replace('127.0.0.1', 'localhost') });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const member = await newStaffMember('passkey');
  await signIn(page, 'Provider employee', member);
  await page.getByRole('link', { name: 'Security' }).click();
  await expect(page.getByText('No passkeys yet.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Passkey name' }).fill('Test laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();

  // The first factor brings recovery codes.
  const codes = page.getByRole('dialog', { name: 'Recovery codes' });
  await expect(codes.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await codes.getByRole('checkbox', { name: 'I have saved these codes' }).check();
  await codes.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('cell', { name: 'Test laptop', exact: true })).toBeVisible();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.goto('/login-landing');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page.getByTestId('signed-in-as')).toContainText('Sam passkey');
  // The key was used: the page says so.
  await page.getByRole('link', { name: 'Security' }).click();
  await expect(page.getByRole('cell', { name: /last used/ })).toBeVisible();
  await context.close();
});

test('the enrolment a role requires passes axe', async ({ page }) => {
  // The flows' server requires no role to have a factor (the demo's sign-ins stay as they are),
  // so the sign-in's answer is the gate's here, and the app's set-up goes to the server under
  // the member's own session: the screen is the one a gated member sees. The gate itself is
  // tested against the API (modules/auth/second-factor).
  const member = await newStaffMember('gate');
  await page.route('**/api/auth/login/superadmin', (route) =>
    route.fulfill({ json: { mfa_enrollment_required: true, mfa_token: 'mfa_e2e-gate' } }),
  );
  await page.route('**/api/auth/mfa/totp/enroll', (route) =>
    route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${member.token}` } }),
  );
  await signInWithPassword(page, member);
  await expect(page.getByRole('heading', { name: 'Set up two-step sign-in' })).toBeVisible();
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  await expect(page.getByTestId('totp-secret')).toHaveText(/^[A-Z2-7 ]{39}$/);
  await expectNoViolations(page);
});
