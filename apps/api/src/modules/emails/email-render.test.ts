import { describe, expect, it } from 'vitest';
import { htmlToText, longDate, renderEmail, type PlaceholderValues } from './email-render.js';

const values: PlaceholderValues = {
  first_name: 'Ann',
  last_name: 'O’Neil <b>',
  salutation: 'Dr.',
  dashboard_link: 'unused',
  project_name: 'Heart & Lung',
  season_name: 'Spring 2026',
  round_number: '2',
  round_end_date: longDate('2026-03-28'),
  email: 'help@example.org',
  phone: '+1 555 0100',
};
const link = 'https://pss.example.org/participant/link/abc.def?x=1&y=2';

describe('rendering an email', () => {
  const rendered = renderEmail(
    {
      subject: '{project_name}: round {round_number}\r\nBcc: evil@example.org',
      body: '<p>Dear {salutation} {last_name},</p><ul><li>Ends {round_end_date}</li></ul><p>Copy: {dashboard_link}</p><p>Mail {email} or call {phone}.</p>',
      buttonText: 'Open {season_name}',
      dashboardUrlText: 'Your dashboard',
    },
    values,
    link,
  );

  it('fills the subject on one line (no header can be slipped in)', () => {
    expect(rendered.subject).toBe('Heart & Lung: round 2 Bcc: evil@example.org');
  });

  it('escapes values in the HTML part, and links the button and the URL text to the participant’s link', () => {
    expect(rendered.html).toContain('Dear Dr. O’Neil &lt;b&gt;,');
    expect(rendered.html).toContain('Ends March 28, 2026');
    const href = 'href="https://pss.example.org/participant/link/abc.def?x=1&amp;y=2"';
    expect(rendered.html.split(href).length - 1).toBe(3); // the copy line, the button, the URL text
    expect(rendered.html).toContain('>Open Spring 2026</a>');
    expect(rendered.html).toContain('>Your dashboard</a>');
  });

  it('has a plain-text part with the same words and the link', () => {
    expect(rendered.text).toContain('Dear Dr. O’Neil <b>,');
    expect(rendered.text).toContain('- Ends March 28, 2026');
    expect(rendered.text).toContain(`Copy: ${link}`);
    expect(rendered.text).toContain(`Open Spring 2026: ${link}`);
    expect(rendered.text).toContain('Mail help@example.org or call +1 555 0100.');
    expect(rendered.text).not.toMatch(/<\/?(p|li|a)\b/);
  });

  it('reads links and entities back as text', () => {
    expect(htmlToText('<p>See <a href="https://x.test/a">the guide</a> &amp; more</p><p>Bye</p>')).toBe(
      'See the guide (https://x.test/a) & more\n\nBye',
    );
  });
});
