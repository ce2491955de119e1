import { describe, expect, it } from 'vitest';
import { dayIn, isTimeZone } from './clock.js';

describe('dayIn', () => {
  it('answers the calendar day of a moment in each time zone, whichever zone was asked before', () => {
    const lateEvening = new Date('2026-03-01T04:30:00Z');
    expect(dayIn('UTC', lateEvening)).toBe('2026-03-01');
    expect(dayIn('America/Chicago', lateEvening)).toBe('2026-02-28');
    expect(dayIn('Asia/Tokyo', lateEvening)).toBe('2026-03-01');
    // Asked again after other zones, each keeps its own answer.
    expect(dayIn('America/Chicago', new Date('2026-03-01T06:00:00Z'))).toBe('2026-03-01');
    expect(dayIn('UTC', new Date('2026-12-31T23:59:59Z'))).toBe('2026-12-31');
  });

  it('knows the zones the runtime knows', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
