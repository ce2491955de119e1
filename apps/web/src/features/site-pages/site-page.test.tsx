import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { serviceRoutes, type SitePage } from '@pss/contract';
import { call } from '../../lib/api-client';
import { clearQueryCache } from '../../lib/query-cache';
import { answerCalls, callsTo, refusal } from '../../test/api-stub';
import { renderScreen } from '../../test/render-screen';
import { PrivacyPolicyPage, SupportPage } from './site-page';

vi.mock('../../lib/api-client', () => ({ call: vi.fn(), callRaw: vi.fn() }));
// The public pages keep their answers in the app's one cache (lib/query-provider.tsx).
afterEach(() => {
  vi.mocked(call).mockReset();
  clearQueryCache();
});

const support: SitePage = {
  name: 'support',
  title: 'Support',
  body: '<p>We answer within a day.</p>',
  support_email: 'help@example.org',
  support_phone: '+1 (555) 010-0100',
  customised: false,
};

describe('a site page', () => {
  it('shows the page the server holds, under its title, with the footer’s links', async () => {
    answerCalls([
      [
        serviceRoutes.page,
        { ...support, name: 'privacy-policy', title: 'Privacy Policy', body: '<p>We keep little.</p>' },
      ],
    ]);
    renderScreen(<PrivacyPolicyPage />, { url: '/privacy-policy' });
    expect(await screen.findByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('We keep little.')).toBeInTheDocument();
    expect(callsTo(serviceRoutes.page)).toEqual([{ params: { name: 'privacy-policy' } }]);
    // The privacy page names no contact: only the support page does.
    expect(screen.queryByText('Contact')).toBeNull();
    const footer = screen.getByRole('contentinfo', { name: 'About this site' });
    expect(within(footer).getByRole('link', { name: 'Terms of Use' })).toHaveAttribute('href', '/terms-of-use');
  });

  it('names the support contact on the support page, the phone as a number to dial', async () => {
    answerCalls([[serviceRoutes.page, support]]);
    renderScreen(<SupportPage />, { url: '/support' });
    const email = await screen.findByRole('link', { name: 'help@example.org' });
    expect(email).toHaveAttribute('href', 'mailto:help@example.org');
    expect(screen.getByRole('link', { name: '+1 (555) 010-0100' })).toHaveAttribute('href', 'tel:+15550100100');
  });

  it('leaves the phone out when none is set', async () => {
    answerCalls([[serviceRoutes.page, { ...support, support_phone: '' }]]);
    renderScreen(<SupportPage />, { url: '/support' });
    await screen.findByRole('link', { name: 'help@example.org' });
    expect(screen.queryByRole('link', { name: /^\+1/ })).toBeNull();
  });

  it('says why the page could not be read', async () => {
    answerCalls([[serviceRoutes.page, refusal(503, 'DATABASE_UNAVAILABLE')]]);
    renderScreen(<SupportPage />, { url: '/support' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The database could not be reached. Please try again in a moment.',
    );
  });
});
