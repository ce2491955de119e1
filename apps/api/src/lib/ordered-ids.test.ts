import { describe, expect, it } from 'vitest';
import { validate, version } from 'uuid';
import { orderedId } from './ordered-ids.js';

describe('orderedId', () => {
  it('makes valid, distinct UUID version 7 ids in increasing order', () => {
    const ids = Array.from({ length: 20_000 }, () => orderedId());
    for (const id of ids.slice(0, 100)) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
