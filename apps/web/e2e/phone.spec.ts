import { expect, test, type Browser, type Page } from '@playwright/test';
import { demoParticipantLinkPath, demoSignIns, signIn } from './fixtures';
import { phoneLayoutProblems, readOnlyContrastProblems } from './page-checks';

// Every screen of both sides on a phone (390 px): nothing scrolls sideways, no control is cut
// or reaches past the screen, and read-only or disabled fields that show something read at
// 4.5:1. One page load a screen; each screen's problems are listed together (soft), so one
// run names them all.

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;
const COMPLETER = 'james.chen@northwind.demo.local';
const NEWCOMER = 'elena.popescu@northwind.demo.local';

async function phone(browser: Browser): Promise<Page> {
  return (await browser.newContext(PHONE)).newPage();
}

/** Waits for the screen to have drawn its data: its heading shown, its calls answered, no loader left. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('main h1, main h2, main h3').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.mantine-Skeleton-root, .mantine-Loader-root, [aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByText(/could not be found|Something went wrong/)).toHaveCount(0);
}

/** The phone checks of the screen shown now, named `screen`. */
async function checkScreen(page: Page, screen: string): Promise<void> {
  await settled(page);
  expect.soft(await phoneLayoutProblems(page), `${screen}: fits the phone`).toEqual([]);
  expect.soft(await readOnlyContrastProblems(page), `${screen}: read-only content reads at 4.5:1`).toEqual([]);
}

async function visit(page: Page, path: string, screen: string): Promise<void> {
  await page.goto(path);
  await checkScreen(page, screen);
}

async function href(page: Page, selector: string): Promise<string> {
  const value = await page.locator(selector).first().getAttribute('href');
  if (!value) throw new Error(`no link ${selector}`);
  return value;
}

test('every administrator screen fits a phone, and read-only fields read at 4.5:1', async ({ browser }) => {
  test.setTimeout(150_000);
  const page = await phone(browser);
  await signIn(page, 'Provider employee', demoSignIns().superadmin);
  await visit(page, '/project-management', 'admin-clients');
  const client = await href(page, 'main a:text-is("Northwind Health")');
  await visit(page, client, 'admin-client');
  const project = await href(page, 'main a:text-is("Heart Failure Management 2026")');
  const archived = await href(page, 'main a:text-is("Asthma Pilot 2025")');
  await visit(page, project, 'admin-project-overview');
  await visit(page, archived, 'admin-project-archived');
  await visit(page, `${project}/cases`, 'admin-cases');
  const active = await href(page, 'main a:text-is("Swollen ankles after a long flight")');
  const draft = await href(page, 'main a:text-is("Blood pressure at the pharmacy")');
  await visit(page, active, 'admin-case-active');
  // The read-only case shows its text, not a cut or faded copy of it.
  await expect(page.getByTestId('read-only')).toBeVisible();
  await visit(page, draft, 'admin-case-draft');
  await visit(page, `${draft}/previews`, 'admin-case-previews');
  await visit(page, `${project}/cases/new`, 'admin-case-new');
  await visit(page, `${project}/cmes`, 'admin-cmes');
  await visit(page, `${project}/certificates`, 'admin-certificates');
  await visit(page, `${project}/participants`, 'admin-participants');
  await visit(page, `${project}/elements`, 'admin-elements');
  await visit(page, `${project}/emails`, 'admin-emails');
  await visit(page, await href(page, 'main a[href*="/emails/edit"]'), 'admin-email-editor');
  await visit(page, `${project}/progress`, 'admin-progress');
  await visit(page, await href(page, 'main a[href*="/progress/edit/"]'), 'admin-season-summary');
  await visit(page, `${project}/surveys`, 'admin-project-surveys');
  await visit(page, `${project}/history`, 'admin-project-history');

  await visit(page, '/user-management', 'admin-users');
  await visit(page, await href(page, 'main a:text-is("Alvarez, Maria")'), 'admin-user');
  await visit(page, '/survey-templates', 'admin-survey-templates');
  await visit(page, await href(page, 'main a:text-is("Welcome: new participants")'), 'admin-survey-template');
  await visit(page, '/survey-templates/new', 'admin-survey-template-new');
  await visit(page, '/resource-library', 'admin-resources');
  await visit(page, await href(page, 'main a[href^="/resource-library/"]:not([href$="/new"])'), 'admin-resource');
  await visit(page, '/resource-library/new', 'admin-resource-new');
  await visit(page, '/module-library', 'admin-module-library');
  const module = (await href(page, 'main a[href^="/module-library/"]')).replace(/\/cases$/, '');
  await visit(page, `${module}/cases`, 'admin-module-cases');
  await visit(page, await href(page, 'main a[href*="/case-details/"]'), 'admin-module-case');
  await visit(page, `${module}/elements`, 'admin-module-elements');
  await visit(page, `${module}/projects`, 'admin-module-projects');
  await visit(page, '/audit-log', 'admin-audit-log');
  await visit(page, '/account/security', 'admin-security');
  await page.context().close();

  // A client's administrator: a fuller header (the Audit log beside Sign out).
  const admin = await phone(browser);
  await signIn(admin, 'Client administrator', demoSignIns().admin);
  await checkScreen(admin, 'client-admin-home');
  await expect(admin.getByRole('button', { name: 'Sign out' })).toBeInViewport({ ratio: 1 });
  await admin.context().close();
});

test('every participant screen fits a phone', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await phone(browser);
  await visit(page, '/participant/sign-in', 'participant-sign-in');
  await visit(page, '/create-password', 'participant-create-password');
  await visit(page, '/support', 'participant-support');
  await visit(page, '/privacy-policy', 'privacy-policy');
  await visit(page, '/terms-of-use', 'terms-of-use');
  await visit(page, demoParticipantLinkPath(), 'participant-dashboard');
  // The next case, with its resources in tabs; each resource shown in turn.
  await visit(page, await href(page, '[data-testid="next-case"] a'), 'participant-case');
  const tabs = page.getByRole('tab');
  for (let i = 0; i < (await tabs.count()); i += 1) {
    await tabs.nth(i).click();
    expect.soft(await phoneLayoutProblems(page), `resource tab ${i + 1}: fits the phone`).toEqual([]);
  }
  await page.screenshot({ path: test.info().outputPath('participant-case-resources.png'), fullPage: true });
  await page.context().close();

  // A participant who completed the Winter Season: the results summary, certificates, a result.
  const completer = await phone(browser);
  await visit(completer, demoParticipantLinkPath(COMPLETER), 'participant-dashboard-summary');
  await expect(completer.getByTestId('season-summary')).toBeVisible();
  const verify = await completer
    .locator('[data-testid="certificates"] a[href*="/verify/"]')
    .first()
    .getAttribute('href');
  await visit(completer, await href(completer, '[data-testid="dashboard-case"] a'), 'participant-result');
  if (verify) await visit(completer, new URL(verify, completer.url()).pathname, 'certificate-verify');
  await completer.context().close();
});

test('on a phone, a survey’s dropdown is chosen by touch and shows what to do; its thanks covers nothing', async ({
  browser,
}) => {
  const page = await phone(browser);
  await page.goto(demoParticipantLinkPath(NEWCOMER));
  await page.getByTestId('next-case').getByRole('link', { name: 'Start case' }).click();
  await expect(page.getByText('Before you begin: a short survey')).toBeVisible();
  await checkScreen(page, 'participant-survey');
  const where = page.getByRole('combobox', { name: /Where do you see most of your patients/ });
  await expect(where).toHaveAttribute('placeholder', 'Choose an answer');
  await page.getByRole('radio', { name: '5 to 15 years' }).tap();
  await where.tap();
  await page.getByRole('option', { name: 'Primary care' }).tap();
  await expect(where).toHaveValue('Primary care');
  await page.screenshot({ path: test.info().outputPath('participant-survey-chosen.png'), fullPage: true });
  await page.getByRole('button', { name: 'Next page' }).tap();
  await page.getByRole('checkbox', { name: 'CME credits' }).tap();
  await page.getByRole('button', { name: 'Submit survey' }).tap();
  // The thanks is said at the top of the case, in view, and no toast lies over the case.
  const thanks = page.getByTestId('survey-saved');
  await expect(thanks).toHaveText('Thank you: your answers are saved.');
  await expect(thanks).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Start case' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('participant-survey-saved.png') });
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
  // Any toast the case page raises still leaves its controls in reach.
  const covered = await page.evaluate(() => {
    const root = document.querySelector('.mantine-Notification-root');
    if (!root) return [];
    const box = root.getBoundingClientRect();
    const under: string[] = [];
    for (const el of document.querySelectorAll('main button, main a[href], main input, main [role=radio]')) {
      const r = el.getBoundingClientRect();
      if (!r.width || r.bottom < box.top || r.top > box.bottom || r.right < box.left || r.left > box.right) continue;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (hit && !el.contains(hit) && hit.closest('.mantine-Notification-root')) under.push(el.textContent ?? '');
    }
    return under;
  });
  expect(covered).toEqual([]);
  await page.context().close();
});
