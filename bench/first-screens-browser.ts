/**
 * The first screens of bench/first-screens.ts in Chromium (the system's, as the flows use),
 * on the bench's built server and its seeded project: signed in as its superadmin, each
 * screen opened at its address in a browser that has not opened it before ("first"), then
 * again ("again": its files cached, its server warm). A screen is ready when what it shows
 * has arrived: the calendar's table; on the Progress page every tile, chart and table (no
 * skeleton, no busy table left); a certificate when its download has arrived. Each first
 * opening's calls and files are kept with when they began and ended (the waterfall).
 *
 * Before the Progress page and the certificate the server is left idle past its caches'
 * and its drawing process's idle time, so their first opening meets the server as an
 * administrator would, not as the HTTP part of the bench left it.
 */
import { execSync } from 'node:child_process';
import { chromium, type Browser, type Page } from '@playwright/test';
import type { FirstScreensFixture } from './first-screens.js';

export interface Request {
  url: string;
  start: number;
  end: number;
}

export interface ScreenTiming {
  screen: string;
  first: number;
  again: number;
  /** Of each, the part that follows the screen's own click (the certificate: click to download). */
  firstClick?: number;
  againClick?: number;
  /** The first opening's calls and files, ms from the moment it was asked for. */
  waterfall: Request[];
}

export type BrowserFigures = ScreenTiming[];

const round = (n: number) => Math.round(n);

async function signIn(page: Page, base: string, who: { email: string; password: string }) {
  await page.goto(`${base}/login-landing`);
  await page.getByText('Provider employee', { exact: true }).click();
  await page.getByRole('textbox', { name: /^Email/ }).fill(who.email);
  await page.getByRole('textbox', { name: /^Password/ }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Records each request the page makes from now: path, start and end, ms from `t0()`. */
function recorder(page: Page, base: string) {
  let t0 = performance.now();
  const open = new Map<object, Request>();
  const done: Request[] = [];
  page.on('request', (r) => {
    const url = r.url().startsWith(base) ? r.url().slice(base.length) : r.url();
    open.set(r, { url, start: round(performance.now() - t0), end: -1 });
  });
  const finish = (r: object) => {
    const entry = open.get(r);
    if (!entry) return;
    entry.end = round(performance.now() - t0);
    done.push(entry);
    open.delete(r);
  };
  page.on('requestfinished', finish);
  page.on('requestfailed', finish);
  return {
    restart() {
      t0 = performance.now();
      done.length = 0;
      open.clear();
    },
    take: () => [...done].sort((a, b) => a.start - b.start),
  };
}

const progressReady = () =>
  document.querySelectorAll('.mantine-Skeleton-root').length === 0 &&
  !document.querySelector('[aria-busy="true"]') &&
  document.querySelectorAll('figure').length >= 2 &&
  document.querySelectorAll('[data-testid="rate"]').length >= 3;

async function openScreen(
  browser: Browser,
  base: string,
  credentials: { email: string; password: string },
  screen: string,
  url: string,
  ready: (page: Page) => Promise<number | void>,
): Promise<ScreenTiming> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  try {
    await signIn(page, base, credentials);
    const requests = recorder(page, base);
    const once = async () => {
      requests.restart();
      const started = performance.now();
      await page.goto(`${base}${url}`);
      const click = await ready(page);
      return { ms: round(performance.now() - started), click: click === undefined ? undefined : round(click) };
    };
    const first = await once();
    const waterfall = requests.take();
    const again = await once();
    const clicks = first.click === undefined ? '' : ` (click to download: ${first.click} ms, then ${again.click} ms)`;
    console.log(`  browser: ${screen.padEnd(20)} first ${first.ms} ms, again ${again.ms} ms${clicks}`);
    return { screen, first: first.ms, again: again.ms, firstClick: first.click, againClick: again.click, waterfall };
  } finally {
    await context.close();
  }
}

export async function runFirstScreensBrowser(options: {
  base: string;
  fixture: FirstScreensFixture;
  credentials: { email: string; password: string };
  idleSeconds: number;
}): Promise<BrowserFigures> {
  const { base, fixture, credentials } = options;
  const idle = () => new Promise((resolve) => setTimeout(resolve, options.idleSeconds * 1000));
  const executablePath =
    process.env.CHROMIUM_PATH ?? execSync('command -v chromium || command -v chromium-browser').toString().trim();
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-sync', '--no-first-run'],
  });
  const project = `/project-management/clients/${fixture.clientId}/projects/${fixture.projectId}`;
  const figures: BrowserFigures = [];
  try {
    figures.push(
      await openScreen(
        browser,
        base,
        credentials,
        'season calendar',
        `${project}/emails?view=calendar`,
        async (page) => {
          await page.getByTestId('email-calendar').waitFor({ timeout: 60_000 });
        },
      ),
    );
    await idle();
    figures.push(
      await openScreen(browser, base, credentials, 'Progress page', `${project}/progress`, async (page) => {
        await page.waitForFunction(progressReady, undefined, { polling: 20, timeout: 60_000 });
      }),
    );
    await idle();
    // The certificates list opened, then its first certificate's PDF asked for, as a person does.
    figures.push(
      await openScreen(browser, base, credentials, 'certificate PDF', `${project}/certificates`, async (page) => {
        const button = page.getByRole('button', { name: /^Download the certificate of/ }).first();
        await button.waitFor({ timeout: 60_000 });
        const clicked = performance.now();
        const download = page.waitForEvent('download', { timeout: 60_000 });
        await button.click();
        await download;
        return performance.now() - clicked;
      }),
    );
  } finally {
    await browser.close();
  }
  return figures;
}
