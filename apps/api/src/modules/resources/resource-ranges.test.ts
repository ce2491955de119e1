import { describe, expect, it } from 'vitest';
import { byteRange } from './resources.routes.js';

describe('byte ranges', () => {
  it('reads one satisfiable range; anything else is the whole file', () => {
    expect(byteRange('bytes=0-4', 100)).toEqual({ start: 0, end: 4 });
    expect(byteRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    for (const header of [undefined, '', 'bytes=', 'bytes=100-', 'bytes=5-1', 'bytes=0-1,3-4', 'items=0-1']) {
      expect(byteRange(header, 100), String(header)).toBeNull();
    }
  });
});
