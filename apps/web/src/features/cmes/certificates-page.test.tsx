import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { certificateRoutes, type Certificate } from '@pss/contract';
import { call } from '../../lib/api-client';
import { answerCalls, callsTo, pageOf, refusal } from '../../test/api-stub';
import { fill, renderScreen, searchOf } from '../../test/render-screen';
import { CertificatesPage } from './certificates-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
afterEach(() => vi.mocked(call).mockReset());

const projectId = '22222222-2222-4222-8222-222222222222';
const valid: Certificate = {
  id: '44444444-4444-4444-8444-444444444441',
  code: 'ABCD-EFGH-JKMN-PQRS-TVWX',
  cme_id: null,
  user_id: '55555555-5555-4555-8555-555555555551',
  participant_name: 'Ada Lovelace',
  email: 'ada@example.org',
  employee_id: null,
  profession: null,
  credits: 2,
  moc_points: null,
  course_id: null,
  min_cases: 4,
  cases_count: 4,
  issued_at: '2026-02-10T10:00:00.000Z',
  revoked_at: null,
  revoked_reason: null,
  revoked_by_name: null,
};
const revoked: Certificate = {
  ...valid,
  id: '44444444-4444-4444-8444-444444444442',
  code: 'ZZZZ-EFGH-JKMN-PQRS-TVWX',
  participant_name: 'Ben Bell',
  email: 'ben@example.org',
  revoked_at: '2026-02-12T10:00:00.000Z',
  revoked_reason: 'Issued in error',
  revoked_by_name: 'Cleo Admin',
};

const url = `/projects/${projectId}/certificates`;

function renderPage(rows: Certificate[] = [valid, revoked], at = url, revoke: unknown = valid) {
  answerCalls([
    [certificateRoutes.list, pageOf(rows)],
    [certificateRoutes.revoke, revoke],
  ]);
  return renderScreen(<CertificatesPage />, { url: at, path: '/projects/:projectId/certificates' });
}

const lastQuery = () => callsTo(certificateRoutes.list).at(-1)?.query;
const reason = () => screen.getByRole('textbox', { name: /^Reason/ });

describe('the certificates table', () => {
  it('shows each certificate: who, credits, code and whether it stands, with revoking only for a valid one', async () => {
    renderPage();
    await screen.findByText('Ada Lovelace');
    const table = screen.getByRole('table', { name: 'CME certificates' });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(first).toHaveTextContent('ada@example.org');
    expect(first).toHaveTextContent('ABCD-EFGH-JKMN-PQRS-TVWX');
    expect(within(first!).getByText('Valid')).toBeInTheDocument();
    expect(within(second!).getByText('Revoked')).toBeInTheDocument();
    expect(second).toHaveTextContent(/by Cleo Admin: Issued in error/);
    expect(screen.getByRole('button', { name: 'Revoke the certificate of Ada Lovelace' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke the certificate of Ben Bell' })).toBeNull();
    expect(lastQuery()).toEqual({ page: 1, limit: 25, filter: '{}' });
  });

  it('filters by status and sorts through the address, from the first page', async () => {
    const { user, address } = renderPage([valid], `${url}?page=2`);
    await screen.findByText('Ada Lovelace');
    await user.click(screen.getByRole('radio', { name: 'Revoked' }));
    await waitFor(() => expect(searchOf(address())).toEqual({ status: 'REVOKED' }));
    await waitFor(() => expect(lastQuery()).toEqual({ page: 1, limit: 25, filter: '{"status":"REVOKED"}' }));
    await user.click(screen.getByRole('button', { name: 'Sort by Participant' }));
    await waitFor(() =>
      expect(lastQuery()).toEqual({
        page: 1,
        limit: 25,
        sort: 'participant_name:ASC',
        filter: '{"status":"REVOKED"}',
      }),
    );
  });

  it('says there are none yet, and that none matches once filtered', async () => {
    const { user } = renderPage([]);
    expect(await screen.findByText(/^No certificates yet\./)).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Valid' }));
    expect(await screen.findByText('No certificates match.')).toBeInTheDocument();
  });
});

describe('revoking a certificate', () => {
  it('needs a reason that is not blank, and sends nothing without one', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Revoke the certificate of Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke certificate' });
    expect(dialog).toHaveTextContent('The certificate of Ada Lovelace (ABCD-EFGH-JKMN-PQRS-TVWX) will show as revoked');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() =>
      expect(reason()).toHaveAccessibleDescription(expect.stringContaining('This field is required.')),
    );
    await user.type(reason(), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() =>
      expect(reason()).toHaveAccessibleDescription(
        expect.stringContaining('This field cannot be empty or contain only spaces.'),
      ),
    );
    expect(callsTo(certificateRoutes.revoke)).toEqual([]);
  });

  it('revokes the one certificate with the reason given, trimmed, and closes', async () => {
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Revoke the certificate of Ada Lovelace' }));
    await fill(user, reason(), '  Issued in error ');
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    await waitFor(() =>
      expect(callsTo(certificateRoutes.revoke)).toEqual([
        { params: { id: valid.id }, body: { reason: 'Issued in error' } },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Revoke certificate' })).toBeNull());
  });

  it('keeps the dialog open and says why when the revocation fails', async () => {
    const { user } = renderPage([valid], url, refusal(404, 'NOT_FOUND'));
    await user.click(await screen.findByRole('button', { name: 'Revoke the certificate of Ada Lovelace' }));
    await fill(user, reason(), 'Issued in error');
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke certificate' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The requested item could not be found.');
  });
});
