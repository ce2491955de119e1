import { describe, expect, it } from 'vitest';
import { sentFields } from './sent-fields.js';

describe('what a call was sent, as its event keeps it', () => {
  it('keeps a value nested past 16 levels as a name, not the value (it once answered 500)', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 5000; i += 1) deep = { a: deep };
    const kept = sentFields('cmes.delete', { a: deep }).a!.after;
    let level = kept as Record<string, unknown> | string;
    let depth = 0;
    while (typeof level === 'object') {
      level = level.a as Record<string, unknown> | string;
      depth += 1;
    }
    // Sixteen levels from the body: the body itself, then fifteen inside its field.
    expect(depth).toBe(15);
    expect(level).toBe('(nested too deep to record)');
  });

  it('leaves credentials out at every depth, and keeps nothing a sign-in was sent', () => {
    expect(sentFields('users.update', { name: 'A', profile: { password: 'secret', city: 'B' } })).toEqual({
      name: { before: null, after: 'A' },
      profile: { before: null, after: { city: 'B' } },
    });
    expect(sentFields('auth.login', { email: 'a@example.org', password: 'secret' })).toEqual({});
  });
});
