import { describe, expect, it } from 'vitest';
import { EMAIL_TEXT_MAX, emailTextsFit } from './email-texts.js';
import { emailPreviewBody } from './emails.js';

const fine = {
  subject: 'Round {round_number}',
  body: 'Dear {salutation}',
  button_text: 'Open',
  dashboard_url_text: '',
};

describe('texts a preview may be asked for', () => {
  const cases: [string, typeof fine][] = [
    ['known placeholders', fine],
    ['an unknown placeholder', { ...fine, body: 'Hi {nickname}' }],
    ['a subject at its longest', { ...fine, subject: 'x'.repeat(EMAIL_TEXT_MAX.subject) }],
    ['a subject one too long', { ...fine, subject: 'x'.repeat(EMAIL_TEXT_MAX.subject + 1) }],
    ['a button text one too long', { ...fine, button_text: 'x'.repeat(EMAIL_TEXT_MAX.button_text + 1) }],
    ['an empty subject (a preview of a draft)', { ...fine, subject: '' }],
  ];
  it.each(cases)('agree with the preview call’s schema: %s', (_, texts) => {
    const schema = emailPreviewBody.safeParse({ ...texts, participant_id: null }).success;
    expect(emailTextsFit(texts)).toBe(schema);
  });

  it('refuses an unknown placeholder and a text over its length', () => {
    expect(emailTextsFit(fine)).toBe(true);
    expect(emailTextsFit({ ...fine, body: 'Hi {nickname}' })).toBe(false);
    expect(emailTextsFit({ ...fine, dashboard_url_text: 'x'.repeat(EMAIL_TEXT_MAX.dashboard_url_text + 1) })).toBe(
      false,
    );
  });
});
