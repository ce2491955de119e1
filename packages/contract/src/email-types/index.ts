import { certificateIssuedEmail } from './certificate-issued.js';
import { dashboardLinkEmail } from './dashboard-link.js';
import type { EmailCondition, EmailSending } from './email-type.js';
import { initialEmail } from './initial.js';
import { lastDayOfRoundEmail } from './last-day-of-round.js';
import { lastRoundEmail } from './last-round.js';
import { newRoundEmail } from './new-round.js';
import { reminderEmail } from './reminder.js';
import { seasonSummaryLaunchEmail } from './season-summary-launch.js';
import { seasonSummaryReminderEmail } from './season-summary-reminder.js';
import { summaryLaunchEmail } from './summary-launch.js';
import { summaryReminderEmail } from './summary-reminder.js';

export * from './email-type.js';

/**
 * Every email type (spec §4), one module each (./email-type.ts says what one declares), in the
 * order the Emails screen lists them. Every list of types below is derived from this one.
 */
export const emailTypeDescriptors = [
  initialEmail,
  reminderEmail,
  lastDayOfRoundEmail,
  newRoundEmail,
  lastRoundEmail,
  summaryLaunchEmail,
  summaryReminderEmail,
  certificateIssuedEmail,
  dashboardLinkEmail,
  seasonSummaryLaunchEmail,
  seasonSummaryReminderEmail,
] as const;

type Descriptor = (typeof emailTypeDescriptors)[number];
/** An email type's descriptor as declared, its values literal. */
export type EmailTypeDescriptorOf<T extends Descriptor['type'] = Descriptor['type']> = Extract<Descriptor, { type: T }>;
/** The types a rule of the round schedule sends: each has its rule in the API's `scheduleRules`. */
export type ScheduledEmailType = Extract<Descriptor, { sending: 'scheduled' }>['type'];

type Type = Descriptor['type'];
const typesOf = (keep: (d: Descriptor) => boolean): readonly Type[] =>
  emailTypeDescriptors.filter(keep).map((d) => d.type);

const all: readonly Type[] = emailTypeDescriptors.map((d) => d.type);
/** Every type (the database's check and drizzle want a list that is not empty). */
export const emailTypes = all as readonly [Type, ...Type[]];
/** The templates every project has (season null), in order. */
export const projectEmailTypes = typesOf((d) => d.project);
/** The variants every season has, in order. */
export const seasonEmailTypes = typesOf((d) => d.season);

const byType = new Map<string, Descriptor>(emailTypeDescriptors.map((d) => [d.type, d]));

/** A type's descriptor. */
export function emailTypeDescriptor(type: Type): Descriptor {
  const descriptor = byType.get(type);
  if (!descriptor) throw new Error(`No email type ${type}`);
  return descriptor;
}

/** The types a rule of the round schedule sends, in order. */
export const scheduledEmailTypes: readonly ScheduledEmailType[] = emailTypeDescriptors
  .filter((d): d is Extract<Descriptor, { sending: 'scheduled' }> => d.sending === 'scheduled')
  .map((d) => d.type);

/** The types sent in a way (`EmailSending`), in order. */
export const emailTypesSent = (sending: EmailSending) => typesOf((d) => d.sending === sending);
/** The types whose truth is a condition (`EmailCondition`), in order. */
export const emailTypesOnCondition = (condition: EmailCondition) => typesOf((d) => d.condition === condition);

/**
 * Sent by hand only (MANUAL): no schedule rule sends them. A save setting one AUTOMATIC is
 * refused, and the database holds the same rule (`email_templates_manual_only_check`).
 */
export const manualOnlyEmailTypes = emailTypesSent('manual-only');
export const isManualOnlyEmail = (type: string) => byType.get(type)?.sending === 'manual-only';

/** The Certificate Email: it names one certificate (condition `certificate`), so it never goes by hand. */
export const certificateEmailTypes = emailTypesOnCondition('certificate');
export const isCertificateEmail = (type: string) => byType.get(type)?.condition === 'certificate';

/**
 * The reminders (issue #47): List-Unsubscribe and List-Unsubscribe-Post (RFC 8058 one-click) go
 * with them, and a participant who unsubscribes from a project stops getting these from it (a
 * project-scoped UNSUBSCRIBED suppression) and nothing else.
 */
export const reminderEmailTypes = typesOf((d) => d.reminder);
export const isReminderEmail = (type: string) => byType.get(type)?.reminder === true;
