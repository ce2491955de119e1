/**
 * What a bounce or a complaint says, wherever it was read: a mailbox over IMAP (RFC 3464
 * delivery reports, RFC 5965 feedback reports) or a provider's webhook. Every reader maps
 * its input to this one shape and hands it to the suppressions service's `recordEvent`, so
 * the rules (a hard bounce or a complaint suppresses at once, three soft bounces in a row)
 * are written once.
 */
export type EmailEventType = 'HARD_BOUNCE' | 'SOFT_BOUNCE' | 'COMPLAINT';

/** Where an event was read. */
export type EmailEventSource = 'imap' | 'ses' | 'sendgrid' | 'mailgun' | 'postmark';

export const emailEventTypes = ['HARD_BOUNCE', 'SOFT_BOUNCE', 'COMPLAINT'] as const satisfies readonly EmailEventType[];
export const emailEventSources = [
  'imap',
  'ses',
  'sendgrid',
  'mailgun',
  'postmark',
] as const satisfies readonly EmailEventSource[];

export interface EmailEvent {
  type: EmailEventType;
  /** The address that bounced or complained (lower-cased when recorded). */
  email: string;
  /** The outbox row the event is about, when the reader could tell (VERP, Message-ID). */
  outboxId: string | null;
  /** The mail system's own words (status code, diagnostic), for the suppression list. */
  detail: string;
  source: EmailEventSource;
  /**
   * The event's own id at its source (a report's Message-ID, a provider's event id): an
   * event delivered twice is recorded once.
   */
  externalId: string;
  at: Date;
}
