import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Waits until no toast is part-way through appearing or going (a swipe, a run without reduced
 * motion): one drawn at part opacity has its text's contrast measured against the blend.
 * Under the flows' reduced motion (playwright.config.ts) toasts neither fade nor close by
 * themselves (lib/toasts.ts), so a settled toast stays put and is checked like the rest.
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

/**
 * WCAG 2.1 A/AA checks of what the page shows now. One scan decides: a page scanned again
 * when the first found something passes on the second's luck, and a real contrast failure
 * on a toast went through that way. What made a scan unsteady is gone instead: the flows run
 * under reduced motion, where nothing fades and no toast closes by itself
 * (docs/design/web-app.md#toasts; e2e/page-checks.test.ts keeps it to one scan).
 */
export async function expectNoViolations(page: Page, options: { framesToo?: boolean } = {}): Promise<void> {
  const reduced = await page.evaluate(() => window.matchMedia('(prefers-reduced-motion: reduce)').matches);
  expect(reduced, 'axe scans a page under reduced motion (playwright.config.ts `use.reducedMotion`)').toBe(true);
  await waitForSettledToasts(page);
  await waitForSettledDialogs(page);
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  // `framesToo: false` for a page holding a sandboxed frame that runs no script (the email
  // preview): axe would wait for ever on the frame's answer. The page itself is still scanned.
  if (options.framesToo === false) builder.setLegacyMode(true).options({ iframes: false });
  const results = await builder.analyze();
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
  const overflow = await page.evaluate(
    () => (document.scrollingElement ?? document.documentElement).scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(1);
}

/**
 * What does not fit the screen (a phone's, the test's viewport), each said in words: the page
 * scrolling sideways, and each visible control (button, link, field, tab) or badge whose text is cut
 * (wider than its box, in itself or in a part of it that hides what overflows, or by a box
 * around it that does) or that reaches past the screen's edge. A control in a row that
 * scrolls sideways (tabs, a wide table) may reach past the edge: it is scrolled to. An
 * element moved far off the screen on purpose (the skip link, until focused) is not looked at.
 */
export async function phoneLayoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > width + 1) problems.push(`the page is ${root.scrollWidth}px wide on a ${width}px screen`);
    const clips = (style: CSSStyleDeclaration) => style.overflowX !== 'visible';
    const scrolls = (style: CSSStyleDeclaration) => style.overflowX === 'auto' || style.overflowX === 'scroll';
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? (el as HTMLInputElement).value ?? '') || el.textContent?.trim().slice(0, 40)}"`;
    const controls = document.querySelectorAll(
      'button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=tab], [role=link], .mantine-Badge-root',
    );
    for (const el of controls) {
      if (!el.checkVisibility({ visibilityProperty: true }) || el.closest('[aria-hidden="true"], [inert]')) continue;
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1 || box.right <= 0) continue;
      // Radios and checkboxes are drawn by a box beside them; a text field's typed text scrolls in it.
      const type = (el as HTMLInputElement).type;
      if (el.tagName === 'INPUT' && ['radio', 'checkbox', 'file', 'range', 'color'].includes(type)) continue;
      const typedInto = (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') && !(el as HTMLInputElement).readOnly;
      if (!typedInto) {
        for (const part of [el, ...el.querySelectorAll('*')]) {
          // A visually hidden part (1 px, for screen readers: a chip's "(chosen)") is cut on purpose.
          if (part !== el && !part.checkVisibility()) continue;
          if (clips(getComputedStyle(part)) && part.clientWidth > 1 && part.scrollWidth > part.clientWidth + 1) {
            problems.push(`${name(el)}: its text is cut (${part.scrollWidth}px in ${part.clientWidth}px)`);
            break;
          }
        }
      }
      let inScroller = false;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (scrolls(style) && up.scrollWidth > up.clientWidth + 1) {
          inScroller = true;
          break;
        }
        if (clips(style)) {
          const around = up.getBoundingClientRect();
          if (around.width > 0 && (box.left < around.left - 1 || box.right > around.right + 1)) {
            problems.push(
              `${name(el)}: cut by the box around it (${Math.round(box.left)}–${Math.round(box.right)}px in ${Math.round(around.left)}–${Math.round(around.right)}px)`,
            );
            break;
          }
        }
      }
      if (!inScroller && (box.left < -1 || box.right > width + 1))
        problems.push(
          `${name(el)}: reaches past the screen (${Math.round(box.left)}–${Math.round(box.right)}px of ${width}px)`,
        );
    }
    return [...new Set(problems)];
  });
}

/**
 * The contrast (WCAG 2.1) of every read-only or disabled field that shows something — a
 * value, a choice's label, a read-only case's text — against the colour behind it as drawn:
 * its own and its surroundings' backgrounds and every opacity on the way, which axe leaves
 * out (disabled controls are exempt from its rule; a reader is not). Each under 4.5:1, said
 * in words.
 */
export async function readOnlyContrastProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (css: string): Rgba => {
      const m = /rgba?\(([^)]+)\)/.exec(css);
      if (!m) return [0, 0, 0, 0];
      const [r = 0, g = 0, b = 0, a = 1] = m[1]!
        .split(/[ ,/]+/)
        .filter(Boolean)
        .map(Number);
      return [r, g, b, a];
    };
    const over = (base: Rgba, top: Rgba, alpha = top[3]): Rgba => [
      base[0] * (1 - alpha) + top[0] * alpha,
      base[1] * (1 - alpha) + top[1] * alpha,
      base[2] * (1 - alpha) + top[2] * alpha,
      1,
    ];
    const luminance = (c: Rgba) => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const ratio = (a: Rgba, b: Rgba) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05);
    };
    /** The colour drawn at the element: the backgrounds from the page down, each opacity blending its layer's contents (and, with `text`, the text on top) over what is behind. */
    const drawn = (el: Element, text: Rgba | null): Rgba => {
      const chain: Element[] = [];
      for (let node: Element | null = el; node; node = node.parentElement) chain.unshift(node);
      const paint = (i: number, behind: Rgba): Rgba => {
        if (i === chain.length) return text ? over(behind, text) : behind;
        const style = getComputedStyle(chain[i]!);
        const inner = paint(i + 1, over(behind, parse(style.backgroundColor)));
        const opacity = Number(style.opacity);
        return opacity < 1 ? over(behind, inner, opacity) : inner;
      };
      return paint(0, [255, 255, 255, 1]);
    };
    const problems: string[] = [];
    const measure = (el: Element, what: string) => {
      const style = getComputedStyle(el);
      const fill = style.getPropertyValue('-webkit-text-fill-color');
      const text = parse(fill && fill !== style.color ? fill : style.color);
      const contrast = ratio(drawn(el, text), drawn(el, null));
      if (contrast < 4.5) problems.push(`${what}: ${contrast.toFixed(2)}:1`);
    };
    const quiet = '[disabled], [readonly], [data-disabled], [aria-disabled="true"], [aria-readonly="true"]';
    for (const field of document.querySelectorAll('input, textarea, select')) {
      const input = field as HTMLInputElement;
      if (!(input.disabled || input.readOnly) || !input.checkVisibility({ visibilityProperty: true })) continue;
      if (['radio', 'checkbox', 'hidden', 'file'].includes(input.type) || !input.value.trim()) continue;
      measure(input, `${input.tagName.toLowerCase()} "${input.value.slice(0, 40)}"`);
    }
    // The words inside a read-only or disabled part: a choice's label, an editor's text.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const holder = node.parentElement;
      if (!holder || seen.has(holder) || !node.textContent?.trim()) continue;
      if (
        !holder.closest(quiet) &&
        !holder.closest('fieldset:disabled') &&
        !holder.closest('[contenteditable="false"]')
      )
        continue;
      if (
        holder.closest('button, [role=button], [aria-hidden="true"]') ||
        !holder.checkVisibility({ visibilityProperty: true })
      )
        continue;
      seen.add(holder);
      measure(holder, `"${node.textContent.trim().slice(0, 40)}"`);
    }
    return problems;
  });
}
