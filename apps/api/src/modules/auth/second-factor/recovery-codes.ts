import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@pss/contract';
import { hashPassword } from '../../../lib/passwords.js';

/** Letters and digits that cannot be mistaken for one another when read off paper (no 0/o, 1/l). */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const GROUPS = 3;
const GROUP_LENGTH = 4;

/** A code as kept and compared: lower case, without the dashes and spaces it is shown or typed with. */
export function normalRecoveryCode(typed: string): string | null {
  const code = typed.toLowerCase().replace(/[\s-]/g, '');
  return code.length === GROUPS * GROUP_LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

/** The first group: it finds the code's row, so a code typed is checked against one hash. */
export function recoveryLookup(code: string): string {
  return code.slice(0, GROUP_LENGTH);
}

/**
 * Ten new codes, as shown once (`abcd-efgh-ijkm`, 60 random bits each), with what is kept of
 * them: their first group and a hash made as a password's is.
 */
export async function newRecoveryCodes(): Promise<{ shown: string[]; kept: { lookup: string; codeHash: string }[] }> {
  const shown = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: GROUPS }, () =>
      Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
    ).join('-'),
  );
  const kept = await Promise.all(
    shown.map(async (code) => {
      const normal = normalRecoveryCode(code)!;
      return { lookup: recoveryLookup(normal), codeHash: await hashPassword(normal) };
    }),
  );
  return { shown, kept };
}
