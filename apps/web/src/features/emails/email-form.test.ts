import { describe, expect, it } from 'vitest';
import { insertPlaceholder, localDay } from './email-form';

describe('inserting a placeholder', () => {
  it('goes where the cursor is', () => {
    expect(insertPlaceholder('Hello !', 'first_name', { start: 6, end: 6 })).toEqual({
      text: 'Hello {first_name}!',
      cursor: 18,
    });
  });

  it('replaces the selected text', () => {
    expect(insertPlaceholder('Dear NAME,', 'last_name', { start: 5, end: 9 })).toEqual({
      text: 'Dear {last_name},',
      cursor: 16,
    });
  });

  it('goes at the end of a field that was never focused, and stays inside the text', () => {
    expect(insertPlaceholder('Round ', 'round_number', { start: null, end: null }).text).toBe('Round {round_number}');
    expect(insertPlaceholder('ab', 'email', { start: 10, end: 12 })).toEqual({ text: 'ab{email}', cursor: 9 });
  });
});

describe('a day in the browser’s calendar', () => {
  it('is tomorrow across a month end, in local time', () => {
    expect(localDay(1, new Date(2026, 0, 31, 23, 30))).toBe('2026-02-01');
    expect(localDay(0, new Date(2026, 11, 31, 0, 5))).toBe('2026-12-31');
  });
});
