import { expect, test } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';
import { waitForMail } from './mail-sink';
import { expectNoViolations } from './page-checks';

const MARIA = 'maria.alvarez@northwind.demo.local';

test('an administrator copies a participant’s link, which opens their dashboard in a fresh browser, sends them one, and sends it again from the delivery log', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'Client administrator', demoSignIns().admin);
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Participants' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill('alvarez');
  await expect(page.getByRole('cell', { name: MARIA })).toBeVisible();

  // Copy link: a new link, shown once, that signs Maria in on another browser.
  await page.getByRole('button', { name: 'Copy a new dashboard link for Maria Alvarez' }).click();
  const dialog = page.getByRole('dialog', { name: 'Dashboard link for Maria Alvarez' });
  await expect(dialog).toContainText('signs Maria Alvarez in to their dashboard once');
  const url = await dialog.getByRole('textbox', { name: 'Dashboard link' }).inputValue();
  expect(url).toMatch(/\/participant\/link\/[\w.-]+$/);
  await expectNoViolations(page);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  const elsewhere = await browser.newContext();
  const maria = await elsewhere.newPage();
  await maria.goto(url);
  await expect(maria.getByRole('heading', { name: 'Welcome, Maria' })).toBeVisible();
  await elsewhere.close();

  // Send link: the Dashboard Link Email arrives, with a link of its own.
  await page.getByRole('button', { name: 'Email Maria Alvarez their dashboard link now' }).click();
  await expect(page.getByText(`A dashboard link is on its way to ${MARIA}.`)).toBeVisible();
  const mail = await waitForMail((m) => m.to.includes(MARIA) && m.subject.endsWith('your dashboard link'));
  expect(mail.text).toMatch(/\/participant\/link\/[\w.-]+/);
  expect(mail.text).not.toContain(url);

  // The delivery log lists it sent, and sends it again.
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Emails' }).click();
  await page.getByRole('tab', { name: 'Delivery log' }).click();
  await page.getByRole('searchbox', { name: 'Search by address' }).fill(MARIA);
  const log = page.getByRole('table', { name: 'Delivery log' });
  const lines = log.getByRole('row').filter({ hasText: 'Dashboard Link Email' });
  await expect(lines.first().getByText('Sent', { exact: true })).toBeVisible();
  const before = await lines.count();
  await lines
    .first()
    .getByRole('button', { name: `Send the Dashboard Link Email to ${MARIA} again` })
    .click();
  await expect(page.getByText('Queued again: it goes within seconds.')).toBeVisible();
  await expect(lines).toHaveCount(before + 1);
  await expectNoViolations(page);
});
