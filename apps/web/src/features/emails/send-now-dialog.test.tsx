import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { emailSendingRoutes, type EmailTemplate } from '@pss/contract';
import { call } from '../../lib/api-client';
import { SendNowDialog } from './send-now-dialog';

vi.mock('../../lib/api-client', () => ({ call: vi.fn() }));

afterEach(() => vi.mocked(call).mockReset());

const projectId = '11111111-1111-4111-8111-111111111111';
const template: EmailTemplate = {
  id: '22222222-2222-4222-8222-222222222222',
  type: 'initial',
  name: 'Initial Launch Email',
  season_id: null,
  subject: 'Welcome',
  body: '<p>Hi</p>',
  button_text: 'Open',
  dashboard_url_text: '',
  enabled: true,
  send_mode: 'AUTOMATIC',
  updated_at: '2026-03-01T00:00:00.000Z',
};
const everyone = { all: true, except: [], filter: {} };
const skipped = [
  { participant_id: '33333333-3333-4333-8333-333333333333', name: 'Lee Late', reason: 'Starts on 2026-03-16.' },
  {
    participant_id: '44444444-4444-4444-8444-444444444444',
    name: 'Dan Done',
    reason: 'Has completed the cases of round 1.',
  },
];

function renderDialog(email: EmailTemplate = template) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onClose = vi.fn();
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <SendNowDialog projectId={projectId} template={email} onClose={onClose} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { user: userEvent.setup(), onClose };
}

describe('the “Send now” dialog', () => {
  it('asks the server first, lists who is skipped and why, and only then sends', async () => {
    vi.mocked(call).mockImplementation((async (route: unknown) => {
      if (route === emailSendingRoutes.sendPreview) return { recipients: 3, skipped };
      if (route === emailSendingRoutes.send) return { queued: 3, skipped };
      throw new Error('unexpected call');
    }) as never);
    const { user, onClose } = renderDialog();
    expect(
      await screen.findByText('Send this email now to the 3 active participants it is true for today?'),
    ).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(
      emailSendingRoutes.sendPreview,
      { params: { id: template.id }, body: everyone },
      expect.anything(),
    );
    expect(call).not.toHaveBeenCalledWith(emailSendingRoutes.send, expect.anything());
    const list = screen.getByRole('list', { name: '2 participants are skipped:' });
    expect(list).toHaveTextContent('Lee Late: Starts on 2026-03-16.');
    expect(list).toHaveTextContent('Dan Done: Has completed the cases of round 1.');

    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(call).toHaveBeenCalledWith(emailSendingRoutes.send, { params: { id: template.id }, body: everyone });
    expect(onClose).toHaveBeenCalled();
  });

  it('sends nothing when the email is true for nobody today', async () => {
    vi.mocked(call).mockResolvedValue({ recipients: 0, skipped: skipped.slice(0, 1) } as never);
    renderDialog();
    expect(await screen.findByText(/not true today for any active participant/)).toBeInTheDocument();
    expect(screen.getByText('Lee Late: Starts on 2026-03-16.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('asks nothing of a disabled email, says why it is not sent, and keeps its button off', () => {
    renderDialog({ ...template, enabled: false });
    expect(screen.getByText('This email is disabled')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(call).not.toHaveBeenCalled();
  });
});
