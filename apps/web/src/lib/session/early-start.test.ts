import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PRESENCE_COOKIE } from '@pss/contract';
import { clearCookie, setCookie } from '../cookies';
import { setAccessToken } from '../api-client';
import type { FirstCalls } from '../../boot/first-calls';
import { ApiError } from '../api-error';
import { refreshSession } from './auth-api';
import { startSessionEarly, takeEarly, takeStarted } from './early-start';

// A fake server answering fetch, as in session-provider.test.tsx: which calls go out, when.
const calls: string[] = [];
const bearers: (string | null)[] = [];
const user = { id: '1', email: 'a@b.test', first_name: 'Alex', last_name: 'Admin', role: 'admin', client_id: 'c' };

beforeEach(() => {
  calls.length = 0;
  bearers.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: URL, init?: RequestInit) => {
      const call = `${init?.method ?? 'GET'} ${new URL(input).pathname}`;
      calls.push(call);
      bearers.push(new Headers(init?.headers).get('authorization'));
      if (call === 'GET /api/settings') return Response.json({ inactivity_timeout_minutes: 2 });
      if (call.endsWith('/refresh')) return Response.json({ access_token: 't', expires_in: 900, user });
      if (call === 'GET /api/dashboard') return Response.json({ user, projects: [] });
      if (call === 'GET /api/clients') return Response.json({ items: [], total: 0, from: 'app' });
      return Response.json({ errorCode: 'NOT_FOUND', message: 'x' }, { status: 404 });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  clearCookie(PRESENCE_COOKIE);
  // Nothing started by one test is left for the next.
  delete window.pssFirstCalls;
  for (const name of ['settings', 'staff', 'participant', 'participant-dashboard', 'clients-first-page'] as const) {
    void takeStarted(name);
  }
  setAccessToken(null);
});

describe('the calls a first screen waits on, started early', () => {
  it('sends the settings and the staff refresh at once when the presence cookie says there is a session', async () => {
    setCookie(PRESENCE_COOKIE, '1');
    startSessionEarly('/project-management');
    expect(calls).toEqual(['GET /api/settings', 'GET /api/auth/admin/refresh']);
    const again = vi.fn();
    // The provider takes the answers already on their way, once; a later take makes its own call.
    await expect(takeEarly('staff', again)).resolves.toMatchObject({ access_token: 't' });
    await expect(takeEarly('settings', again)).resolves.toMatchObject({ inactivity_timeout_minutes: 2 });
    expect(again).not.toHaveBeenCalled();
    await takeEarly('staff', again);
    expect(again).toHaveBeenCalledTimes(1);
  });

  it('sends only the settings on a staff page with no session', () => {
    startSessionEarly('/login-landing');
    expect(calls).toEqual(['GET /api/settings']);
  });

  it("sends the participant's refresh, not the staff one, under /participant", () => {
    setCookie(PRESENCE_COOKIE, '1');
    startSessionEarly('/participant/cases/42');
    expect(calls).toEqual(['GET /api/settings', 'GET /api/auth/user/refresh']);
  });

  it("asks for the participant's dashboard, with the session's token, once the session is there", async () => {
    startSessionEarly('/participant');
    expect(calls).toEqual(['GET /api/settings', 'GET /api/auth/user/refresh']);
    await expect(takeStarted('participant-dashboard')).resolves.toMatchObject({ projects: [] });
    expect(calls).toEqual(['GET /api/settings', 'GET /api/auth/user/refresh', 'GET /api/dashboard']);
    expect(bearers[2]).toBe('Bearer t');
    // Taken once: the next read is the page's own.
    expect(takeStarted('participant-dashboard')).toBeUndefined();
  });

  it('asks for no dashboard on the other participant pages', async () => {
    startSessionEarly('/participant/cases/42');
    await takeStarted('participant');
    expect(takeStarted('participant-dashboard')).toBeUndefined();
    expect(calls).not.toContain('GET /api/dashboard');
  });

  it('makes its own call when nothing was started early', async () => {
    const send = vi.fn().mockResolvedValue('fresh');
    await expect(takeEarly('staff', send)).resolves.toBe('fresh');
    expect(send).toHaveBeenCalledTimes(1);
  });

  it("asks for the clients list's first page with the staff session's token, unless the list was opened at another page", async () => {
    setCookie(PRESENCE_COOKIE, '1');
    startSessionEarly('/project-management', '');
    await expect(takeStarted('clients-first-page')).resolves.toMatchObject({ from: 'app' });
    expect(calls).toEqual(['GET /api/settings', 'GET /api/auth/admin/refresh', 'GET /api/clients']);
    expect(bearers[2]).toBe('Bearer t');
    void takeStarted('staff');
    startSessionEarly('/project-management', '?page=3');
    expect(takeStarted('clients-first-page')).toBeUndefined();
  });
});

describe("the calls index.html's script sent", () => {
  function scriptSent(calls: FirstCalls) {
    window.pssFirstCalls = calls;
  }

  it('are taken instead of being sent again, each once', async () => {
    let answerRefresh!: (response: Response) => void;
    scriptSent({
      settings: Promise.resolve(Response.json({ inactivity_timeout_minutes: 7 })),
      staff: new Promise((resolve) => (answerRefresh = resolve)),
      firstPage: {
        path: '/project-management',
        answer: Promise.resolve(Response.json({ items: [], total: 0, from: 'script' })),
      },
    });
    startSessionEarly('/project-management', '');
    // A refresh asked for in this tab meanwhile shares the script's instead of spending the cookie again.
    const meanwhile = refreshSession();
    answerRefresh(Response.json({ access_token: 'early', expires_in: 900, user }));
    await expect(takeEarly('settings', vi.fn())).resolves.toMatchObject({ inactivity_timeout_minutes: 7 });
    await expect(takeEarly('staff', vi.fn())).resolves.toMatchObject({ access_token: 'early' });
    await expect(meanwhile).resolves.toMatchObject({ access_token: 'early' });
    await expect(takeStarted('clients-first-page')).resolves.toMatchObject({ from: 'script' });
    expect(calls).toEqual([]);
    expect(window.pssFirstCalls).toBeUndefined();
  });

  it("answer errors as the app's own calls do; a first page the script could not ask for is asked for again", async () => {
    scriptSent({
      settings: Promise.reject(new TypeError('Failed to fetch')),
      participant: Promise.resolve(Response.json({ errorCode: 'UNAUTHORIZED', message: 'no' }, { status: 401 })),
      firstPage: { path: '/participant', answer: Promise.resolve(null) },
    });
    startSessionEarly('/participant', '');
    await expect(takeEarly('settings', vi.fn())).rejects.toMatchObject({ status: 0 });
    const refused = takeEarly('participant', vi.fn());
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 401, errorCode: 'UNAUTHORIZED' });
    await expect(takeStarted('participant-dashboard')).rejects.toMatchObject({ status: 401 });

    // A session the script got, with a first page it could not read, sends the page's own call.
    scriptSent({
      settings: Promise.resolve(Response.json({})),
      staff: Promise.resolve(Response.json({ access_token: 'early', expires_in: 900, user })),
      firstPage: { path: '/project-management', answer: Promise.resolve(null) },
    });
    startSessionEarly('/project-management', '');
    await expect(takeStarted('clients-first-page')).resolves.toMatchObject({ from: 'app' });
    expect(calls).toEqual(['GET /api/clients']);
    expect(bearers[0]).toBe('Bearer early');
  });
});
