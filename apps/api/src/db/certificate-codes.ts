import { randomBytes } from 'node:crypto';

/** Crockford's base 32: no I, L, O or U, so a code read aloud or typed is not mistaken. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A certificate's verification code: 100 random bits (of 104 drawn) as 20 characters of
 * Crockford's base 32 in groups of four (`7K3Q-M9TX-…`): far beyond guessing at the
 * verification call's rate limit.
 */
export function newCertificateCode(): string {
  const bytes = randomBytes(13);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let code = '';
  for (let i = 0; i < 20; i++) {
    code += ALPHABET[Number((bits >> BigInt(99 - i * 5)) & 31n)];
    if (i % 4 === 3 && i < 19) code += '-';
  }
  return code;
}
