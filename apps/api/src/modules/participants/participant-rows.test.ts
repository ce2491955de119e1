import { describe, expect, it } from 'vitest';
import { PARTICIPANT_REQUIRED_COLUMNS } from '@pss/contract';
import { createParticipantRowChecker } from './participant-rows.js';

const columnAt = Object.fromEntries(PARTICIPANT_REQUIRED_COLUMNS.map((name, i) => [name, i]));

describe('participant row ids', () => {
  it('gives new users time-ordered version 7 UUIDs, in order also within one millisecond', () => {
    const checkRow = createParticipantRowChecker([]);
    const before = Date.now();
    const ids = Array.from({ length: 20_000 }, (_, i) => {
      const checked = checkRow(
        i + 2,
        [`E-${i}`, 'Dr.', 'Ann', `Lee${i}`, `ann${i}@example.org`, 'USER', 'MD'],
        columnAt,
      );
      expect(checked.problems).toEqual([]);
      return checked.row!.newUserId;
    });
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    const ms = parseInt(ids[0]!.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now() + 5);
  });
});

describe('participant row values', () => {
  const withMobile = { ...columnAt, mobile_number: PARTICIPANT_REQUIRED_COLUMNS.length };
  const check = (salutation: string, mobile = '') =>
    createParticipantRowChecker([])(
      2,
      ['E-1', salutation, 'Ann', 'Lee', 'ann@example.org', 'USER', 'MD', mobile],
      withMobile,
    ).problems.map((p) => p.errorCode);

  it('takes a salutation as people write one, and refuses anything else with INVALID_SALUTATION', () => {
    for (const ok of ['Dr.', 'Mrs', 'Prof. Dr.', 'Sr. Mary-Ann', 'Dra.']) expect(check(ok), ok).toEqual([]);
    for (const bad of ['D4', '<b>Dr</b>', '.Dr', 'x'.repeat(41)])
      expect(check(bad), bad).toEqual(['INVALID_SALUTATION']);
  });

  it('holds mobile numbers to the one rule every call uses', () => {
    expect(check('Dr.', '+1 (555) 010-0100')).toEqual([]);
    expect(check('Dr.', 'call me')).toEqual(['USER_DATA_INVALID']);
    expect(check('Dr.', '+-()')).toEqual(['USER_DATA_INVALID']);
  });
});
