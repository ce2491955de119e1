import { describe, expect, it } from 'vitest';
import { chooseEncoding, PRECOMPRESSED } from './content-encoding.js';

const both = PRECOMPRESSED;
const gzipOnly = PRECOMPRESSED.filter((p) => p.encoding === 'gzip');

describe('chooseEncoding', () => {
  it('prefers brotli when the browser takes both', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd', both)?.encoding).toBe('br');
  });

  it('falls back to gzip when brotli is not accepted or not written', () => {
    expect(chooseEncoding('gzip, deflate', both)?.encoding).toBe('gzip');
    expect(chooseEncoding('br, gzip', gzipOnly)?.encoding).toBe('gzip');
  });

  it('sends as is without the header, or when every coding is refused', () => {
    expect(chooseEncoding(undefined, both)).toBeUndefined();
    expect(chooseEncoding('identity', both)).toBeUndefined();
    expect(chooseEncoding('br;q=0, gzip;q=0', both)).toBeUndefined();
  });

  it('honours q=0 for one coding and * for the others', () => {
    expect(chooseEncoding('br;q=0, *', both)?.encoding).toBe('gzip');
    expect(chooseEncoding('*;q=0.5', both)?.encoding).toBe('br');
    expect(chooseEncoding('BR;Q=0.8', both)?.encoding).toBe('br');
  });
});
