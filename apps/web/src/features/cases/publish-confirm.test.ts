import { describe, expect, it } from 'vitest';
import type { Season } from '@pss/contract';
import { localDay, runningRound } from './publish-confirm';

const season: Season = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Spring Season',
  rounds: [
    { id: '21111111-1111-4111-8111-111111111111', number: 1, start_date: '2026-03-02', end_date: '2026-03-15' },
    { id: '31111111-1111-4111-8111-111111111111', number: 2, start_date: '2026-03-16', end_date: '2026-03-29' },
  ],
};
const placed = (round: number | null) => ({ season_id: season.id, round_number: round });

describe('whether publishing makes a case active at once', () => {
  it('does in its round, from its first day to its last', () => {
    for (const today of ['2026-03-16', '2026-03-20', '2026-03-29']) {
      expect(runningRound([season], placed(2), today)).toEqual({ season, round: 2 });
    }
  });

  it('does not before or after its round, nor for a case in no round', () => {
    expect(runningRound([season], placed(2), '2026-03-15')).toBeNull();
    expect(runningRound([season], placed(1), '2026-03-16')).toBeNull();
    expect(runningRound([season], placed(null), '2026-03-20')).toBeNull();
    expect(runningRound([season], { season_id: null, round_number: null }, '2026-03-20')).toBeNull();
  });

  it('reads today from the local calendar', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});
