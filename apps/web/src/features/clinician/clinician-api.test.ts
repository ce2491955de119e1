import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { startSessionEarly } from '../../lib/session/early-start';
import { dashboardQueryOptions } from './clinician-api';

const user = { id: '1', email: 'p@b.test', first_name: 'Maria', last_name: 'Alvarez', role: 'USER' };

afterEach(() => vi.unstubAllGlobals());

/** A server whose participant refresh answers `refreshStatus`; the calls made, in order. */
function server(refreshStatus: number): string[] {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: URL, init?: RequestInit) => {
      const call = `${init?.method ?? 'GET'} ${new URL(input).pathname}`;
      calls.push(call);
      if (call === 'GET /api/auth/user/refresh') {
        return refreshStatus === 200
          ? Response.json({ access_token: 't', expires_in: 900, user })
          : Response.json({ errorCode: 'UNAUTHORIZED', message: 'x' }, { status: refreshStatus });
      }
      if (call === 'GET /api/dashboard') return Response.json({ user, projects: [{ id: `p${calls.length}` }] });
      return Response.json({ inactivity_timeout_minutes: 2 });
    }),
  );
  return calls;
}

describe("the participant's dashboard read", () => {
  it('takes the one sent as the page started, once', async () => {
    const calls = server(200);
    startSessionEarly('/participant');
    const client = new QueryClient();
    await expect(client.fetchQuery(dashboardQueryOptions())).resolves.toMatchObject({ projects: [{ id: 'p3' }] });
    expect(calls.filter((c) => c === 'GET /api/dashboard')).toHaveLength(1);
    await client.refetchQueries();
    expect(calls.filter((c) => c === 'GET /api/dashboard')).toHaveLength(2);
  });

  it('reads again when the page started without a session (signed in since)', async () => {
    const calls = server(401);
    startSessionEarly('/participant');
    const client = new QueryClient();
    await expect(client.fetchQuery(dashboardQueryOptions())).resolves.toMatchObject({ user });
    expect(calls).toEqual(['GET /api/settings', 'GET /api/auth/user/refresh', 'GET /api/dashboard']);
  });
});
