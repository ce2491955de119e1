import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Waits until no toast is part-way through its fade. A toast fading in or out is drawn at
 * part opacity, and axe measures its text's contrast against the blend — a violation that
 * exists for 200 ms and never for a reader. Settled toasts are checked like the rest.
 */
async function waitForSettledToasts(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.mantine-Notification-root')].every((toast) => {
      for (let node: Element | null = toast; node; node = node.parentElement) {
        if (Number(getComputedStyle(node).opacity) < 1) return false;
      }
      return true;
    }),
  );
}

/**
 * Waits until no dialog is part-way through opening or closing, for the same reason: a modal
 * fading in over one fading out (a second factor's set-up giving way to its recovery codes)
 * had its title measured at 1.17:1 against the overlay.
 */
async function waitForSettledDialogs(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.mantine-Modal-inner, .mantine-Modal-overlay')].every(
      (part) =>
        Number(getComputedStyle(part).opacity) >= 1 &&
        part.getAnimations({ subtree: true }).every((animation) => animation.playState !== 'running'),
    ),
  );
}

/** WCAG 2.1 A/AA checks of what the page shows now. */
export async function expectNoViolations(page: Page, options: { framesToo?: boolean } = {}): Promise<void> {
  const scan = async () => {
    await waitForSettledToasts(page);
    await waitForSettledDialogs(page);
    const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
    // `framesToo: false` for a page holding a sandboxed frame that runs no script (the email
    // preview): axe would wait for ever on the frame's answer. The page itself is still scanned.
    if (options.framesToo === false) builder.setLegacyMode(true).options({ iframes: false });
    return builder.analyze();
  };
  let results = await scan();
  // A toast that began to fade out (its few seconds up) while axe ran was measured mid-fade
  // (1.09:1 in CI): once toasts are settled again the page is scanned anew, and that scan decides.
  const onToast = results.violations.some((v) => v.nodes.some((n) => n.target.join(' ').includes('Notification')));
  if (onToast) results = await scan();
  expect(
    results.violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary ?? ''})`).join(', ')}`,
    ),
  ).toEqual([]);
}

/** Collects the page's Content-Security-Policy violations as they are reported. */
export function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** The page does not scroll sideways (a phone's width is the test's viewport). */
export async function expectNoSideScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}
