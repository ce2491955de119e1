import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryScreenRouter } from '../../lib/screen-router';
import { PRESENCE_COOKIE, type ClientSettings } from '@pss/contract';
import { SessionProvider } from '../../lib/session/session-provider';
import { LoginLandingPage } from './login-landing-page';

// What the sign-in screen offers a client administrator follows the server's settings:
// the organisation's button with a provider, the password form unless ADMIN_PASSWORD_LOGIN=false.
function serve(settings: Pick<ClientSettings, 'oidc_enabled' | 'admin_password_login'>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: URL) => {
      if (new URL(input).pathname === '/api/settings') {
        const body = {
          inactivity_timeout_minutes: 30,
          token_refresh_interval_seconds: 600,
          presence_cookie_name: PRESENCE_COOKIE,
          ...settings,
        };
        return new Response(JSON.stringify(body), { status: 200 });
      }
      return new Response(JSON.stringify({ errorCode: 'NOT_FOUND', message: 'x' }), { status: 404 });
    }),
  );
}
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryScreenRouter initialEntries={['/login-landing']}>
          <SessionProvider>
            <LoginLandingPage />
          </SessionProvider>
        </MemoryScreenRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('the sign-in screen', () => {
  it('offers client administrators their organisation beside the password, and provider staff only the password', async () => {
    serve({ oidc_enabled: true, admin_password_login: true });
    renderPage();
    const link = await screen.findByRole('link', { name: 'Sign in with your organisation' });
    expect(link).toHaveAttribute('href', '/api/auth/oidc/start');
    expect(screen.getByLabelText(/^Password/)).toBeInTheDocument();
    await userEvent.click(screen.getByText('Provider employee'));
    expect(screen.queryByRole('link', { name: 'Sign in with your organisation' })).toBeNull();
    expect(screen.getByLabelText(/^Password/)).toBeInTheDocument();
  });

  it('hides the administrators’ password form when ADMIN_PASSWORD_LOGIN=false', async () => {
    serve({ oidc_enabled: true, admin_password_login: false });
    renderPage();
    await screen.findByRole('link', { name: 'Sign in with your organisation' });
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
    await userEvent.click(screen.getByText('Provider employee'));
    expect(screen.getByLabelText(/^Password/)).toBeInTheDocument();
  });

  it('shows no organisation button without a provider', async () => {
    serve({ oidc_enabled: false, admin_password_login: true });
    renderPage();
    expect(await screen.findByLabelText(/^Password/)).toBeInTheDocument();
    // Let the settings arrive before looking for what they would add.
    await vi.waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('link', { name: 'Sign in with your organisation' })).toBeNull();
  });

  it('checks both fields before sending anything, and drops a message once its field is edited', async () => {
    serve({ oidc_enabled: false, admin_password_login: true });
    renderPage();
    const email = await screen.findByLabelText(/^Email/);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
    await userEvent.type(email, 'not-an-email');
    expect(screen.getAllByText('This field is required.')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText(/valid email/i)).toBeInTheDocument();
    // Only the settings were asked for: no sign-in went out with fields in error.
    expect(vi.mocked(fetch).mock.calls.every(([input]) => new URL(input as URL).pathname === '/api/settings')).toBe(
      true,
    );
  });
});
