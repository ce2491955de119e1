import { describe, expect, it } from 'vitest';
import { uuid7 } from './uuid7.js';

describe('uuid7', () => {
  it('makes version 7 UUIDs of the RFC 9562 variant', () => {
    const id = uuid7();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('keeps ids in the order they were made, also within one millisecond', () => {
    const ids = Array.from({ length: 20_000 }, () => uuid7());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('starts with the current time in milliseconds', () => {
    const before = Date.now();
    const ms = parseInt(uuid7().replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now() + 5);
  });
});
