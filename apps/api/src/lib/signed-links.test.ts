import { describe, expect, it } from 'vitest';
import { createSignedLinks } from './signed-links.js';

const id = '0190a8c2-7f1e-7b3a-9c4d-5e6f7a8b9c0d';
const now = new Date('2026-03-02T09:00:00Z');

describe('signed links', () => {
  const links = createSignedLinks('a-secret-long-enough-for-tests-123456', 'pss-resource-file');

  it('open what they name until they expire, and fit a path segment', () => {
    const { token, expiresAt } = links.sign({ r: id, k: 'file', d: 'inline' }, now, 60);
    expect(token.length).toBeLessThan(100);
    expect(expiresAt.toISOString()).toBe('2026-03-02T09:01:00.000Z');
    expect(links.verify(token, now)).toEqual({ r: id, k: 'file', d: 'inline' });
    expect(links.verify(token, new Date(now.getTime() + 59_999))).not.toBeNull();
    expect(links.verify(token, expiresAt)).toBeNull();
  });

  it('refuse any altered character, another secret and another purpose', () => {
    const { token } = links.sign({ r: id, k: 'thumbnail', d: 'attachment' }, now, 60);
    for (let i = 0; i < token.length; i++) {
      if (token[i] === '.') continue;
      const swapped = token[i] === 'a' ? 'b' : 'a';
      expect(links.verify(`${token.slice(0, i)}${swapped}${token.slice(i + 1)}`, now), `at ${i}`).toBeNull();
    }
    expect(
      createSignedLinks('another-secret-long-enough-123456789', 'pss-resource-file').verify(token, now),
    ).toBeNull();
    expect(createSignedLinks('a-secret-long-enough-for-tests-123456', 'other').verify(token, now)).toBeNull();
    expect(links.verify('', now)).toBeNull();
  });
});
