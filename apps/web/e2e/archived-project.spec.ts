import { expect, test } from '@playwright/test';
import { demoSignIns, signIn } from './fixtures';
import { expectNoViolations } from './page-checks';

test('an archived project counts the participants its Participants tab lists, on its overview and in its client’s list', async ({
  page,
}) => {
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await page.goto('/project-management?search=Northwind');
  await page.getByRole('link', { name: 'Northwind Health' }).click();
  const pilotRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Asthma Pilot 2025' }) });
  await expect(pilotRow).toContainText('Archived');
  // In the client's list: its data is there (not "No users").
  await expect(pilotRow).toContainText('Ready');
  await expect(pilotRow).not.toContainText('No users');

  await page.getByRole('link', { name: 'Asthma Pilot 2025' }).click();
  const sections = page.getByRole('navigation', { name: 'Project sections' });
  await sections.getByRole('link', { name: 'Participants' }).click();
  const table = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: /Completed cases/ }) });
  await expect(table).toHaveAttribute('aria-busy', 'false');
  // The tab's participants (the demo's pilot: twenty clinicians, each with completed cases), on one page.
  const people = table.getByRole('row').filter({ hasText: '@northwind.demo.local' });
  await expect(people).toHaveCount(20);
  const listed = await people.count();

  await sections.getByRole('link', { name: 'Overview' }).click();
  const counts = page.getByTestId('participant-counts');
  await expect(counts).toHaveText(`${listed} active, 0 archived; 0 without an assignment`);
  await expect(page.getByText('No users')).toHaveCount(0);
  await expectNoViolations(page);
});
