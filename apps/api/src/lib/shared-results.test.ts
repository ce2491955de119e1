import { describe, expect, it } from 'vitest';
import { fixedClock } from './clock.js';
import { sharedResults } from './shared-results.js';

describe('shared results', () => {
  it('computes once for callers that ask together, then again after the time to live', async () => {
    const clock = fixedClock('2026-03-02T09:00:00Z');
    const shared = sharedResults({ ttlMs: 30_000, clock });
    let runs = 0;
    const compute = async () => ++runs;
    expect(await Promise.all([shared.get('a', compute), shared.get('a', compute), shared.get('b', compute)])).toEqual([
      1, 1, 2,
    ]);
    clock.set('2026-03-02T09:00:29Z');
    expect(await shared.get('a', compute)).toBe(1);
    clock.set('2026-03-02T09:00:31Z');
    expect(await shared.get('a', compute)).toBe(3);
  });

  it('keeps nothing with no time to live, and never a failure', async () => {
    const clock = fixedClock('2026-03-02T09:00:00Z');
    const shared = sharedResults({ ttlMs: 0, clock });
    let runs = 0;
    await shared.get('a', async () => ++runs);
    expect(await shared.get('a', async () => ++runs)).toBe(2);
    await expect(shared.get('b', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await shared.get('b', async () => 'up')).toBe('up');
  });
});
