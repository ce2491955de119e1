import { describe, expect, it } from 'vitest';
import { certificateValues, htmlToText, longDate, renderEmail, type PlaceholderValues } from './email-render.js';

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
  ...certificateValues('https://pss.example.org', null),
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
    expect(rendered.html.split(href).length - 1).toBe(3); // the copy line, the button, the fallback's address
    expect(rendered.html).toContain('>Open Spring 2026</a>');
    // The fallback comes after the button, its words then the address written out.
    const button = rendered.html.indexOf('>Open Spring 2026</a>');
    const fallback = rendered.html.indexOf('Your dashboard <a href=');
    expect(fallback).toBeGreaterThan(button);
    expect(rendered.html).toContain('>https://pss.example.org/participant/link/abc.def?x=1&amp;y=2</a></p></div>');
  });

  it('has a plain-text part with the same words and the link', () => {
    expect(rendered.text).toContain('Dear Dr. O’Neil <b>,');
    expect(rendered.text).toContain('- Ends March 28, 2026');
    expect(rendered.text).toContain(`Copy: ${link}`);
    expect(rendered.text).toContain(`Open Spring 2026: ${link}`);
    expect(rendered.text).toContain('Mail help@example.org or call +1 555 0100.');
    expect(rendered.text).not.toMatch(/<\/?(p|li|a)\b/);
  });

  it('fills a certificate’s placeholders, its verification page a link in the body and a plain line elsewhere', () => {
    const certificate = certificateValues('https://pss.example.org', {
      code: 'AB12-CD34-EF56-GH78-JK90',
      credits: 1.5,
    });
    expect(certificate).toEqual({
      certificate_link: 'https://pss.example.org/verify/AB12-CD34-EF56-GH78-JK90',
      certificate_code: 'AB12-CD34-EF56-GH78-JK90',
      credits: '1.5',
    });
    const mail = renderEmail(
      {
        subject: '{credits} credits: {certificate_code}',
        body: '<p>You earned {credits} credits. Check it at {certificate_link}.</p>',
        buttonText: 'Get it',
        dashboardUrlText: '',
      },
      { ...values, ...certificate },
      link,
    );
    expect(mail.subject).toBe('1.5 credits: AB12-CD34-EF56-GH78-JK90');
    expect(mail.html).toContain(
      'Check it at <a href="https://pss.example.org/verify/AB12-CD34-EF56-GH78-JK90" style="word-break:break-all">' +
        'https://pss.example.org/verify/AB12-CD34-EF56-GH78-JK90</a>.',
    );
    expect(mail.text).toContain(
      'You earned 1.5 credits. Check it at https://pss.example.org/verify/AB12-CD34-EF56-GH78-JK90.',
    );
    // Another email names no certificate: the placeholders are empty, never left as typed.
    const other = renderEmail(
      {
        subject: 'x{credits}x',
        body: '<p>[{certificate_link}] {first_name}</p>',
        buttonText: 'b',
        dashboardUrlText: '',
      },
      values,
      link,
    );
    expect([other.subject, other.text.split('\n')[0]]).toEqual(['xx', '[] Ann']);
  });

  it('reads links and entities back as text', () => {
    expect(htmlToText('<p>See <a href="https://x.test/a">the guide</a> &amp; more</p><p>Bye</p>')).toBe(
      'See the guide (https://x.test/a) & more\n\nBye',
    );
  });
});

describe('the plain-text fields of an email', () => {
  const hostile = {
    subject: 'Hi <img src="https://tracker.test/p.gif">',
    body: '<p>Hello</p><style>body{background:red}</style><form action="https://body-form.test"><input type="password" name="pw"></form><img src="https://tracker.test/b.gif"><p><a href="javascript:alert(2)">click</a></p>',
    buttonText: '<form action="https://evil.test"><input type="password" name="pw"><button>Log in</button></form>',
    dashboardUrlText: '<a href="javascript:alert(1)">open</a><img src="https://tracker.test/u.gif">',
  };
  const rendered = renderEmail(hostile, values, link);
  // What is left of the HTML part once the frame's own markup (title, button and link line) is taken out.
  const tags = [...rendered.html.matchAll(/<([a-z]+)[\s>]/gi)].map((m) => m[1]!.toLowerCase());

  it('escape the button text and the dashboard link text: markup arrives as the words typed', () => {
    expect(rendered.html).toContain(
      '&lt;form action=&quot;https://evil.test&quot;&gt;&lt;input type=&quot;password&quot; name=&quot;pw&quot;&gt;',
    );
    expect(rendered.html).toContain('&lt;a href=&quot;javascript:alert(1)&quot;&gt;open&lt;/a&gt;');
    expect(rendered.html).not.toMatch(/<(form|input|img|style|button)\b/i);
    expect(rendered.html).not.toMatch(/href="javascript:/i);
    expect(new Set(tags)).toEqual(new Set(['html', 'head', 'meta', 'title', 'body', 'div', 'p', 'a']));
  });

  it('keep the sanitiser for the body: a form, a style, an image and a javascript: link do not pass', () => {
    expect(rendered.html).toContain('<p>Hello</p>');
    expect(rendered.html).not.toContain('tracker.test/b.gif');
    expect(rendered.html).not.toContain('body-form.test');
    expect(rendered.html).not.toContain('alert(2)');
    expect(rendered.html).not.toContain('background:red');
  });

  it('are the words typed in the text part and the subject', () => {
    expect(rendered.subject).toBe('Hi <img src="https://tracker.test/p.gif">');
    expect(rendered.html).toContain('<title>Hi &lt;img src=&quot;https://tracker.test/p.gif&quot;&gt;</title>');
    expect(rendered.text).toContain(`${hostile.buttonText}: ${link}`);
    // The fallback is for a button: the text part carries the link once, on the button's line.
    expect(rendered.text).not.toContain(hostile.dashboardUrlText);
    expect(rendered.text.split(link).length - 1).toBe(1);
  });
});

describe('a paragraph whose placeholders all come out empty', () => {
  const body =
    '<p>Dear {salutation} {last_name},</p><p>Write to {email}.</p><p>You can also call us on {phone}.</p>' +
    '<ul><li>Round {round_number} ends {round_end_date}</li><li>Keep going</li></ul><p>No placeholder here.</p>';
  const texts = { subject: 'Hi', body, buttonText: 'Open', dashboardUrlText: '' };

  it('is left out (no "call us on ."), while one with a value, or none named, stays', () => {
    const mail = renderEmail(texts, { ...values, phone: '', round_number: '', round_end_date: '' }, link);
    expect(mail.html).not.toContain('call us on');
    expect(mail.text).not.toContain('call us on');
    expect(mail.text).not.toContain('Round');
    expect(mail.text).toContain('- Keep going');
    expect(mail.text).toContain('Write to help@example.org.');
    expect(mail.text).toContain('No placeholder here.');
    // One empty among filled ones keeps the paragraph.
    expect(renderEmail(texts, { ...values, salutation: '' }, link).text).toContain('Dear  O’Neil <b>,');
    expect(renderEmail(texts, values, link).text).toContain('You can also call us on +1 555 0100.');
  });
});
