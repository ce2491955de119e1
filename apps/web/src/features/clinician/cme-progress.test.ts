import { describe, expect, it } from 'vitest';
import { t } from '../../lib/i18n';
import { cmeProgressLabel, cmeProgressText } from './cme-progress';

const cme = (credits: number, min_cases: number, completed_cases: number) => ({
  id: '00000000-0000-4000-8000-000000000001',
  credits,
  min_cases,
  completed_cases,
  moc: false,
});

describe('a CME credit’s progress, each count with its plural', () => {
  it('says 1 credit and 2 credits', () => {
    expect(cmeProgressText(t, cme(1, 2, 2))).toBe('2 of 2 cases completed for 1 credit');
    expect(cmeProgressText(t, cme(2, 4, 0))).toBe('0 of 4 cases completed for 2 credits');
    expect(cmeProgressLabel(t, cme(1, 2, 0))).toBe('Progress towards 1 credit');
    expect(cmeProgressLabel(t, cme(2, 2, 0))).toBe('Progress towards 2 credits');
  });

  it('says 1 case, and credits in quarters as more than one', () => {
    expect(cmeProgressText(t, cme(0.25, 1, 3))).toBe('1 of 1 case completed for 0.25 credits');
    expect(cmeProgressText(t, cme(1.5, 3, 1))).toBe('1 of 3 cases completed for 1.5 credits');
  });
});
