import { expect, test } from '@playwright/test';
import { demoParticipantLinkPath, demoSignIns, signIn } from './fixtures';
import { expectNoViolations } from './page-checks';

test('a participant’s feedback shows choice names as written and says what filled and outlined chips mean', async ({
  page,
}) => {
  await page.goto(demoParticipantLinkPath('james.chen@northwind.demo.local'));
  await expect(page.getByRole('heading', { name: 'Welcome, James' })).toBeVisible();
  // A case of his completed Winter Season, reopened from the dashboard.
  await page.getByTestId('dashboard-case').filter({ hasText: '%' }).first().getByRole('link').first().click();
  await expect(page.getByTestId('attempt-score')).toBeVisible();

  const legend = page.getByTestId('choice-legend');
  await expect(legend).toContainText('Each choice is shown with how the author marked it.');
  await expect(legend).toContainText('Filled: chosen');
  await expect(legend).toContainText('Outlined: not chosen');

  const chip = page.locator('.mantine-Badge-root').filter({ hasText: 'Echocardiogram · Necessary' });
  await expect(chip).toBeVisible();
  // As written, not upper-cased by the chip's style.
  await expect(chip).toHaveCSS('text-transform', 'none');
  await expect(chip).toHaveAttribute('data-chosen', 'true');
  // Said to a screen reader too, which does not see the fill.
  await expect(chip).toContainText('(chosen)');
  await expectNoViolations(page);
  await page.screenshot({ path: test.info().outputPath('result-chips.png'), fullPage: true });
});

test('a one-page PDF is named "1 page"', async ({ page }) => {
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await page.getByRole('link', { name: 'Resource Library' }).click();
  await page.getByRole('link', { name: 'Heart failure: daily weight diary (patient leaflet)' }).click();
  await expect(page.getByText('Heart failure: daily weight diary (patient leaflet) (PDF, 1 page)')).toBeVisible();
});
