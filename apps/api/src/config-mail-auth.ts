import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { DkimKey } from './lib/mailer.js';

/**
 * How the platform's mail is signed and paced (issue #47): the DKIM key the messages are
 * signed with, and the most messages the outbox hands the mail server a minute. Kept beside
 * config.ts, which takes these variables into its environment's schema.
 */
export const mailAuthEnv = {
  // The domain (d=) and selector (s=) of the DKIM signature: its public key is published at
  // <selector>._domainkey.<domain>.
  DKIM_DOMAIN: z
    .string()
    .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'must be a domain name')
    .optional(),
  DKIM_SELECTOR: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9._-]{0,62})$/i, 'must be a DKIM selector (letters, digits, dots, hyphens)')
    .optional(),
  // The private key (PEM), or a file holding it: one of the two.
  DKIM_PRIVATE_KEY: z.string().optional(),
  DKIM_PRIVATE_KEY_FILE: z.string().optional(),
  // Unset: no pacing.
  EMAIL_MAX_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).optional(),
};

export interface MailAuthConfig {
  /** Every message is DKIM-signed with this key; undefined: not signed. */
  dkim: DkimKey | undefined;
  /** The most messages sent a minute, by every process together; undefined: no pacing. */
  emailMaxPerMinute: number | undefined;
}

type MailAuthEnv = {
  DKIM_DOMAIN?: string | undefined;
  DKIM_SELECTOR?: string | undefined;
  DKIM_PRIVATE_KEY?: string | undefined;
  DKIM_PRIVATE_KEY_FILE?: string | undefined;
  EMAIL_MAX_PER_MINUTE?: number | undefined;
};

/** Reads the DKIM key, checked to be a private key now rather than at the first message. */
function privateKeyOf(e: MailAuthEnv, fail: (message: string) => Error): string {
  if (e.DKIM_PRIVATE_KEY && e.DKIM_PRIVATE_KEY_FILE) {
    throw fail('DKIM_PRIVATE_KEY and DKIM_PRIVATE_KEY_FILE: set one of the two');
  }
  let pem = e.DKIM_PRIVATE_KEY ?? '';
  if (e.DKIM_PRIVATE_KEY_FILE) {
    try {
      pem = readFileSync(e.DKIM_PRIVATE_KEY_FILE, 'utf8');
    } catch {
      throw fail(`DKIM_PRIVATE_KEY_FILE: cannot read ${e.DKIM_PRIVATE_KEY_FILE}`);
    }
  }
  // A key put on one line of an .env file keeps its line breaks as "\n".
  if (!pem.includes('\n') && pem.includes('\\n')) pem = pem.replace(/\\n/g, '\n');
  try {
    const key = createPrivateKey(pem);
    // nodemailer signs with rsa-sha256 only.
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
  } catch {
    // Never the key itself in the message: it is a credential.
    throw fail('DKIM_PRIVATE_KEY: must be an RSA private key in PEM form');
  }
  return pem.trim() + '\n';
}

export function mailAuthConfig(e: MailAuthEnv, fail: (message: string) => Error): MailAuthConfig {
  const key = e.DKIM_PRIVATE_KEY ?? e.DKIM_PRIVATE_KEY_FILE;
  const set = [e.DKIM_DOMAIN, e.DKIM_SELECTOR, key].filter(Boolean).length;
  // Two of three is a mistake, not a choice: mail would quietly go unsigned.
  if (set !== 0 && set !== 3) {
    throw fail('DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY (or DKIM_PRIVATE_KEY_FILE) must be set together');
  }
  return {
    dkim:
      set === 3
        ? { domainName: e.DKIM_DOMAIN!.toLowerCase(), keySelector: e.DKIM_SELECTOR!, privateKey: privateKeyOf(e, fail) }
        : undefined,
    emailMaxPerMinute: e.EMAIL_MAX_PER_MINUTE,
  };
}
