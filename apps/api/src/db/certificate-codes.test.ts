import { describe, expect, it } from 'vitest';
import { normalizeCertificateCode } from '@pss/contract';
import { newCertificateCode } from './certificate-codes.js';

describe('certificate codes', () => {
  it('are 20 characters of Crockford’s base 32 in five groups, and differ', () => {
    const codes = Array.from({ length: 2000 }, () => newCertificateCode());
    for (const code of codes) expect(code).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){4}[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(new Set(codes).size).toBe(codes.length);
    // Every character of the alphabet turns up in every place: the bits are used whole.
    for (let place = 0; place < 20; place++) {
      const seen = new Set(codes.map((c) => c.replace(/-/g, '')[place]));
      expect(seen.size, `place ${place}`).toBe(32);
    }
  });

  it('are read back as typed: any case, spaces or no dashes, O for 0 and I or L for 1', () => {
    expect(normalizeCertificateCode('7k3q m9tx 0abc defg hjkm')).toBe('7K3Q-M9TX-0ABC-DEFG-HJKM');
    expect(normalizeCertificateCode('7K3QM9TXOABCDEFGHJKM')).toBe('7K3Q-M9TX-0ABC-DEFG-HJKM');
    expect(normalizeCertificateCode('iL00-0000-0000-0000-0000')).toBe('1100-0000-0000-0000-0000');
    expect(normalizeCertificateCode('7K3Q-M9TX')).toBeNull();
    expect(normalizeCertificateCode('7K3Q-M9TX-0ABC-DEFG-HJKU')).toBeNull();
    expect(normalizeCertificateCode('<script>')).toBeNull();
  });
});
