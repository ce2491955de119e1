import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryScreenRouter, Route, Routes, useLocation } from '../../lib/screen-router';
import { PRESENCE_COOKIE } from '@pss/contract';
import { clearCookie } from '../../lib/cookies';
import { SessionProvider } from '../../lib/session/session-provider';
import { KeycloakLandingPage } from './keycloak-landing-page';
import { UnauthorizedPage } from './unauthorized-page';

// The identity provider's answer is handed to the API once (also under StrictMode's double
// effects), and where the page then goes: the administrator's client, or /unauthorized with the reason.
const user = { id: '1', email: 'a@b.test', first_name: 'Alex', last_name: 'Admin', role: 'admin', client_id: 'c1' };
const callbacks: unknown[] = [];
let callbackAnswer: () => Response;

beforeEach(() => {
  callbacks.length = 0;
  clearCookie(PRESENCE_COOKIE);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: URL, init?: RequestInit) => {
      const path = new URL(input).pathname;
      if (path === '/api/auth/oidc/callback') {
        callbacks.push(JSON.parse(String(init?.body)));
        return callbackAnswer();
      }
      return new Response(JSON.stringify({ errorCode: 'NOT_FOUND', message: 'x' }), { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderAt(url: string) {
  render(
    <StrictMode>
      <MantineProvider>
        <QueryClientProvider client={new QueryClient()}>
          <MemoryScreenRouter initialEntries={[url]}>
            <SessionProvider>
              <Routes>
                <Route path="/keycloak-landing" element={<KeycloakLandingPage />} />
                <Route path="/unauthorized" element={<UnauthorizedPage />} />
                <Route path="*" element={<Where />} />
              </Routes>
            </SessionProvider>
          </MemoryScreenRouter>
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  );
}

describe('the identity provider’s landing page', () => {
  it('hands the answer to the API once and goes to the administrator’s client', async () => {
    callbackAnswer = () => new Response(JSON.stringify({ access_token: 't', expires_in: 900, user }), { status: 200 });
    renderAt('/keycloak-landing?code=abc&state=xyz&iss=https%3A%2F%2Fsso.test');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/project-management/clients/c1'));
    expect(callbacks).toEqual([{ query: '?code=abc&state=xyz&iss=https%3A%2F%2Fsso.test' }]);
  });

  it('sends a refusal to /unauthorized, which says why in the catalogue’s words', async () => {
    callbackAnswer = () =>
      new Response(JSON.stringify({ errorCode: 'OIDC_ACCOUNT_UNKNOWN', message: 'x' }), { status: 403 });
    renderAt('/keycloak-landing?code=abc&state=xyz');
    expect(
      await screen.findByText('No client administrator account on this platform has your email address.'),
    ).toBeVisible();
    expect(callbacks).toHaveLength(1);
  });

  it('without an answer, sends an anonymous visitor to sign in', async () => {
    renderAt('/keycloak-landing');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/login-landing'));
    expect(callbacks).toHaveLength(0);
  });
});
