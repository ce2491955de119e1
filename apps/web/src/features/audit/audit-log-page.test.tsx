import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { auditActionName, auditRoutes, projectRoutes, type AuditEvent, type CurrentUser } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, pageOf } from '../../test/api-stub';
import { renderScreen, searchOf } from '../../test/render-screen';
import { AuditLogPage } from './audit-log-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
// The staff shell's session, as a signed-in member's (the page renders only for one).
const session = vi.hoisted(() => ({ user: null as CurrentUser | null }));
vi.mock('../../lib/session/session-provider', () => ({
  useSession: () => ({ state: { status: 'signed-in', user: session.user } }),
  useHomePath: () => '/',
}));
afterEach(() => vi.mocked(call).mockReset());

const superadmin: CurrentUser = {
  id: '99999999-9999-4999-8999-999999999999',
  email: 'root@example.org',
  first_name: 'Root',
  last_name: 'Admin',
  role: 'superadmin',
  client_id: null,
};
const clientId = '33333333-3333-4333-8333-333333333333';
const projectId = '11111111-1111-4111-8111-111111111111';
const caseId = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

const event: AuditEvent = {
  id: '10000000-0000-4000-8000-000000000001',
  at: '2026-03-02T10:00:00.000Z',
  actor: { id: superadmin.id, email: 'cleo@example.org', role: 'ADMIN', client_id: clientId },
  action: 'cases.update',
  target: { type: 'case', id: caseId },
  project_id: projectId,
  client_id: clientId,
  request_id: null,
  ip: null,
  changes: {},
  outcome: 'success',
  account: null,
  hash: null,
  prev_hash: null,
};
const refused: AuditEvent = {
  ...event,
  id: '10000000-0000-4000-8000-000000000002',
  action: 'clients.remove',
  target: { type: 'client', id: clientId },
  project_id: null,
  outcome: 'CLIENT_HAS_PROJECTS',
};

function renderLog(items: AuditEvent[] = [event, refused], url = '/audit-log', next: string | null = null) {
  session.user = superadmin;
  answerCalls([
    [auditRoutes.list, { items, next_cursor: next }],
    [projectRoutes.list, pageOf([{ id: projectId, name: 'Spring study' }])],
  ]);
  return renderScreen(<AuditLogPage />, { url });
}

const lastQuery = () => callsTo(auditRoutes.list).at(-1)?.query;
const rows = () =>
  within(screen.getByRole('table', { name: 'Audit events, newest first' }))
    .getAllByRole('row')
    .slice(1);

describe('the audit log', () => {
  it('shows each event: who, what, on which record (linked), in which project, and how it ended', async () => {
    renderLog();
    await screen.findAllByTestId('audit-action');
    const [first, second] = rows();
    expect(first).toHaveTextContent('cleo@example.org');
    expect(within(first!).getByTestId('audit-action')).toHaveTextContent(auditActionName('cases.update'));
    expect(within(first!).getByRole('link', { name: 'aaaaaaaa…' })).toHaveAttribute(
      'href',
      `/project-management/clients/${clientId}/projects/${projectId}/cases/case-details/${caseId}`,
    );
    await waitFor(() => expect(first).toHaveTextContent('Spring study'));
    expect(second).toHaveTextContent('CLIENT_HAS_PROJECTS');
    expect(lastQuery()).toEqual({ limit: 50 });
  });

  it('pages to older events by the cursor the server gave, and back to the newest', async () => {
    const { user, address } = renderLog([event], '/audit-log', '812');
    await screen.findAllByTestId('audit-action');
    expect(screen.getByText('Page 1, the newest events')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(searchOf(address())).toEqual({ cursor: '812' }));
    await waitFor(() => expect(lastQuery()).toEqual({ limit: 50, cursor: '812' }));
    expect(screen.getByText('Page 2, older events')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Newer' }));
    await waitFor(() => expect(searchOf(address())).toEqual({}));
  });

  it('filters by the action through the address, from the newest page', async () => {
    const { user, address } = renderLog([event], '/audit-log?cursor=812');
    await screen.findAllByTestId('audit-action');
    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: auditActionName('clients.remove') }));
    await waitFor(() => expect(searchOf(address())).toEqual({ action: 'clients.remove' }));
    await waitFor(() => expect(lastQuery()).toEqual({ limit: 50, action: 'clients.remove' }));
  });

  it('says nothing is recorded yet, or that no event matches the filters', async () => {
    renderLog([]);
    expect(await screen.findByText('Nothing recorded yet.')).toBeInTheDocument();
  });

  it('says no event matches once filtered', async () => {
    renderLog([], `/audit-log?target_type=case`);
    expect(await screen.findByText('No events match these filters.')).toBeInTheDocument();
    expect(lastQuery()).toEqual({ limit: 50, target_type: 'case' });
  });
});
