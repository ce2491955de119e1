import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { certificateRoutes, type CertificateVerification } from '@pss/contract';
import { call } from '../../lib/api-client';
import { clearQueryCache } from '../../lib/query-cache';
import { answerCalls, callsTo, refusal } from '../../test/api-stub';
import { fill, renderScreen } from '../../test/render-screen';
import { VerifyPage } from './verify-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
// The page keeps its answers in the app's one cache (lib/query-provider.tsx).
afterEach(() => {
  vi.mocked(call).mockReset();
  clearQueryCache();
});

const code = 'ABCD-EFGH-JKMN-PQRS-TVWX';
const certificate: CertificateVerification = {
  valid: true,
  code,
  participant_name: 'Ada Lovelace',
  profession: 'MD',
  project_name: 'Spring study',
  client_name: 'North Clinic',
  credits: 2.5,
  moc_points: null,
  course_id: 'TOT-7',
  issued_at: '2026-02-10T12:00:00.000Z',
  revoked_at: null,
};

function renderVerify(url: string, answer: unknown = certificate) {
  answerCalls([[certificateRoutes.verify, answer]]);
  return renderScreen(<VerifyPage />, { url, path: ['/verify', '/verify/:code'] });
}

const codeField = () => screen.getByRole('textbox', { name: 'Certificate code' });
/** The certificate's facts as the table shows them, row heading to value. */
const facts = () =>
  Object.fromEntries(
    within(screen.getByRole('table'))
      .getAllByRole('row')
      .map((row) => [within(row).getByRole('rowheader').textContent, within(row).getByRole('cell').textContent]),
  );

describe('checking a certificate', () => {
  it('refuses what cannot be a code beside the field, and checks nothing', async () => {
    const { user, address } = renderVerify('/verify');
    await fill(user, codeField(), 'ABCD-1234');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(codeField()).toHaveAccessibleDescription(
      expect.stringContaining('This is not a certificate code: it has five groups of four letters and digits.'),
    );
    expect(address()).toBe('/verify');
    expect(callsTo(certificateRoutes.verify)).toEqual([]);
  });

  it('reads a code as a person types it (lower case, spaces, O for 0) and opens its page', async () => {
    const { user, address } = renderVerify('/verify');
    await fill(user, codeField(), 'abcd efgh jkmn pqrs tvwx');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await waitFor(() => expect(address()).toBe(`/verify/${code}`));
    expect(await screen.findByText('Valid certificate')).toBeInTheDocument();
    expect(callsTo(certificateRoutes.verify)).toEqual([{ params: { code } }]);
  });

  it('shows what a valid certificate certifies, leaving out what it has not', async () => {
    renderVerify(`/verify/${code}`);
    expect(await screen.findByTestId('certificate-status')).toHaveTextContent('Valid certificate');
    expect(facts()).toEqual({
      'Issued to': 'Ada Lovelace, MD',
      Programme: 'Spring study (North Clinic)',
      'CME credits': '2.5',
      'Course ID': 'TOT-7',
      'Issued on': expect.any(String),
      'Certificate code': code,
    });
  });

  it('says when a certificate was revoked', async () => {
    renderVerify(`/verify/${code}`, { ...certificate, valid: false, revoked_at: '2026-03-01T12:00:00.000Z' });
    expect(await screen.findByTestId('certificate-status')).toHaveTextContent(/^This certificate was revoked on /);
  });

  it('says no certificate has an unknown code, and offers to check another', async () => {
    renderVerify(`/verify/${code}`, refusal(404, 'NOT_FOUND'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'No certificate has this code. Check the code and try again.',
    );
    expect(screen.getByRole('link', { name: 'Check another code' })).toHaveAttribute('href', '/verify');
  });

  it('says what went wrong when the check itself failed', async () => {
    renderVerify(`/verify/${code}`, refusal(429, 'TOO_MANY_REQUESTS'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many attempts. Please wait a few minutes and try again.',
    );
  });

  it('says an address that holds no code is not one, and offers the form', () => {
    renderVerify('/verify/not-a-code');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This is not a certificate code: it has five groups of four letters and digits.',
    );
    expect(codeField()).toHaveValue('not-a-code');
    expect(callsTo(certificateRoutes.verify)).toEqual([]);
  });
});
