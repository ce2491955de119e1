import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../playwright.config';

export interface DemoSignIn {
  email: string;
  password: string;
}

/** The demo sign-ins the server wrote on its first start. */
export function demoSignIns(): { superadmin: DemoSignIn; admin: DemoSignIn } {
  const lines = readFileSync(path.join(E2E_DATA_DIR, 'demo-sign-ins.txt'), 'utf8').trim().split('\n');
  const parse = (prefix: string): DemoSignIn => {
    const line = lines.find((l) => l.startsWith(prefix));
    const match = line && /: (\S+) \/ (\S+)$/.exec(line);
    if (!match?.[1] || !match[2]) throw new Error(`no demo sign-in for ${prefix}`);
    return { email: match[1], password: match[2] };
  };
  return { superadmin: parse('Provider employee'), admin: parse('Client administrator') };
}

/**
 * A fresh dashboard link of a demo participant (its path: the server's public URL may
 * differ): Maria Alvarez unless another printed participant's email is given. A link signs
 * in once, so each call signs a new one as the server would: the printed link names the
 * participant, DATA_DIR/.session-secret is the key.
 */
export function demoParticipantLinkPath(email = 'maria.alvarez@northwind.demo.local'): string {
  const lines = readFileSync(path.join(E2E_DATA_DIR, 'demo-sign-ins.txt'), 'utf8').trim().split('\n');
  const line = lines.find((l) => l.startsWith('Participant') && l.includes(`(${email})`));
  const printed = line && /\/participant\/link\/(\S+)$/.exec(line)?.[1];
  if (!printed) throw new Error('no demo participant link');
  const claims = JSON.parse(Buffer.from(printed.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
  const secret = readFileSync(path.join(E2E_DATA_DIR, '.session-secret'), 'utf8').trim();
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256' })}.${encode({ ...claims, jti: randomUUID() })}`;
  const signature = createHmac('sha256', secret).update(unsigned).digest('base64url');
  return `/participant/link/${unsigned}.${signature}`;
}

export async function signIn(page: Page, flow: 'Provider employee' | 'Client administrator', who: DemoSignIn) {
  if (!page.url().includes('/login-landing')) await page.goto('/login-landing');
  await page.getByText(flow, { exact: true }).click();
  await page.getByRole('textbox', { name: /^Email/ }).fill(who.email);
  await page.getByRole('textbox', { name: /^Password/ }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}
