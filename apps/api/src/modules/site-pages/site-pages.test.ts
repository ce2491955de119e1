import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SitePage } from '@pss/contract';
import { expectError, testContext, type Reply } from '../../../test/kit.js';

/** The legal and support pages: open to anyone, the operator's text or the default, always sanitised. */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-pages-'));
mkdirSync(path.join(dataDir, 'pages'));
writeFileSync(
  path.join(dataDir, 'pages', 'terms-of-use.html'),
  '<h2>Our terms</h2><p>Write to {email}.</p><script>alert(1)</script><img src=x onerror=alert(1)>',
);
const ctx = testContext({
  env: { DATA_DIR: dataDir, SUPPORT_EMAIL: 'help@programme.example', SUPPORT_PHONE: '+1 555 0100' },
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const page = (name: string) => ctx.app.inject({ method: 'GET', url: `/api/pages/${name}` }) as Promise<Reply>;

describe('the legal and support pages', () => {
  it('shows the written default with the support contact, without a session', async () => {
    const reply = await page('support');
    expect(reply.statusCode).toBe(200);
    const support = reply.json<SitePage>();
    expect(support).toMatchObject({
      name: 'support',
      title: 'Support',
      support_email: 'help@programme.example',
      support_phone: '+1 555 0100',
      customised: false,
    });
    expect(support.body).toContain('href="mailto:help@programme.example"');
    expect(support.body).toContain('call +1 555 0100');
    expect((await page('privacy-policy')).json<SitePage>().title).toBe('Privacy Policy');
  });

  it('shows the operator’s own text, sanitised', async () => {
    const terms = (await page('terms-of-use')).json<SitePage>();
    expect(terms.customised).toBe(true);
    expect(terms.body).toContain('<h2>Our terms</h2>');
    expect(terms.body).toContain('mailto:help@programme.example');
    expect(terms.body).not.toMatch(/script|onerror/);
  });

  it('knows no other page', async () => {
    expectError(await page('secrets'), 400, 'VALIDATION_ERROR');
    expectError(await page('..%2F..%2Fetc%2Fpasswd'), 400, 'VALIDATION_ERROR');
  });
});
