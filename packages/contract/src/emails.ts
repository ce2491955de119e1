import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, listQuerySchema, MAX_PAGE_SIZE, pagedSchema, selectionOf } from './list-query.js';
import {
  EMAIL_TEXT_MAX,
  emailDeliveryKinds,
  emailDeliveryStatuses,
  emailPlaceholders,
  emailSendModes,
  MAX_TEST_RECIPIENTS,
  unknownPlaceholders,
} from './email-texts.js';
import { emailTypes } from './email-types/index.js';
import { participantFilter } from './participants.js';
import { emailDeliverySortFields } from './sort-fields.js';
import { requiredRichText, requiredText } from './text-fields.js';

/**
 * A project's emails (spec §4): its project emails, and per season their variants. Each is a
 * template with placeholders filled per participant when it is sent. Each type is declared once,
 * in ./email-types/ (its name, default texts, how it goes and when it holds).
 */
export const EmailType = z.enum(emailTypes);
export type EmailTypeValue = z.infer<typeof EmailType>;

export const EmailSendMode = z.enum(emailSendModes);

function placeholdersKnown(text: string, ctx: z.RefinementCtx): void {
  for (const name of unknownPlaceholders(text)) {
    ctx.addIssue({
      code: 'custom',
      message: `{${name}} is not a placeholder; use one of ${emailPlaceholders.map((p) => `{${p}}`).join(', ')}.`,
    });
  }
}
const withKnownPlaceholders = (max: number) => z.string().max(max).superRefine(placeholdersKnown);

export const emailTemplate = z.object({
  id: z.string().uuid(),
  type: EmailType,
  name: z.string(),
  /** The season of a season variant; null for a project email. */
  season_id: z.string().uuid().nullable(),
  subject: z.string(),
  body: z.string(),
  button_text: z.string(),
  dashboard_url_text: z.string(),
  enabled: z.boolean(),
  send_mode: EmailSendMode,
  updated_at: z.string(),
});
export type EmailTemplate = z.infer<typeof emailTemplate>;
export const emailTemplateList = z.object({ items: z.array(emailTemplate) });

/** Saving a template: its texts (placeholders checked) and how it is sent. */
export const saveEmailBody = z.strictObject({
  subject: requiredText(EMAIL_TEXT_MAX.subject).superRefine(placeholdersKnown),
  body: requiredRichText(EMAIL_TEXT_MAX.body).superRefine(placeholdersKnown),
  button_text: requiredText(EMAIL_TEXT_MAX.button_text).superRefine(placeholdersKnown),
  dashboard_url_text: withKnownPlaceholders(EMAIL_TEXT_MAX.dashboard_url_text),
  send_mode: EmailSendMode,
});
export type SaveEmailBody = z.input<typeof saveEmailBody>;

export const emailStatusBody = z.strictObject({ enabled: z.boolean() });
export const seasonNameQuery = z.object({ seasonName: requiredText(120) });
export const seasonNameBody = z.strictObject({ seasonName: requiredText(120) });
export const emailsChanged = z.object({ updated: z.number().int() });

/* ---------- sending ---------- */

/** A test send: the template as it is saved, to these addresses (a sample participant's details fill it). */
export const sendTestEmailBody = z.strictObject({
  emails: z
    .array(z.string().trim().max(254).pipe(z.email('INVALID_EMAIL')))
    .min(1, 'TEST_EMAIL_RECIPIENT_REQUIRED')
    .max(MAX_TEST_RECIPIENTS),
});
export type SendTestEmailBody = z.input<typeof sendTestEmailBody>;

/** A manual send: to the chosen participants of the template's project (archived ones are left out). */
// The participants list's filter; archived participants are never sent to.
export const sendEmailBody = selectionOf(participantFilter.omit({ archived: true }).default({}));
export type SendEmailBody = z.input<typeof sendEmailBody>;
/** How many emails a send put in the outbox (one a recipient; ones already queued today are not counted again). */
export const emailsQueued = z.object({ queued: z.number().int() });
/** A chosen participant "Send now" leaves out, because the email is not true for them today, and why. */
export const skippedParticipant = z.object({ participant_id: z.string().uuid(), name: z.string(), reason: z.string() });
export type SkippedParticipant = z.infer<typeof skippedParticipant>;
/** A send by hand: what was queued, and who of the chosen was skipped and why. */
export const emailsSent = z.object({ queued: z.number().int(), skipped: z.array(skippedParticipant) });
export type EmailsSent = z.infer<typeof emailsSent>;
/** What a send by hand would do, changing nothing: how many it would go to, who is skipped and why. */
export const sendEmailPreview = z.object({ recipients: z.number().int(), skipped: z.array(skippedParticipant) });
export type SendEmailPreview = z.infer<typeof sendEmailPreview>;

/** The texts of a template being edited, rendered as one participant (or a sample) would receive them. */
export const emailPreviewBody = z.strictObject({
  subject: withKnownPlaceholders(EMAIL_TEXT_MAX.subject),
  body: withKnownPlaceholders(EMAIL_TEXT_MAX.body),
  button_text: withKnownPlaceholders(EMAIL_TEXT_MAX.button_text),
  dashboard_url_text: withKnownPlaceholders(EMAIL_TEXT_MAX.dashboard_url_text),
  /** A participant of the project; without it, a sample participant. */
  participant_id: z.string().uuid().nullable().optional(),
});
export type EmailPreviewBody = z.input<typeof emailPreviewBody>;
/** A placeholder the email names that would come out empty, and why (the editor and the dry run show it). */
export const emailWarning = z.object({ placeholder: z.string(), message: z.string() });
export type EmailWarning = z.infer<typeof emailWarning>;

export const emailPreview = z.object({
  subject: z.string(),
  /** The whole HTML part, as sent (the dashboard link stands in for the participant's own). */
  html: z.string(),
  text: z.string(),
  participant: z
    .object({ id: z.string().uuid(), first_name: z.string(), last_name: z.string(), email: z.string() })
    .nullable(),
  /** The placeholders that come out empty in this rendering (e.g. `{phone}` with no support phone set). */
  warnings: z.array(emailWarning),
});
export type EmailPreview = z.infer<typeof emailPreview>;

/* ---------- the outbox: delivery log and dry run ---------- */

export const EmailDeliveryStatus = z.enum(emailDeliveryStatuses);
export type EmailDeliveryStatusValue = z.infer<typeof EmailDeliveryStatus>;
export const EmailDeliveryKind = z.enum(emailDeliveryKinds);
export type EmailDeliveryKindValue = z.infer<typeof EmailDeliveryKind>;

export const emailDelivery = z.object({
  id: z.string().uuid(),
  /** Null for a test send. */
  participant: z.object({ id: z.string().uuid(), first_name: z.string(), last_name: z.string() }).nullable(),
  to: z.string(),
  email_id: z.string().uuid(),
  email_type: EmailType,
  email_name: z.string(),
  season_name: z.string().nullable(),
  round_number: z.number().int().nullable(),
  kind: EmailDeliveryKind,
  /** The day the rule (or the send) is for, `YYYY-MM-DD`. */
  scheduled_for: z.string(),
  queued_at: z.string(),
  sent_at: z.string().nullable(),
  status: EmailDeliveryStatus,
  attempts: z.number().int(),
  /** The mail server's last answer when it failed, or why the email was cancelled. */
  last_error: z.string().nullable(),
  /** EMAILS_SEND_FAILED once it has failed for good. */
  error_code: z.string().nullable(),
});
export type EmailDelivery = z.infer<typeof emailDelivery>;

export const emailDeliveryFilter = z.strictObject({
  status: EmailDeliveryStatus.optional(),
  kind: EmailDeliveryKind.optional(),
  email_id: z.string().uuid().optional(),
});
export const emailDeliveryListQuery = listQuerySchema({
  sortable: emailDeliverySortFields,
  defaultSort: [{ field: 'queued_at', direction: 'DESC' }],
  filter: emailDeliveryFilter,
});
export const emailDeliveryPage = pagedSchema(emailDelivery);

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');

/** The dry run: who would get which email on a day, and why. Paged like a list. */
export const emailScheduleQuery = z.object({
  // A date that exists: JavaScript would read 2026-02-30 as 2 March, so the day must come back unchanged.
  date: isoDate.refine((value) => {
    const time = Date.parse(`${value}T00:00:00Z`);
    return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
  }, 'not a real date'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
export const scheduledEmail = z.object({
  participant: z.object({ id: z.string().uuid(), first_name: z.string(), last_name: z.string(), email: z.string() }),
  email_id: z.string().uuid(),
  email_type: EmailType,
  email_name: z.string(),
  season_name: z.string(),
  round_number: z.number().int().nullable(),
  /** Why the rule picks this participant on that day. */
  reason: z.string(),
  /** Already in the outbox for that day (a second run would not queue it again). */
  already_queued: z.boolean(),
});
export type ScheduledEmail = z.infer<typeof scheduledEmail>;
export const emailSchedule = z.object({
  date: z.string(),
  items: z.array(scheduledEmail),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  /** How many of each email that day, across every page. */
  counts: z.array(z.object({ email_type: EmailType, email_name: z.string(), count: z.number().int() })),
  /** For each email going that day, the placeholders that would come out empty in it (every page's). */
  warnings: z.array(emailWarning.extend({ email_type: EmailType, email_name: z.string() })),
});
export type EmailSchedule = z.infer<typeof emailSchedule>;

/* ---------- the season calendar ---------- */

/** `season` names one of the project's seasons; left out, the project's default season (`defaultSeason`). */
export const emailCalendarQuery = z.object({ season: requiredText(120).optional() });
/** How many of one email the schedule sends on a day. */
export const emailCount = z.object({ email_type: EmailType, email_name: z.string(), count: z.number().int() });
/** The calendar's count of one email on a day, with its forecast. */
export const calendarCount = emailCount.extend({
  count: z
    .number()
    .int()
    .describe('The upper bound: participants the schedule emails that day with progress as it stands today.'),
  forecast: z
    .number()
    .int()
    .describe(
      'The expected count (rounded): on days after today, an email that stops when a round is completed counts each ' +
        'participant by the share of the history still not done on that day of the round, among those not done ' +
        'today (see `forecast_basis`); otherwise the count itself.',
    ),
});
/** What the forecast is based on: past seasons of the project, else this season's ended rounds, else nothing. */
export const forecastBasis = z.object({
  source: z
    .enum(['PAST_SEASONS', 'THIS_SEASON', 'NONE'])
    .describe(
      'PAST_SEASONS: the project’s other seasons that have ended; THIS_SEASON: this season’s ended rounds (no past ' +
        'season had participants); NONE: no history, so every forecast is its count.',
    ),
  seasons: z.number().int().describe('Seasons in the history.'),
  rounds: z.number().int().describe('Rounds (with a published case) in the history.'),
  participant_rounds: z.number().int().describe('Participants’ rounds in the history (a participant once per round).'),
});
export type ForecastBasis = z.infer<typeof forecastBasis>;
/**
 * A season's calendar: for each day from its first round's start to its last round's end (or
 * its summary's reminder, once a summary is posted and that is later), which emails the
 * schedule sends and to how many — the dry run of every day, with progress as it stands now
 * (the upper bound) — and how many are expected (the forecast).
 */
export const emailCalendar = z.object({
  season_name: z.string(),
  today: z.string().describe('Today in the schedule’s time zone (`YYYY-MM-DD`): the app’s clock, not the browser’s.'),
  rounds: z
    .array(
      z.object({
        number: z.number().int(),
        start_date: z.string(),
        end_date: z.string(),
        published_cases: z
          .number()
          .int()
          .describe('Published cases placed in the round; with none, the schedule sends no email for the round.'),
      }),
    )
    .describe('The season’s rounds, in order.'),
  forecast_basis: forecastBasis,
  ahead: z
    .object({ count: z.number().int(), forecast: z.number().int() })
    .describe('The days after today, summed: the upper bound and the forecast.'),
  days: z.array(z.object({ date: z.string(), counts: z.array(calendarCount) })),
});
export type EmailCalendar = z.infer<typeof emailCalendar>;
