import { describe, expect, it } from 'vitest';
import { formatDay } from './format';

describe('a calendar day', () => {
  it('reads as the same day whatever the browser’s time zone', () => {
    expect(formatDay('2026-03-02')).toBe('Mar 2, 2026');
    expect(formatDay('2026-12-31')).toBe('Dec 31, 2026');
  });

  it('is a dash when missing or not a day', () => {
    expect(formatDay(null)).toBe('—');
    expect(formatDay('2026-03-02T10:00:00Z')).toBe('—');
  });
});
