import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { emailRoutes, type EmailTemplate } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, refusal } from '../../test/api-stub';
import { renderScreen } from '../../test/render-screen';
import { EmailTemplatesTable } from './email-templates-table';
import type { EmailSet } from './emails-api';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const projectId = '11111111-1111-4111-8111-111111111111';
function template(n: number, type: string, name: string, more: Partial<EmailTemplate> = {}): EmailTemplate {
  return {
    id: `22222222-2222-4222-8222-${String(n).padStart(12, '0')}`,
    type: type as EmailTemplate['type'],
    name,
    season_id: null,
    subject: `${name} subject`,
    body: '<p>Hi</p>',
    button_text: 'Open',
    dashboard_url_text: '',
    enabled: true,
    send_mode: 'AUTOMATIC',
    updated_at: '2026-03-01T00:00:00.000Z',
    ...more,
  };
}
const initial = template(1, 'initial', 'Initial Launch Email');
const certificate = template(2, 'certificate_issued', 'Certificate Email', { enabled: false });

function renderTable(items: EmailTemplate[] = [initial, certificate], set: EmailSet = { kind: 'project' }) {
  // The server keeps what a switch sets: the list read again after it says the same.
  let stored = items;
  const setStatus = (args: { params: { id: string }; body: { enabled: boolean } }) => {
    stored = stored.map((e) => (e.id === args.params.id ? { ...e, enabled: args.body.enabled } : e));
    return stored.find((e) => e.id === args.params.id);
  };
  answerCalls([
    [emailRoutes.list, () => ({ items: stored })],
    [emailRoutes.listForSeason, () => ({ items: stored })],
    [emailRoutes.setStatus, setStatus],
  ]);
  return renderScreen(
    <EmailTemplatesTable
      projectId={projectId}
      set={set}
      caption="Project emails"
      editPath={(e) => `/emails/${e.id}`}
    />,
  );
}

describe('a set of emails', () => {
  it('shows each email with its subject, send mode and switch, and an editor link', async () => {
    renderTable();
    await screen.findByText('Initial Launch Email');
    const rows = within(screen.getByRole('table', { name: 'Project emails' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows[0]).toHaveTextContent('Initial Launch Email subject');
    expect(rows[0]).toHaveTextContent('Automatic');
    expect(screen.getByRole('switch', { name: 'Initial Launch Email enabled' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Certificate Email enabled' })).not.toBeChecked();
    expect(screen.getByRole('link', { name: 'Edit Initial Launch Email' })).toHaveAttribute(
      'href',
      `/emails/${initial.id}`,
    );
    // The Certificate Email names one certificate: it is never sent by hand.
    expect(screen.getByRole('button', { name: 'Send Initial Launch Email now' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send Certificate Email now' })).toBeNull();
    expect(callsTo(emailRoutes.list)).toEqual([{ params: { id: projectId } }]);
  });

  it('reads a season’s emails by the season’s name', async () => {
    renderTable([initial], { kind: 'season', seasonName: 'Spring 2026' });
    await screen.findByText('Initial Launch Email');
    expect(callsTo(emailRoutes.listForSeason)).toEqual([
      { params: { id: projectId }, query: { seasonName: 'Spring 2026' } },
    ]);
  });

  it('turns an email off by its switch', async () => {
    const { user } = renderTable();
    await user.click(await screen.findByRole('switch', { name: 'Initial Launch Email enabled' }));
    await waitFor(() =>
      expect(callsTo(emailRoutes.setStatus)).toEqual([{ params: { id: initial.id }, body: { enabled: false } }]),
    );
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Initial Launch Email enabled' })).not.toBeChecked());
  });

  it('puts the switch back when the server refuses', async () => {
    answerCalls([
      [emailRoutes.list, { items: [initial] }],
      [emailRoutes.setStatus, refusal(403, 'FORBIDDEN')],
    ]);
    const { user } = renderScreen(
      <EmailTemplatesTable
        projectId={projectId}
        set={{ kind: 'project' }}
        caption="Project emails"
        editPath={() => '/'}
      />,
    );
    await user.click(await screen.findByRole('switch', { name: 'Initial Launch Email enabled' }));
    await waitFor(() => expect(callsTo(emailRoutes.setStatus)).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Initial Launch Email enabled' })).toBeChecked());
  });

  it('says when the set has no emails', async () => {
    renderTable([]);
    expect(await screen.findByText('No emails.')).toBeInTheDocument();
  });
});
