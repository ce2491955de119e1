import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { emailUnsubscribeRoutes } from '@pss/contract';
import { ApiError } from '../../lib/api-error';
import { call } from '../../lib/api-client';
import { MemoryScreenRouter } from '../../lib/screen-router';
import { UnsubscribePage } from './unsubscribe-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(async () => null) }));

afterEach(() => vi.mocked(call).mockReset());

function renderPage(url: string) {
  render(
    <MantineProvider env="test">
      <MemoryScreenRouter initialEntries={[url]}>
        <UnsubscribePage />
      </MemoryScreenRouter>
    </MantineProvider>,
  );
  return userEvent.setup();
}

describe('the unsubscribe page', () => {
  it('unsubscribes only when its button is pressed (a scanner opening the page changes nothing)', async () => {
    const user = renderPage('/unsubscribe?token=t0ken');
    expect(call).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Stop reminders' }));
    expect(call).toHaveBeenCalledWith(
      emailUnsubscribeRoutes.oneClick,
      { params: { token: 't0ken' }, body: { 'List-Unsubscribe': 'One-Click' } },
      { isLogin: true },
    );
    expect(await screen.findByRole('status')).toHaveTextContent('No more reminders from this project');
    expect(screen.getByRole('link', { name: 'Go to my dashboard' })).toHaveAttribute('href', '/participant');
  });

  it('says why an altered or expired link does nothing', async () => {
    vi.mocked(call).mockRejectedValueOnce(new ApiError(400, 'UNSUBSCRIBE_LINK_INVALID'));
    const user = renderPage('/unsubscribe?token=t0ken');
    await user.click(screen.getByRole('button', { name: 'Stop reminders' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This unsubscribe link is not valid or has expired.');
    expect(screen.queryByRole('button', { name: 'Stop reminders' })).toBeNull();
  });

  it('asks for the emailed link when opened without one', () => {
    renderPage('/unsubscribe');
    expect(screen.getByText(/unsubscribe link from a reminder email/)).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
