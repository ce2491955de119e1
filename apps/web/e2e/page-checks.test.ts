import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Page } from '@playwright/test';

// The flows' checks must not hide a failure behind a second try (issue #49): one axe scan
// decides, Playwright retries no flow, and the flows run under the reduced motion that makes
// one scan enough. Playwright itself is not loaded: its `expect` is Vitest's here, and the
// config is read as the object it hands to `defineConfig`.
vi.mock('@playwright/test', async () => ({
  expect: (await import('vitest')).expect,
  defineConfig: <T>(config: T) => config,
}));

type Violation = { id: string; nodes: { target: string[]; failureSummary?: string }[] };
const axe = vi.hoisted(() => ({ scans: 0, answers: [] as Violation[][] }));

vi.mock('@axe-core/playwright', () => ({
  default: class {
    withTags() {
      return this;
    }
    setLegacyMode() {
      return this;
    }
    options() {
      return this;
    }
    analyze() {
      axe.scans += 1;
      return Promise.resolve({ violations: axe.answers.shift() ?? [] });
    }
  },
}));

const { expectNoViolations } = await import('./page-checks');

/** A page that prefers reduced motion (or not) and whose toasts and dialogs have settled. */
function page(reducedMotion = true): Page {
  const fake: Pick<Page, 'evaluate' | 'waitForFunction'> = {
    evaluate: (() => Promise.resolve(reducedMotion)) as Page['evaluate'],
    waitForFunction: (() => Promise.resolve()) as unknown as Page['waitForFunction'],
  };
  return fake as Page;
}

const onToast: Violation = {
  id: 'color-contrast',
  nodes: [{ target: ['.mantine-Notification-root > .mantine-Notification-description'], failureSummary: '2.1:1' }],
};

describe('expectNoViolations', () => {
  beforeEach(() => {
    axe.scans = 0;
    axe.answers = [];
  });

  it('fails on a violation on a toast found by its one scan, without scanning again', async () => {
    // A second scan would find nothing: the check must not ask for one.
    axe.answers = [[onToast], []];
    await expect(expectNoViolations(page())).rejects.toMatchObject({
      actual: [expect.stringMatching(/^color-contrast: .*Notification.*2\.1:1/)],
    });
    expect(axe.scans).toBe(1);
  });

  it('fails on any other violation the same way', async () => {
    axe.answers = [[{ id: 'label', nodes: [{ target: ['#email'] }] }], []];
    await expect(expectNoViolations(page())).rejects.toMatchObject({
      actual: [expect.stringMatching(/^label: #email/)],
    });
    expect(axe.scans).toBe(1);
  });

  it('passes a clean page on one scan', async () => {
    await expectNoViolations(page());
    expect(axe.scans).toBe(1);
  });

  it('refuses to scan a page that does not prefer reduced motion, where toasts fade and close', async () => {
    await expect(expectNoViolations(page(false))).rejects.toThrow(/reduced motion/);
    expect(axe.scans).toBe(0);
  });
});

describe('the flows’ Playwright config', () => {
  beforeEach(() => vi.stubEnv('CHROMIUM_PATH', '/usr/bin/chromium'));
  afterEach(() => vi.unstubAllEnvs());

  it('retries no flow, so a flaky one is reported (and counted as failed)', async () => {
    const { default: config } = await import('../playwright.config');
    expect(config.retries).toBe(0);
    for (const project of config.projects ?? []) expect(project.retries ?? 0).toBe(0);
  });

  it('runs every flow under reduced motion', async () => {
    const { default: config } = await import('../playwright.config');
    expect(config.use?.reducedMotion).toBe('reduce');
    for (const project of config.projects ?? []) expect(project.use?.reducedMotion ?? 'reduce').toBe('reduce');
  });
});
