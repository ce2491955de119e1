import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { authRoutes } from '@pss/contract';
import { MemoryScreenRouter } from '../../lib/screen-router';
import { call } from '../../lib/api-client';
import { CreatePasswordPage } from './create-password-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(async () => null) }));
const signedIn = { status: 'signed-in', user: { has_password: true } };
let session: { status: string; user?: { has_password: boolean } } = { status: 'anonymous' };
vi.mock('./participant-session', () => ({
  useParticipantSession: () => ({ state: session, passwordCreated: vi.fn() }),
}));

afterEach(() => {
  vi.mocked(call).mockClear();
  session = { status: 'anonymous' };
});

function renderPage(url: string) {
  render(
    <MantineProvider env="test">
      <MemoryScreenRouter initialEntries={[url]}>
        <CreatePasswordPage />
      </MemoryScreenRouter>
    </MantineProvider>,
  );
  return userEvent.setup();
}

/** A field by its label; the message beside it is its accessible description. */
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}`));

describe('setting a password', () => {
  it('says beside the fields that the password is too short and that the two differ, and sends nothing', async () => {
    const user = renderPage('/create-password?code=c0de');
    await user.type(field('New password'), 'abc');
    await user.type(field('Repeat the password'), 'abd');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    await waitFor(() => expect(field('New password')).toHaveAccessibleDescription(/at least 6/i));
    expect(field('Repeat the password')).toHaveAccessibleDescription('The two passwords differ.');
    expect(call).not.toHaveBeenCalled();
  });

  it('sends the code with a password that passes', async () => {
    const user = renderPage('/create-password?code=c0de');
    await user.type(field('New password'), 'a-longer-secret');
    await user.type(field('Repeat the password'), 'a-longer-secret');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(
        authRoutes.setPasswordWithCode,
        { body: { code: 'c0de', password: 'a-longer-secret' } },
        { isLogin: true },
      ),
    );
  });

  it('changes a password with the current one when signed in', async () => {
    session = signedIn;
    const user = renderPage('/create-password');
    await user.type(field('Current password'), 'old-secret');
    await user.type(field('New password'), 'new-secret');
    await user.type(field('Repeat the password'), 'new-secret');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(authRoutes.changeParticipantPassword, {
        body: { password: 'new-secret', current_password: 'old-secret' },
      }),
    );
  });

  it('asks for an email beside its field before sending a link', async () => {
    const user = renderPage('/create-password');
    await user.click(screen.getByRole('button', { name: 'Email me a link' }));
    await waitFor(() => expect(field('Email')).toHaveAccessibleDescription('An email address is required.'));
    expect(call).not.toHaveBeenCalled();
    await user.type(field('Email'), 'maria@example.org');
    await user.click(screen.getByRole('button', { name: 'Email me a link' }));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(
        authRoutes.sendPasswordCode,
        { body: { email: 'maria@example.org' } },
        { isLogin: true },
      ),
    );
  });
});
