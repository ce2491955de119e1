import { expect, test, type Page } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';
import { waitForMail } from './mail-sink';
import { expectNoViolations } from './page-checks';

const run = Date.now().toString(36).slice(-5);

async function openEmails(page: Page) {
  await signIn(page, 'Client administrator', demoSignIns().admin);
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Emails' }).click();
  await expect(page.getByRole('heading', { name: 'Emails', exact: true })).toBeVisible();
}

test('an administrator edits an email with placeholders, previews it, sends a test that arrives, disables an email, sends a season summary email by hand and reads the delivery log', async ({
  page,
}) => {
  // Several screens, each scanned by axe, and messages through a mail server: minutes on a busy 2-core machine.
  test.setTimeout(180_000);
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      cspViolations.push(message.text());
  });
  await openEmails(page);
  const projectEmails = page.getByRole('table', { name: 'Project emails' });
  await expect(projectEmails.getByRole('switch')).toHaveCount(10);
  await expect(page.getByRole('table', { name: /^Season emails: / }).getByRole('switch')).toHaveCount(5);
  await expectNoViolations(page);

  // The editor: placeholders go in at the cursor, an unknown one is named beside its field.
  await page.getByRole('link', { name: 'Edit Initial Launch Email', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Initial Launch Email' })).toBeVisible();
  const subject = page.getByRole('textbox', { name: 'Subject' });
  await subject.fill(`Welcome ${run}, `);
  await page.getByRole('button', { name: 'Insert placeholder into Subject' }).click();
  await page.getByRole('menuitem', { name: /\{first_name\}/ }).click();
  await expect(subject).toHaveValue(`Welcome ${run}, {first_name}`);
  await expect(page.getByTestId('unsaved')).toBeVisible();

  const body = page.getByRole('textbox', { name: 'Body' });
  await body.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type(`Your reference: R${run}-`);
  await page.getByRole('button', { name: 'Insert placeholder into Body' }).click();
  await page.getByRole('menuitem', { name: /\{last_name\}/ }).click();
  await expect(body).toContainText(`Your reference: R${run}-{last_name}`);

  const buttonText = page.getByRole('textbox', { name: 'Button text' });
  await buttonText.fill('Open {nickname}');
  await page.getByRole('button', { name: 'Save' }).first().click();
  await expect(page.getByText('{nickname} is not a placeholder', { exact: false })).toBeVisible();
  await expect(buttonText).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('preview-invalid')).toBeVisible();
  await expectNoViolations(page);
  await buttonText.fill('Open my cases');

  // The preview renders the unsaved texts: first as the sample participant, then as one chosen.
  await expect(page.getByTestId('preview-subject')).toHaveText(`Subject: Welcome ${run}, Alex`);
  const previewFrame = page.locator('iframe[title="Preview of the email"]');
  await expect(previewFrame).toHaveAttribute('srcdoc', /Open my cases/);
  const frame = page.frameLocator('iframe[title="Preview of the email"]');
  await expect(frame.locator('body')).toContainText(`Your reference: R${run}-Sample`);
  await expect(frame.locator('a', { hasText: 'Open my cases' })).toHaveCount(1);
  await page.getByRole('tab', { name: 'Plain text' }).click();
  await expect(page.getByTestId('preview-text')).toContainText(`Your reference: R${run}-Sample`);
  await page.getByRole('combobox', { name: 'Preview as' }).click();
  await page.getByRole('combobox', { name: 'Preview as' }).fill('alvarez');
  await page.getByRole('option', { name: /Alvarez, Maria/ }).click();
  await expect(page.getByTestId('preview-subject')).toHaveText(`Subject: Welcome ${run}, Maria`);
  await expect(page.getByTestId('preview-text')).toContainText(`Your reference: R${run}-Alvarez`);

  // Leaving unsaved asks first; then the email is saved.
  await page.getByRole('link', { name: '← All emails' }).click();
  await expect(page.getByRole('dialog', { name: 'Leave without saving?' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Save' }).first().click();
  await expect(page.getByText('Email saved.')).toBeVisible();
  await expect(page.getByTestId('unsaved')).toHaveCount(0);

  // A test goes to the test mail server, filled with the sample participant; a refused address fails.
  await page.getByRole('button', { name: 'Send test' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send a test email' });
  const recipients = dialog.getByRole('combobox', { name: 'Recipients' });
  await recipients.fill(`qa.${run}@example.org`);
  await page.keyboard.press('Enter');
  await recipients.fill(`nobody.${run}@reject.test`);
  await page.keyboard.press('Enter');
  await expectNoViolations(page);
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Test email queued.')).toBeVisible();
  const mail = await waitForMail((m) => m.to.includes(`qa.${run}@example.org`));
  expect(mail.subject).toBe(`Welcome ${run}, Alex`);
  expect(mail.text).toContain(`Your reference: R${run}-Sample`);
  expect(mail.html).toContain('Open my cases');

  // The delivery log: the test sent, the refused one failed with the mail server's words.
  await page.getByRole('link', { name: '← All emails' }).click();
  await page.getByRole('tab', { name: 'Delivery log' }).click();
  await page.getByRole('searchbox', { name: 'Search by address' }).fill(run);
  const log = page.getByRole('table', { name: 'Delivery log' });
  const sent = log.getByRole('row').filter({ hasText: `qa.${run}@example.org` });
  await expect(sent.getByText('Sent', { exact: true })).toBeVisible();
  await expect(sent).toContainText('Test recipient');
  const failed = log.getByRole('row').filter({ hasText: `nobody.${run}@reject.test` });
  await expect(failed.getByText('Failed', { exact: true })).toBeVisible();
  await expect(failed).toContainText('Mailbox unavailable: no such user here (e2e)');
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Failed', exact: true }).click();
  await expect(page).toHaveURL(/status=FAILED/);
  await expect(sent).toHaveCount(0);
  await expect(failed).toBeVisible();
  await expectNoViolations(page);

  // Disabling an email holds after a reload.
  await page.getByRole('tab', { name: 'Templates' }).click();
  const reminder = page.getByRole('switch', { name: 'Reminder Email enabled', exact: true });
  await expect(reminder).toBeChecked();
  await reminder.click();
  await expect(page.getByText('Reminder Email disabled.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Reminder Email enabled', exact: true })).not.toBeChecked();

  // "Send now" of a disabled email says, before anyone tries, that it is not sent; its send button stays off.
  await page.getByRole('button', { name: 'Send Reminder Email now', exact: true }).click();
  const sendDisabled = page.getByRole('dialog', { name: 'Send Reminder Email now' });
  await expect(sendDisabled.getByText('This email is disabled')).toBeVisible();
  await expect(sendDisabled).toContainText('A disabled email is not sent, by the schedule or by hand.');
  await expect(sendDisabled).toContainText('You can still send yourself a test of it');
  const sendToAll = sendDisabled.getByRole('button', { name: 'Send', exact: true });
  await expect(sendToAll).toBeDisabled();
  await expect(sendToAll).toHaveAccessibleDescription(/A disabled email is not sent/);
  await expectNoViolations(page);
  await page.screenshot({ path: test.info().outputPath('send-now-disabled.png') });
  await sendDisabled.getByRole('button', { name: 'Cancel' }).click();
  await expect(sendDisabled).toHaveCount(0);

  // The season's Season Summary emails are sent by hand only: the table says so, and the editor offers no other mode.
  const seasonEmails = page.getByRole('table', { name: /^Season emails: / });
  const seasonSummary = seasonEmails.getByRole('row').filter({ hasText: 'Season Summary Launch Email' });
  await expect(seasonSummary.getByText('Manual', { exact: true })).toBeVisible();
  await expect(seasonSummary).toContainText('By hand only: send it when the summary is posted.');
  await expect(
    seasonEmails.getByRole('row').filter({ hasText: 'Season Summary Reminder Email' }).getByText('Manual', {
      exact: true,
    }),
  ).toBeVisible();
  await seasonEmails.screenshot({ path: test.info().outputPath('season-emails.png') });
  await seasonSummary.getByRole('link', { name: /^Edit Season Summary Launch Email/ }).click();
  await expect(page.getByRole('heading', { name: 'Season Summary Launch Email' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Manual' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Automatic' })).toHaveCount(0);
  // Scanned without its preview frame: the sandboxed frame runs no script, and axe would wait on it for ever.
  await expectNoViolations(page, { framesToo: false });
  await expect(page.getByText(/^No schedule rule sends this email: send it with “Send now”/)).toBeVisible();

  // Sent by hand from its editor, it goes to the participants and the delivery log says "Sent by hand".
  await page.getByRole('button', { name: 'Send now…' }).click();
  const sendSummary = page.getByRole('dialog', { name: 'Send Season Summary Launch Email now' });
  // It goes only to whom it is true for: the Winter Season's summary is posted, and only its completer finished it.
  // The dialog asks the server first and lists who is skipped and why, before anything is sent.
  await expect(sendSummary).toContainText(/Send this email now to the \d+ active participants? it is true for today/);
  const skippedList = sendSummary.getByRole('list', { name: /participants? (is|are) skipped/ });
  await expect(skippedList).toContainText('Has not completed Winter Season.');
  await page.screenshot({ path: test.info().outputPath('send-now-skipped.png') });
  await sendSummary.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByText(/^\d+ emails? queued\./)).toBeVisible();
  await page.getByRole('link', { name: '← All emails' }).click();
  await page.getByRole('tab', { name: 'Delivery log' }).click();
  await page.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'Sent by hand', exact: true }).click();
  await expect(log.getByRole('row').filter({ hasText: 'Season Summary Launch Email' }).first()).toContainText(
    'Sent by hand',
  );
  await page.getByRole('tab', { name: 'Templates' }).click();

  // A season's five are disabled together, after a confirmation; the project's stay as they were.
  await expect(seasonEmails.getByRole('switch', { checked: true })).toHaveCount(5);
  await page.getByRole('button', { name: 'Disable all of this season' }).click();
  await page
    .getByRole('dialog', { name: 'Disable the season’s emails' })
    .getByRole('button', { name: 'Disable all of this season' })
    .click();
  await expect(page.getByText('5 emails disabled.')).toBeVisible();
  await expect(seasonEmails.getByRole('switch', { checked: false })).toHaveCount(5);
  await expect(projectEmails.getByRole('switch', { checked: true })).toHaveCount(9);

  // Who gets what: a day's counts and list (tomorrow unless another day is chosen).
  await page.getByRole('tab', { name: 'Who gets what' }).click();
  await expect(page.getByRole('heading', { name: /^Emails on / })).toBeVisible();
  // The rules as the schedule keeps them: round 1 is welcomed by the launch email, not a new-round one.
  const rules = page.getByRole('region', { name: 'How the schedule picks' });
  await expect(rules).toContainText(
    'Round 1 has no new-round email: its participants are welcomed by the Initial Launch Email.',
  );
  await expect(rules).toContainText(
    'Season Summary Launch and Reminder emails are never scheduled: send them by hand.',
  );
  await expect(page.getByRole('table', { name: /^Who gets what on / })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('schedule-rules.png') });
  await expectNoViolations(page);
  expect(cspViolations).toEqual([]);
});
