import { z } from 'zod';

/**
 * The mailbox bounces and complaints are read from (issue #47): the return path's domain
 * (BOUNCE_DOMAIN) delivers there, and each server process reads it over IMAP. Kept beside
 * config.ts, which takes these variables into its environment's schema.
 */
export const bounceMailboxEnv = {
  // imap://user:password@host:port/Mailbox or imaps://…; unset: bounces are not read from a mailbox.
  BOUNCE_IMAP_URL: z
    .string()
    .refine((v) => /^imaps?:\/\/[^/]+/i.test(v) && URL.canParse(v), 'must be an imap:// or imaps:// URL')
    .optional(),
  BOUNCE_IMAP_POLL_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
};

export interface BounceMailboxConfig {
  /** Where bounces are read from and how often; undefined: not read from a mailbox. */
  bounceMailbox: { url: string; pollMs: number } | undefined;
}

export function bounceMailboxConfig(e: {
  BOUNCE_IMAP_URL?: string | undefined;
  BOUNCE_IMAP_POLL_SECONDS: number;
}): BounceMailboxConfig {
  return {
    bounceMailbox: e.BOUNCE_IMAP_URL
      ? { url: e.BOUNCE_IMAP_URL, pollMs: Math.round(e.BOUNCE_IMAP_POLL_SECONDS * 1000) }
      : undefined,
  };
}
