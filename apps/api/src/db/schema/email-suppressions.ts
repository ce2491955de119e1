import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { emailSuppressionReasons, emailSuppressionSources } from '@pss/contract';
import { emailOutbox } from './emails.js';
import { projects } from './projects.js';

const inList = (values: readonly string[]) => sql.raw(values.map((x) => `'${x}'`).join(', '));

/** Bounce and complaint readers' sources (email-events.ts): a subset of the suppressions'. */
const eventSources = ['imap', 'ses', 'sendgrid', 'mailgun', 'postmark'] as const;
const eventTypes = ['HARD_BOUNCE', 'SOFT_BOUNCE', 'COMPLAINT'] as const;

/**
 * The suppression list: addresses no email goes to. `project_id` null suppresses the whole
 * address (a hard bounce, a complaint, three soft bounces, an administrator); set, only that
 * project's reminders (the participant unsubscribed from them). One row per address and
 * project, so a second bounce or unsubscribe changes nothing. Not tied to a user: an address
 * stays suppressed when its participant is deleted and comes back.
 */
export const emailSuppressions = pgTable(
  'email_suppressions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    reason: text('reason', { enum: emailSuppressionReasons }).notNull(),
    detail: text('detail').notNull().default(''),
    source: text('source', { enum: emailSuppressionSources }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // One suppression per address and project (the whole address: project null).
    uniqueIndex('email_suppressions_email_project_key').on(
      t.email,
      sql`coalesce(${t.projectId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
    // The list, newest first (its default order), and a project's unsubscribes.
    index('email_suppressions_at_idx').on(t.at, t.id),
    index('email_suppressions_project_idx')
      .on(t.projectId)
      .where(sql`${t.projectId} is not null`),
    check('email_suppressions_email_lowercase', sql`${t.email} = lower(${t.email})`),
    check('email_suppressions_reason_check', sql`${t.reason} in (${inList(emailSuppressionReasons)})`),
    check('email_suppressions_source_check', sql`${t.source} in (${inList(emailSuppressionSources)})`),
  ],
);

/**
 * Every bounce and complaint read (from the bounce mailbox or a provider's webhook), once:
 * a provider that delivers an event twice is recorded once, on (source, external id). Soft
 * bounces are counted from here (three in a row suppress), and the Progress Dashboard counts
 * bounces and complaints per email.
 */
export const emailEvents = pgTable(
  'email_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type', { enum: eventTypes }).notNull(),
    email: text('email').notNull(),
    /** The email it is about, when the reader could tell (its return path or Message-ID). */
    outboxId: uuid('outbox_id').references(() => emailOutbox.id, { onDelete: 'set null' }),
    detail: text('detail').notNull().default(''),
    source: text('source', { enum: eventSources }).notNull(),
    externalId: text('external_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('email_events_source_external_key').on(t.source, t.externalId),
    // An address's events in order (soft bounces in a row), and an email's.
    index('email_events_email_at_idx').on(t.email, t.at),
    index('email_events_outbox_idx')
      .on(t.outboxId)
      .where(sql`${t.outboxId} is not null`),
    check('email_events_email_lowercase', sql`${t.email} = lower(${t.email})`),
    check('email_events_type_check', sql`${t.type} in (${inList(eventTypes)})`),
    check('email_events_source_check', sql`${t.source} in (${inList(eventSources)})`),
  ],
);
