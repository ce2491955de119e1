import { describe, expect, it, vi } from 'vitest';
import { PRESENCE_COOKIE } from '@pss/contract';
import type { FirstCalls, FirstCallsWindow } from '../src/boot/first-calls';
import { firstCallsConfig, firstCallsSource } from './first-calls-script';

/**
 * The script index.html runs before anything else, run here from the very text the page
 * carries (so a function that reached outside itself fails here), against a fake window.
 */
function runScript(page: { path: string; search?: string; cookie?: string; refresh?: Response }) {
  const sent: { url: string; authorization: string | null }[] = [];
  const w: FirstCallsWindow = {
    location: { pathname: page.path, search: page.search ?? '' },
    document: { cookie: page.cookie ?? '' },
    fetch: vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, authorization: new Headers(init.headers).get('authorization') });
      expect(init.credentials).toBe('include');
      if (url.endsWith('/refresh')) return page.refresh ?? Response.json({ access_token: 'tok' });
      return Response.json({ url });
    }),
  };
  new Function('window', firstCallsSource())(w);
  return { sent, calls: w.pssFirstCalls as FirstCalls };
}

describe("index.html's first calls", () => {
  it("are made from the contract's route table as the page is built", () => {
    // The URLs the browser asks for, written out here as the server serves them.
    expect(firstCallsConfig()).toEqual({
      settings: '/api/settings',
      staffRefresh: '/api/auth/admin/refresh',
      participantRefresh: '/api/auth/user/refresh',
      presenceCookie: PRESENCE_COOKIE,
      firstPages: { '/project-management': '/api/clients?page=1&limit=25', '/participant': '/api/dashboard' },
    });
    expect(firstCallsSource()).toContain(JSON.stringify(firstCallsConfig()));
  });

  it("send the settings and the staff refresh when the presence cookie is there, then the clients list's first page with its token", async () => {
    const { sent, calls } = runScript({ path: '/project-management', cookie: `a=1; ${PRESENCE_COOKIE}=1` });
    expect(sent.map((s) => s.url)).toEqual(['/api/settings', '/api/auth/admin/refresh']);
    expect(sent[0]!.authorization).toBeNull();
    expect(calls.firstPage?.path).toBe('/project-management');
    const page = await calls.firstPage!.answer;
    await expect(page!.json()).resolves.toEqual({ url: '/api/clients?page=1&limit=25' });
    expect(sent[2]).toEqual({ url: '/api/clients?page=1&limit=25', authorization: 'Bearer tok' });
    // The session's own answer is still whole for the app to read.
    await expect((await calls.staff!).json()).resolves.toEqual({ access_token: 'tok' });
  });

  it('send only the settings on a staff page with no presence cookie', () => {
    const { sent, calls } = runScript({ path: '/project-management', cookie: 'other=1' });
    expect(sent.map((s) => s.url)).toEqual(['/api/settings']);
    expect(calls.staff).toBeUndefined();
    expect(calls.firstPage).toBeUndefined();
  });

  it("send the participant's refresh under /participant, and the dashboard only on the dashboard", async () => {
    const dashboard = runScript({ path: '/participant', cookie: `${PRESENCE_COOKIE}=1` });
    expect(dashboard.sent.map((s) => s.url)).toEqual(['/api/settings', '/api/auth/user/refresh']);
    await dashboard.calls.firstPage!.answer;
    expect(dashboard.sent[2]).toEqual({ url: '/api/dashboard', authorization: 'Bearer tok' });
    const caseScreen = runScript({ path: '/participant/cases/42' });
    expect(caseScreen.sent.map((s) => s.url)).toEqual(['/api/settings', '/api/auth/user/refresh']);
    expect(caseScreen.calls.firstPage).toBeUndefined();
  });

  it('ask for no first page when the list was opened at another page or search, or on other screens', () => {
    const cookie = `${PRESENCE_COOKIE}=1`;
    expect(runScript({ path: '/project-management', search: '?page=2', cookie }).calls.firstPage).toBeUndefined();
    expect(runScript({ path: '/user-management', cookie }).calls.firstPage).toBeUndefined();
    expect(runScript({ path: '/toString', cookie }).calls.firstPage).toBeUndefined();
  });

  it('answer no first page when the session was refused', async () => {
    const { sent, calls } = runScript({
      path: '/project-management',
      cookie: `${PRESENCE_COOKIE}=1`,
      refresh: Response.json({ errorCode: 'UNAUTHORIZED' }, { status: 401 }),
    });
    await expect(calls.firstPage!.answer).resolves.toBeNull();
    expect(sent).toHaveLength(2);
  });
});
