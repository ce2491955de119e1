import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { emailDeliveryRoutes, type EmailDeliveryStats } from '@pss/contract';
import { call } from '../../../lib/api-client';
import { EmailDeliveryTable } from './email-delivery-table';

vi.mock('../../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));

afterEach(() => vi.mocked(call).mockReset());

const projectId = '11111111-1111-4111-8111-111111111111';
const initial = { email_type: 'initial' as const, email_name: 'Initial Launch Email', complained: 0, suppressed: 0 };

function renderWith(stats: EmailDeliveryStats) {
  vi.mocked(call).mockResolvedValue(stats as never);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <EmailDeliveryTable projectId={projectId} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('the Progress Dashboard’s email delivery', () => {
  it('lists each email type’s figures and the unsubscribed, and warns when more than 2 % bounce', async () => {
    renderWith({
      by_type: [{ ...initial, sent: 40, bounced: 2, suppressed: 1 }],
      unsubscribed: 3,
      bounce_rate: 0.05,
      bounce_warning: true,
    });
    await screen.findByRole('cell', { name: 'Initial Launch Email' });
    const table = screen.getByTestId('email-delivery');
    expect(
      within(table)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Initial Launch Email', '40', '2', '0', '1']);
    expect(screen.getByTestId('bounce-warning')).toHaveTextContent('5% of the emails sent bounced, more than 2 %.');
    expect(screen.getByText('3 participants turned this project’s reminder emails off.')).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(emailDeliveryRoutes.stats, { params: { id: projectId } }, expect.anything());
  });

  it('does not warn at 2 % or under', async () => {
    renderWith({
      by_type: [{ ...initial, sent: 50, bounced: 1 }],
      unsubscribed: 0,
      bounce_rate: 0.02,
      bounce_warning: false,
    });
    await screen.findByRole('cell', { name: 'Initial Launch Email' });
    expect(screen.queryByTestId('bounce-warning')).toBeNull();
    expect(screen.queryByText(/turned this project’s reminder emails off/)).toBeNull();
  });

  it('says so when the project has sent nothing', async () => {
    renderWith({ by_type: [], unsubscribed: 0, bounce_rate: 0, bounce_warning: false });
    expect(await screen.findByText('No email has been sent from this project yet.')).toBeInTheDocument();
  });
});
