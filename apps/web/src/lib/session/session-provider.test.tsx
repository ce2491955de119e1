import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryScreenRouter } from '../screen-router';
import { PRESENCE_COOKIE } from '@pss/contract';
import { clearCookie, setCookie } from '../cookies';
import { SessionProvider, useSession } from './session-provider';

// The browser flows cover sign-in and sign-out; the timers of spec §4 (periodic refresh,
// inactivity timeout, the admin cookie check) are tested here with a fake clock and a
// fake server answering fetch.
const user = { id: '1', email: 'a@b.test', first_name: 'Alex', last_name: 'Admin', role: 'admin', client_id: 'c' };
const calls: string[] = [];

function answer(body: unknown, status = 200): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status });
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: URL, init?: RequestInit) => {
      const call = `${init?.method ?? 'GET'} ${new URL(input).pathname}`;
      calls.push(call);
      if (call === 'GET /api/settings') {
        return answer({
          inactivity_timeout_minutes: 2,
          token_refresh_interval_seconds: 60,
          presence_cookie_name: PRESENCE_COOKIE,
        });
      }
      if (call === 'GET /api/auth/admin/refresh') return answer({ access_token: 't', expires_in: 900, user });
      if (call === 'DELETE /api/auth/admin/logout') return answer(undefined, 204);
      return answer({ errorCode: 'NOT_FOUND', message: 'x' }, 404);
    }),
  );
  setCookie(PRESENCE_COOKIE, '1');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  clearCookie(PRESENCE_COOKIE);
});

function Status() {
  const { state } = useSession();
  return <p data-testid="status">{state.status === 'anonymous' ? `anonymous:${state.ended ?? ''}` : state.status}</p>;
}

async function renderSession() {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryScreenRouter>
          <SessionProvider>
            <Status />
          </SessionProvider>
        </MemoryScreenRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  await act(async () => {
    await vi.advanceTimersByTimeAsync(10);
  });
}

describe('staff session timers', () => {
  it('loads the session from the refresh cookie and refreshes the token periodically', async () => {
    await renderSession();
    expect(screen.getByTestId('status')).toHaveTextContent('signed-in');
    const refreshes = () => calls.filter((c) => c === 'GET /api/auth/admin/refresh').length;
    expect(refreshes()).toBe(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000);
    });
    expect(refreshes()).toBe(2);
  });

  it('stays anonymous without the presence cookie, and does not call refresh', async () => {
    clearCookie(PRESENCE_COOKIE);
    await renderSession();
    expect(screen.getByTestId('status')).toHaveTextContent('anonymous:');
    expect(calls).not.toContain('GET /api/auth/admin/refresh');
  });

  it('signs out after the inactivity timeout, and activity postpones it', async () => {
    await renderSession();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(90_000);
    });
    act(() => {
      window.dispatchEvent(new Event('mousemove'));
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(90_000);
    });
    expect(screen.getByTestId('status')).toHaveTextContent('signed-in');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(40_000);
    });
    expect(screen.getByTestId('status')).toHaveTextContent('anonymous:signed-out');
    expect(calls).toContain('DELETE /api/auth/admin/logout');
  });

  it('signs an administrator out within 5 s of the presence cookie disappearing', async () => {
    await renderSession();
    clearCookie(PRESENCE_COOKIE);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_000);
    });
    expect(screen.getByTestId('status')).toHaveTextContent('anonymous:signed-out');
    // The cookie is gone: there is no server session to end.
    expect(calls).not.toContain('DELETE /api/auth/admin/logout');
  });
});
