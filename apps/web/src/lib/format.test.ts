import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatDateTime, formatDay } from './format';

/** Intl's en-US short form, which the hand-written formats match (bar the space before AM/PM). */
function intl(options: Intl.DateTimeFormatOptions, date: Date): string {
  return new Intl.DateTimeFormat('en-US', options).format(date).replace(/\u202f/g, ' ');
}
const DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };

describe('a calendar day', () => {
  it('reads as the same day whatever the browser’s time zone', () => {
    expect(formatDay('2026-03-02')).toBe('Mar 2, 2026');
    expect(formatDay('2026-12-31')).toBe('Dec 31, 2026');
  });

  it('is a dash when missing or not a day', () => {
    expect(formatDay(null)).toBe('—');
    expect(formatDay('2026-03-02T10:00:00Z')).toBe('—');
    expect(formatDay('2026-13-45')).toBe('—');
  });
});

describe('a date and a moment', () => {
  const moments = [
    '2026-01-01T00:00:00',
    '2026-03-02T09:05:00',
    '2026-06-15T12:00:00',
    '2026-07-04T12:59:59',
    '2026-11-30T13:07:00',
    '2026-12-31T23:59:00',
  ];

  it('read as Intl’s en-US short form in the browser’s time zone', () => {
    for (const local of moments) {
      const date = new Date(local);
      const iso = date.toISOString();
      expect(formatDate(iso)).toBe(intl(DAY, date));
      expect(formatDateTime(iso)).toBe(intl({ ...DAY, hour: 'numeric', minute: '2-digit' }, date));
    }
  });

  it('write midnight and noon as 12', () => {
    expect(formatDateTime(new Date('2026-03-02T00:05:00').toISOString())).toBe('Mar 2, 2026, 12:05 AM');
    expect(formatDateTime(new Date('2026-03-02T12:30:00').toISOString())).toBe('Mar 2, 2026, 12:30 PM');
  });

  it('are a dash when missing or not a date', () => {
    for (const value of [null, undefined, '', 'not a date']) {
      expect(formatDate(value)).toBe('—');
      expect(formatDateTime(value)).toBe('—');
    }
  });
});

describe('a file size', () => {
  it('reads in B, KB or MB', () => {
    expect(formatBytes(840)).toBe('840 B');
    expect(formatBytes(860_160)).toBe('840 KB');
    expect(formatBytes(13_107_200)).toBe('12.5 MB');
    expect(formatBytes(2 * 1024 * 1024)).toBe('2 MB');
  });
});
