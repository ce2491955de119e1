import { describe, expect, it } from 'vitest';
import { outboxIdFromVerp, verpAddress } from './email-return-path.js';

const id = '0b9c6c1e-8d2f-4c4e-9a51-3f2d7e6a1b20';

describe('the per-message return path (VERP)', () => {
  it('carries the outbox id and reads it back', () => {
    const address = verpAddress(id, 'mail.example.org');
    expect(address).toBe(`bounces+${id}@mail.example.org`);
    expect(outboxIdFromVerp(address)).toBe(id);
  });

  it('reads it in angle brackets, in capitals and from a rewritten domain', () => {
    expect(outboxIdFromVerp(`<bounces+${id}@mail.example.org>`)).toBe(id);
    expect(outboxIdFromVerp(`BOUNCES+${id.toUpperCase()}@Mail.Example.org`)).toBe(id);
    expect(outboxIdFromVerp(`bounces+${id}@relay.example.net`)).toBe(id);
  });

  it('answers null for an address that is not one of ours', () => {
    expect(outboxIdFromVerp('no-reply@example.org')).toBeNull();
    expect(outboxIdFromVerp('bounces@example.org')).toBeNull();
    expect(outboxIdFromVerp('bounces+not-an-id@example.org')).toBeNull();
    expect(outboxIdFromVerp(`bounces+${id}`)).toBeNull();
    expect(outboxIdFromVerp(`bounces+${id}x@example.org`)).toBeNull();
    expect(outboxIdFromVerp('')).toBeNull();
  });
});
