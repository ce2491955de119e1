import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { emailUnsubscribeRoutes } from '@pss/contract';
import { call } from '../../lib/api-client';
import { RemindersNotice } from './reminders-notice';

vi.mock('../../lib/api-client', () => ({ call: vi.fn() }));

afterEach(() => vi.mocked(call).mockReset());

const projectId = '11111111-1111-4111-8111-111111111111';

function renderNotice() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <RemindersNotice projectId={projectId} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return userEvent.setup();
}

describe('the reminders notice on the dashboard', () => {
  it('says the project’s reminders are off and since when, and turns them back on', async () => {
    let off = [{ project_id: projectId, since: '2026-03-02T09:00:00.000Z' }];
    vi.mocked(call).mockImplementation((async (route: unknown) => {
      if (route === emailUnsubscribeRoutes.reminders) return { off };
      off = [];
      return null;
    }) as never);
    const user = renderNotice();
    expect(await screen.findByText(/You turned off this project’s reminder emails on Mar 2, 2026/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Turn reminders back on' }));
    expect(call).toHaveBeenCalledWith(emailUnsubscribeRoutes.resumeReminders, { params: { projectId } });
    expect(await screen.findByRole('status')).toHaveTextContent('Reminder emails are on again.');
    expect(screen.queryByRole('button', { name: 'Turn reminders back on' })).toBeNull();
  });

  it('shows nothing while the project’s reminders are on', async () => {
    vi.mocked(call).mockResolvedValue({ off: [{ project_id: 'another', since: '2026-03-02T09:00:00.000Z' }] } as never);
    renderNotice();
    await vi.waitFor(() => expect(call).toHaveBeenCalled());
    expect(screen.queryByTestId('reminders-off')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
