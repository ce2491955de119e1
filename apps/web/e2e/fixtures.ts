import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { e2eDataDir } from '../playwright.config';

/**
 * The data folder of the server the running flow talks to: each Playwright project has its
 * own server (playwright.config.ts), named by the project's base URL.
 */
export function serverDataDir(): string {
  return e2eDataDir(Number(new URL(serverUrl()).port));
}

/** The base URL of the server the running flow talks to. */
export function serverUrl(): string {
  const baseURL = test.info().project.use.baseURL;
  if (!baseURL) throw new Error('the flow runs in a project without a server');
  return baseURL;
}

export interface DemoSignIn {
  email: string;
  password: string;
}

/** The demo sign-ins the server wrote on its first start. */
export function demoSignIns(): { superadmin: DemoSignIn; admin: DemoSignIn } {
  const lines = readFileSync(path.join(serverDataDir(), 'demo-sign-ins.txt'), 'utf8').trim().split('\n');
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
  const lines = readFileSync(path.join(serverDataDir(), 'demo-sign-ins.txt'), 'utf8').trim().split('\n');
  const line = lines.find((l) => l.startsWith('Participant') && l.includes(`(${email})`));
  const printed = line && /\/participant\/link\/(\S+)$/.exec(line)?.[1];
  if (!printed) throw new Error('no demo participant link');
  const claims = JSON.parse(Buffer.from(printed.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
  const secret = readFileSync(path.join(serverDataDir(), '.session-secret'), 'utf8').trim();
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
