import { expect, test } from '@playwright/test';
import { demoParticipantLinkPath, demoSignIns, signIn } from './fixtures';
import { waitForMail } from './mail-sink';
import { expectNoSideScroll } from './page-checks';

test.describe.configure({ mode: 'serial' });

test('on a phone, a participant follows their dashboard link, takes a case through every question type, leaves and returns, submits, reads the test results and goes on', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  // Clinicians mostly answer on their phones: the whole case, feedback included, at phone size.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(demoParticipantLinkPath());
  await expect(page.getByRole('heading', { name: 'Welcome, Maria' })).toBeVisible();
  await expect(page.getByText('Create a password to sign in without a link next time.')).toBeVisible();
  const nextCase = page.getByTestId('next-case');
  await expect(nextCase).toContainText('Robert Hale');
  await expect(page.getByTestId('pending-count')).toHaveText('2');

  await nextCase.getByRole('link', { name: 'Start case' }).click();
  await expect(page.getByText('Shortness of breath', { exact: false }).first()).toBeVisible();
  // The patient image, described by the author's text alternative.
  await expect(page.getByRole('img', { name: 'Illustration of Robert Hale, a man in his sixties' })).toBeVisible();
  await page.getByRole('button', { name: 'Start case' }).click();

  // Answers are saved as they are given.
  await page.getByRole('radio', { name: 'Heart failure' }).check();
  await page.getByRole('checkbox', { name: 'BNP' }).check();
  await page.getByRole('checkbox', { name: 'Echocardiogram' }).check();
  await expect(page.getByTestId('save-state')).toHaveText('All answers saved.');

  // Leave mid-case; come back to the same answers.
  await page.getByRole('link', { name: '← Back to your dashboard' }).click();
  await expect(page.getByTestId('next-case')).toContainText('Robert Hale');
  await page.getByTestId('next-case').getByRole('link', { name: 'Continue' }).click();
  await expect(page.getByRole('radio', { name: 'Heart failure' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'BNP' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Echocardiogram' })).toBeChecked();

  // Submitting too early lists the required questions left.
  await page.getByRole('button', { name: 'Submit case' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Answer these required questions' })).toContainText(
    'Which medication do you start?',
  );

  await page.getByRole('combobox', { name: '3. Which medication do you start?' }).click();
  await page.getByRole('option', { name: 'ACE inhibitor' }).click();
  await page.getByLabel('4. What follow-up do you arrange?').fill('Review in a week with weight and kidney function.');
  const referTo = page.getByRole('combobox', { name: '5. Who do you refer him to?' });
  await referTo.fill('Cardio');
  // The suggestion is taken from the keyboard: the list is placed beside the box a frame after
  // the page scrolls (Floating UI), so on a slow machine a tap made as the page scrolls to it can
  // land on the question card behind, which closes the list.
  await expect(page.getByRole('option', { name: 'Cardiologist' })).toBeVisible();
  await referTo.press('ArrowDown');
  await referTo.press('Enter');
  await expect(referTo).toHaveValue('Cardiologist');
  await page.getByRole('button', { name: 'Submit case' }).click();

  // 4 necessary choices, all picked, none unnecessary: 100.
  await expect(
    page.getByText('Thank you for caring for this patient. Your responses have been recorded.'),
  ).toBeVisible();
  await expect(page.getByTestId('attempt-score')).toHaveText('100%');
  // Personalised feedback per question, and the case's explanation.
  await expect(page.getByText('All necessary choices picked, nothing unnecessary.').first()).toBeVisible();
  await expect(page.getByText('Orthopnoea with a history of untreated hypertension')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Test results' })).toBeVisible();
  await expect(page.getByText('BNP 1,450 pg/mL (raised).', { exact: false })).toBeVisible();
  await page.getByRole('heading', { name: 'Test results' }).scrollIntoViewIfNeeded();
  await expectNoSideScroll(page);
  await page.screenshot({ path: test.info().outputPath('participant-feedback-phone.png'), fullPage: true });
  await page.getByRole('button', { name: 'Go on to the next case' }).click();
  await expect(page.getByText('Both ankles swollen', { exact: false })).toBeVisible();
  await page.getByRole('link', { name: '← Back to your dashboard' }).click();
  await expect(page.getByTestId('pending-count')).toHaveText('1');
  await expect(page.getByTestId('dashboard-case').filter({ hasText: 'Robert Hale' })).toContainText('100%');

  // The administrator sees the participant's progress.
  const admin = await browser.newPage();
  await signIn(admin, 'Client administrator', demoSignIns().admin);
  await admin.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await admin.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Participants' }).click();
  await admin.getByRole('combobox', { name: 'Progress' }).click();
  await admin.getByRole('option', { name: 'In progress' }).click();
  await expect(admin).toHaveURL(/progress=IN_PROGRESS/);
  await admin.getByRole('searchbox', { name: 'Search' }).fill('alvarez');
  await expect(admin.getByRole('row', { name: /Alvarez, Maria/ })).toContainText('1');
  await expect(
    admin
      .getByRole('row', { name: /Alvarez, Maria/ })
      .getByRole('cell')
      .nth(7),
  ).toHaveText('1');
  await admin.close();
  await context.close();
});

test('on a phone, the dashboard and a case fit the screen and an answer survives a reload', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(demoParticipantLinkPath());
  await expect(page.getByRole('heading', { name: 'Welcome, Maria' })).toBeVisible();
  await expectNoSideScroll(page);
  await page.getByTestId('next-case').getByRole('link').click();
  const portrait = page.getByRole('img', { name: /Illustration of Grace Okoye/ });
  await expect(portrait).toBeVisible();
  // At full width on a phone, and never wider than the screen.
  expect((await portrait.boundingBox())!.width).toBeGreaterThan(300);
  await page.getByRole('button', { name: 'Start case' }).click();
  await page.getByRole('checkbox', { name: 'Heart failure' }).check();
  await expect(page.getByTestId('save-state')).toHaveText('All answers saved.');
  await expectNoSideScroll(page);
  await page.screenshot({ path: test.info().outputPath('participant-case-phone.png'), fullPage: true });
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Heart failure' })).toBeChecked();
  await context.close();
});

test('on a phone, an answer given with the network cut is kept, said to be not saved, and saved when it returns; a refusal stops and says why', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const toasts = page.locator('.mantine-Notification-root');
  await page.goto(demoParticipantLinkPath());
  await page.getByTestId('next-case').getByRole('link').click();
  const saveState = page.getByTestId('save-state');
  await expect(saveState).toHaveText('All answers saved.');
  // The case's resources (their tabs' code comes on its own) are in before the network is cut.
  await expect(page.getByRole('region', { name: 'Resources' }).getByRole('tab').first()).toBeVisible();

  await context.setOffline(true);
  await page.getByRole('checkbox', { name: 'Deep vein thrombosis' }).check();
  await expect(saveState).toHaveText(/^Not saved: no connection/);
  // Kept in the browser meanwhile, and no toast for it.
  const kept = await page.evaluate(
    () => Object.keys(localStorage).filter((k) => k.startsWith('pss.unsaved-answers.')).length,
  );
  expect(kept).toBe(1);
  await expect(toasts).toHaveCount(0);
  await context.setOffline(false);
  await expect(saveState).toHaveText('All answers saved.');
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Deep vein thrombosis' })).toBeChecked();

  // A refusal (a 4xx) is not sent again: the page says why and waits for the clinician.
  let refused = 0;
  await page.route('**/api/cases/*/answer', (route) => {
    refused += 1;
    return route.fulfill({
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify({ statusCode: 403, errorCode: 'CHANGES_FORBIDDEN', message: 'Refused by the test.' }),
    });
  });
  await page.getByRole('checkbox', { name: 'Gout' }).check();
  await expect(saveState).toHaveText('Not saved: Changes to this item are not allowed.');
  await page.waitForTimeout(5000);
  expect(refused).toBe(1);
  await expect(toasts).toHaveCount(0);
  await page.unroute('**/api/cases/*/answer');
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(saveState).toHaveText('All answers saved.');
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Gout' })).toBeChecked();
  await context.close();
});

test('a participant who came by link creates a password and then signs in with it', async ({ page }) => {
  await page.goto(demoParticipantLinkPath());
  await page.getByRole('link', { name: 'Create a password' }).click();
  await page.getByLabel('New password').fill('short');
  await page.getByLabel('Repeat the password').fill('short');
  await page.getByRole('button', { name: 'Save password' }).click();
  // Checked before any call, as the server checks it: the message is beside the field.
  await expect(page.getByLabel('New password')).toHaveAccessibleDescription(
    'The password must be at least 6 characters long.',
  );
  await page.getByLabel('New password').fill('a-longer-secret');
  await page.getByLabel('Repeat the password').fill('a-longer-secret');
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByText('Password saved')).toBeVisible();
  await page.getByRole('link', { name: '← Back to your dashboard' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();

  await page.goto('/participant/sign-in');
  await page.getByRole('textbox', { name: 'Email' }).fill('maria.alvarez@northwind.demo.local');
  await page.getByRole('textbox', { name: 'Password' }).fill('not-it');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The password is incorrect.');
  await page.getByRole('textbox', { name: 'Password' }).fill('a-longer-secret');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Maria' })).toBeVisible();
  await expect(page.getByText('Create a password to sign in without a link next time.')).toHaveCount(0);
});

test('a participant without a session asks for a password link, sets a new password with it, and the link works once', async ({
  browser,
}) => {
  const email = 'maria.alvarez@northwind.demo.local';
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto('/participant/sign-in');
  await page.getByRole('link', { name: 'Set or reset your password' }).click();
  await expect(page).toHaveURL(/\/create-password$/);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Email me a link' }).click();
  await expect(page.getByRole('status')).toHaveText(/a link to set a password is on its way/);

  const mail = await waitForMail((m) => m.to.includes(email) && m.subject.includes('Set your'));
  const link = /https?:\/\/\S+\/create-password\?code=[\w-]+/.exec(mail.text)![0];

  // Opened from the email, in a browser with no session.
  const fresh = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const opened = await fresh.newPage();
  await opened.goto(link);
  await expect(opened.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await opened.getByLabel('New password').fill('reset-by-link');
  await opened.getByLabel('Repeat the password').fill('reset-by-link');
  await opened.getByRole('button', { name: 'Save password' }).click();
  await expect(opened.getByText('Password saved')).toBeVisible();
  await expect(opened).toHaveURL(/\/submit-password$/);
  await opened.getByRole('link', { name: 'Go to sign-in' }).click();
  await opened.getByRole('textbox', { name: 'Email' }).fill(email);
  await opened.getByRole('textbox', { name: 'Password' }).fill('reset-by-link');
  await opened.getByRole('button', { name: 'Sign in' }).click();
  await expect(opened.getByRole('heading', { name: 'Welcome, Maria' })).toBeVisible();

  // The same link a second time: refused, with a way to ask again.
  await page.goto(link);
  await page.getByLabel('New password').fill('another-secret');
  await page.getByLabel('Repeat the password').fill('another-secret');
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByRole('alert')).toContainText('expired or was already used');
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
  await fresh.close();
  await context.close();
});
