import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { authRoutes } from '@pss/contract';
import { ApiError } from '../../lib/api-error';
import { call } from '../../lib/api-client';
import { MemoryScreenRouter } from '../../lib/screen-router';
import { UnlockPage } from './unlock-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(async () => null) }));

afterEach(() => vi.mocked(call).mockReset());

function renderPage(url: string) {
  render(
    <MantineProvider env="test">
      <MemoryScreenRouter initialEntries={[url]}>
        <UnlockPage />
      </MemoryScreenRouter>
    </MantineProvider>,
  );
  return userEvent.setup();
}

describe('the unlock page', () => {
  it('spends the link’s token only when asked, and says the account is unlocked', async () => {
    const user = renderPage('/unlock-account?token=t0ken');
    // Opening the page (as a mail scanner does) sends nothing.
    expect(call).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Unlock my account' }));
    expect(call).toHaveBeenCalledWith(authRoutes.unlock, { body: { token: 't0ken' } }, { isLogin: true });
    expect(await screen.findByRole('status')).toHaveTextContent('Your account is unlocked');
    expect(screen.getByRole('link', { name: 'Staff sign-in' })).toHaveAttribute('href', '/login-landing');
  });

  it('says why a used or expired link does nothing', async () => {
    vi.mocked(call).mockRejectedValueOnce(new ApiError(400, 'UNLOCK_LINK_INVALID'));
    const user = renderPage('/unlock-account?token=t0ken');
    await user.click(screen.getByRole('button', { name: 'Unlock my account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This unlock link has expired or was already used.');
    expect(screen.queryByRole('button', { name: 'Unlock my account' })).toBeNull();
  });

  it('asks for the emailed link when opened without one', () => {
    renderPage('/unlock-account');
    expect(screen.getByText(/with the link from the email/)).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
