import { describe, expect, it } from 'vitest';
import type { Season } from '@pss/contract';
import { defaultSeason } from './statistics-api';
import { formatChange, formatDiscrimination, formatRate, formatScore } from './progress-format';

const season = (name: string, start: string, end: string): Season => ({
  id: crypto.randomUUID(),
  name,
  rounds: [
    { id: crypto.randomUUID(), number: 1, start_date: start, end_date: start },
    { id: crypto.randomUUID(), number: 2, start_date: end, end_date: end },
  ],
});

describe('the season the dashboard opens on', () => {
  const winter = season('Winter', '2026-01-01', '2026-02-28');
  const spring = season('Spring', '2026-03-01', '2026-05-31');
  const autumn = season('Autumn', '2026-09-01', '2026-11-30');

  it('is the one running today', () => {
    expect(defaultSeason([winter, spring, autumn], '2026-04-10')?.name).toBe('Spring');
    expect(defaultSeason([winter, spring, autumn], '2026-05-31')?.name).toBe('Spring');
  });

  it('else the latest that has begun, else the first ahead', () => {
    expect(defaultSeason([autumn, winter, spring], '2026-07-01')?.name).toBe('Spring');
    expect(defaultSeason([autumn, spring], '2025-12-01')?.name).toBe('Spring');
    expect(defaultSeason([], '2026-07-01')).toBeUndefined();
  });
});

describe('rates and changes', () => {
  it('reads as people read them', () => {
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(0.75)).toBe('75%');
    expect(formatRate(0.075)).toBe('7.5%');
    expect(formatRate(1)).toBe('100%');
    expect(formatChange(null)).toBe('—');
    expect(formatChange(-0.125)).toBe('−13 pts');
    expect(formatChange(0.2)).toBe('+20 pts');
    expect(formatChange(0.001)).toBe('0 pts');
    expect(formatScore(null)).toBe('—');
    expect(formatScore(82.6)).toBe('83');
    expect(formatDiscrimination(0.2345)).toBe('0.23');
    expect(formatDiscrimination(-0.4264)).toBe('−0.43');
    expect(formatDiscrimination(-0.001)).toBe('0.00');
    expect(formatDiscrimination(-1)).toBe('−1.00');
  });
});
