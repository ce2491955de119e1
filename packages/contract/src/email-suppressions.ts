import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './list-query.js';

/**
 * The suppression list (issue #47): addresses no email goes to. An address is suppressed for
 * good by a hard bounce or a complaint, after three soft bounces in a row, by an administrator
 * (MANUAL), or — for one project's reminders only — by the participant's own unsubscribe.
 */
export const emailSuppressionReasons = ['HARD_BOUNCE', 'SOFT_BOUNCES', 'COMPLAINT', 'UNSUBSCRIBED', 'MANUAL'] as const;
export type EmailSuppressionReason = (typeof emailSuppressionReasons)[number];

/**
 * Where a suppression came from: a bounce mailbox read over IMAP, a provider's webhook, the
 * participant's one-click unsubscribe or their dashboard, an administrator.
 */
export const emailSuppressionSources = [
  'imap',
  'ses',
  'sendgrid',
  'mailgun',
  'postmark',
  'one-click',
  'dashboard',
  'admin',
] as const;
export type EmailSuppressionSource = (typeof emailSuppressionSources)[number];

/** The providers whose webhooks report bounces and complaints (`POST /email-events/{provider}`). */
export const emailEventProviders = ['ses', 'sendgrid', 'mailgun', 'postmark'] as const;
export type EmailEventProvider = (typeof emailEventProviders)[number];

export const emailSuppressionSortFields = ['email', 'at', 'reason'] as const;

export const emailSuppression = z.object({
  email: z.string(),
  reason: z.enum(emailSuppressionReasons),
  /** The mail system's own words (a bounce's status and diagnostic), or who lifted what. */
  detail: z.string(),
  /** When the address was suppressed (ISO 8601). */
  at: z.string(),
  source: z.enum(emailSuppressionSources),
  /** Null: the whole address; set: that project's reminders only (an unsubscribe). */
  project_id: z.string().uuid().nullable(),
});
export type EmailSuppression = z.infer<typeof emailSuppression>;

export const emailSuppressionFilter = z.strictObject({
  reason: z.enum(emailSuppressionReasons).optional(),
  project_id: z.string().uuid().optional(),
});

export const emailSuppressionListQuery = listQuerySchema({
  sortable: emailSuppressionSortFields,
  defaultSort: [{ field: 'at', direction: 'DESC' }],
  filter: emailSuppressionFilter,
});
export const emailSuppressionPage = pagedSchema(emailSuppression);

/** An address in a path: the address as typed (it is lower-cased before it is looked up). */
export const emailSuppressionParams = z.object({ email: z.email().max(320) });

/** An administrator's own suppression of an address (MANUAL, the whole address). */
export const addEmailSuppressionBody = z.strictObject({
  email: z.email().max(320),
  detail: z.string().trim().max(500).default(''),
});

export const emailEventProviderParams = z.object({ provider: z.enum(emailEventProviders) });

/**
 * What a provider's webhook is answered: how many bounces and complaints its message carried
 * (each recorded once: a repeat of one already recorded changes nothing).
 */
export const emailEventsRecorded = z.object({ events: z.number().int() });
