import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { demoParticipantLinkPath, demoSignIns, signIn } from './fixtures';
import { expectNoViolations, watchCsp } from './page-checks';

// The second flow revokes a demo certificate: it must not run beside the first.
test.describe.configure({ mode: 'serial' });

const CODE = /[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4}/;

test('a participant downloads their CME certificate as a PDF and anyone checks its code on the public page', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const csp = watchCsp(page);
  await page.goto(demoParticipantLinkPath('james.chen@northwind.demo.local'));
  await expect(page.getByRole('heading', { name: 'Welcome, James' })).toBeVisible();
  const certificates = page.getByTestId('certificates');
  await expect(certificates).toContainText(/Certificate earned on .* — code /);
  const code = CODE.exec((await certificates.textContent()) ?? '')![0];
  await certificates.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('participant-certificate.png'), fullPage: true });
  await expectNoViolations(page);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the certificate for 1 credit (PDF)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`certificate-${code}.pdf`);
  const file = await download.path();
  expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  expect(text).toContain('James Chen');
  expect(text).toContain('Heart Failure Management 2026');
  expect(text).toContain(code);
  // A tagged PDF (issue #48): a screen reader reads its structure.
  expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(/^Tagged:\s+yes$/m);

  // The check is public: a browser with no session opens the link printed on the certificate.
  const stranger = await browser.newContext();
  const check = await stranger.newPage();
  const strangerCsp = watchCsp(check);
  await check.goto(`/verify/${code.toLowerCase()}`);
  await expect(check.getByRole('heading', { name: 'Check a CME certificate' })).toBeVisible();
  await expect(check.getByTestId('certificate-status')).toContainText('Valid certificate');
  await expect(check.getByRole('row', { name: /Issued to/ })).toContainText('James Chen');
  await expect(check.getByRole('row', { name: /Programme/ })).toContainText('Heart Failure Management 2026');
  await check.screenshot({ path: test.info().outputPath('verify-valid.png'), fullPage: true });
  await expectNoViolations(check);

  // A code typed by hand on the form; an unknown one is said to be unknown.
  await check.getByRole('link', { name: 'Check another code' }).click();
  await check.getByRole('textbox', { name: 'Certificate code' }).fill('0000 0000 0000 0000 0000');
  await check.getByRole('button', { name: 'Check' }).click();
  await expect(check.getByRole('alert')).toContainText('No certificate has this code');
  await stranger.close();
  expect(csp).toEqual([]);
  expect(strangerCsp).toEqual([]);
});

test('an administrator revokes a certificate with a reason; its check then shows it revoked', async ({ page }) => {
  test.setTimeout(90_000);
  const csp = watchCsp(page);
  await signIn(page, 'Client administrator', demoSignIns().admin);
  await page.getByRole('link', { name: 'Heart Failure Management 2026' }).click();
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Certificates' }).click();
  await expect(page.getByRole('heading', { name: 'CME certificates' })).toBeVisible();
  const table = page.getByRole('table', { name: 'CME certificates' });
  await expect(table.getByRole('row').filter({ hasText: 'Tom Becker' })).toBeVisible();

  await page.getByRole('searchbox').fill('Tom');
  const row = table.getByRole('row').filter({ hasText: 'Tom Becker' });
  await expect(table.getByRole('row').filter({ hasText: 'James Chen' })).toHaveCount(0);
  const code = CODE.exec((await row.textContent()) ?? '')![0];
  await row.getByRole('button', { name: 'Revoke the certificate of Tom Becker' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke certificate' });
  await expect(dialog).toContainText(code);
  // The reason is required.
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(dialog.getByText(/required|empty/i)).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Cases were answered on a colleague’s account.');
  await page.screenshot({ path: test.info().outputPath('revoke-dialog.png') });
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Revoked');
  await expect(row).toContainText('Cases were answered on a colleague’s account.');
  await expect(row.getByRole('button', { name: /Revoke/ })).toHaveCount(0);

  // The list's filter, and the accreditation report with it.
  await page.getByRole('searchbox').fill('');
  // The segmented control's radios are drawn by their labels.
  await page.getByRole('radiogroup', { name: 'Certificate status' }).getByText('Revoked', { exact: true }).click();
  await expect(page).toHaveURL(/status=REVOKED/);
  await expect(table.getByRole('row').filter({ hasText: 'Tom Becker' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'James Chen' })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('certificates-revoked.png'), fullPage: true });
  await expectNoViolations(page);
  const [report] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'CSV' }).click(),
  ]);
  expect(report.suggestedFilename()).toMatch(/cme-certificates.*\.csv$/);
  const csv = readFileSync(await report.path(), 'utf8');
  expect(csv).toContain('Certificate code');
  expect(csv).toContain(code);
  expect(csv).not.toContain('James Chen');

  await page.goto(`/verify/${code}`);
  await expect(page.getByTestId('certificate-status')).toContainText('This certificate was revoked on');
  await expect(page.getByRole('row', { name: /Issued to/ })).toContainText('Tom Becker');
  await page.screenshot({ path: test.info().outputPath('verify-revoked.png'), fullPage: true });
  expect(csp).toEqual([]);
});
