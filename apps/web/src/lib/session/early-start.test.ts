import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attemptRoutes, PRESENCE_COOKIE } from '@pss/contract';
import { clearCookie, setCookie } from '../cookies';
import { setAccessToken } from '../api-client';
import { DASHBOARD_ROUTE, startSessionEarly, takeEarly, takeStarted } from './early-start';

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
      return Response.json({ errorCode: 'NOT_FOUND', message: 'x' }, { status: 404 });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  clearCookie(PRESENCE_COOKIE);
  // Nothing started by one test is left for the next.
  for (const name of ['settings', 'staff', 'participant', 'participant-dashboard'] as const) {
    void takeEarly(name, async () => null);
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

  it("names the route table's dashboard call", () => {
    expect(DASHBOARD_ROUTE).toEqual({
      method: attemptRoutes.dashboard.method,
      path: attemptRoutes.dashboard.path,
      access: attemptRoutes.dashboard.access,
    });
  });

  it('asks for no dashboard on the other participant pages', async () => {
    startSessionEarly('/participant/cases/42');
    await takeEarly('participant', async () => null);
    expect(takeStarted('participant-dashboard')).toBeUndefined();
    expect(calls).not.toContain('GET /api/dashboard');
  });

  it('makes its own call when nothing was started early', async () => {
    const send = vi.fn().mockResolvedValue('fresh');
    await expect(takeEarly('staff', send)).resolves.toBe('fresh');
    expect(send).toHaveBeenCalledTimes(1);
  });
});
