import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  emailDeliveryKinds,
  emailDeliveryStatuses,
  emailSendModes,
  emailTypeDescriptor,
  emailTypes,
  manualOnlyEmailTypes,
} from '@pss/contract';
import { certificates } from './certificates.js';
import { projects, seasons } from './projects.js';
import { users } from './users.js';

/**
 * The manual-only types as migration 0047 wrote them in the check, the season's own first: in
 * the descriptors' order the check would read differently, and a migration would change nothing.
 */
const manualOnlyInCheck = [...manualOnlyEmailTypes].sort(
  (a, b) => Number(emailTypeDescriptor(a).project) - Number(emailTypeDescriptor(b).project),
);

/**
 * A project's email templates: the project emails (season_id null) and, per season, its
 * variants, made from the written defaults of their types (packages/contract/src/email-types/,
 * by db/email-templates.ts); edited, enabled or disabled, sent automatically or by hand (the
 * manual-only ones by hand only). A season's variants go with the season.
 */
export const emailTemplates = pgTable(
  'email_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    seasonId: uuid('season_id').references(() => seasons.id, { onDelete: 'cascade' }),
    type: text('type', { enum: emailTypes }).notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    buttonText: text('button_text').notNull(),
    dashboardUrlText: text('dashboard_url_text').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    sendMode: text('send_mode', { enum: emailSendModes }).notNull().default('AUTOMATIC'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One template of a type per project, and per season.
    uniqueIndex('email_templates_project_type_key')
      .on(t.projectId, t.type)
      .where(sql`${t.seasonId} is null`),
    uniqueIndex('email_templates_season_type_key').on(t.seasonId, t.type),
    index('email_templates_project_idx').on(t.projectId, t.seasonId),
    check('email_templates_type_check', sql`${t.type} in (${sql.raw(emailTypes.map((x) => `'${x}'`).join(', '))})`),
    check(
      'email_templates_send_mode_check',
      sql`${t.sendMode} in (${sql.raw(emailSendModes.map((x) => `'${x}'`).join(', '))})`,
    ),
    // The emails sent by hand only (`manualOnlyEmailTypes`: the season's Season Summary emails,
    // the Dashboard Link Email).
    check(
      'email_templates_manual_only_check',
      sql`${t.type} not in (${sql.raw(manualOnlyInCheck.map((x) => `'${x}'`).join(', '))}) or ${t.sendMode} = 'MANUAL'`,
    ),
  ],
);

/** One attempt at handing an email to the mail server, as the delivery log keeps it. */
export interface EmailAttempt {
  at: string;
  outcome: 'SENT' | 'RETRY' | 'FAILED';
  error?: string;
}

/**
 * The outbox: every email to a participant (or a test address) is a row before it is a
 * message. `dedupe_key` is unique — (kind, project, email, season, round, participant, the
 * rule's day) for scheduled mail, the certificate for a Certificate Email — so queuing twice,
 * a second process or a restart cannot queue it twice; a sender claims rows (SKIP LOCKED), sends and records each attempt. The
 * rendered texts are not stored: the message is made when it is sent, with the
 * participant's own freshly signed dashboard link (a credential, never written down).
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // The log goes with its project and its template (it is not a clinician's work).
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    templateId: uuid('template_id')
      .notNull()
      .references(() => emailTemplates.id, { onDelete: 'cascade' }),
    /** The season and round the email speaks of (its placeholders), when it has one. */
    seasonId: uuid('season_id').references(() => seasons.id, { onDelete: 'set null' }),
    roundNumber: smallint('round_number'),
    /**
     * The certificate a Certificate Email announces (its code and credits fill the email when
     * it is sent, and a revoked one is not announced); null for every other email.
     */
    certificateId: uuid('certificate_id').references(() => certificates.id, { onDelete: 'set null' }),
    /** The participant; null for a test send. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    toAddress: text('to_address').notNull(),
    kind: text('kind', { enum: emailDeliveryKinds }).notNull(),
    /** The day the rule (or the send) is for. */
    ruleDay: date('rule_day', { mode: 'string' }).notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    status: text('status', { enum: emailDeliveryStatuses }).notNull().default('QUEUED'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** While SENDING: the claim (its time) and how long it holds before another sender may take the row. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
    errorCode: text('error_code'),
    attemptLog: jsonb('attempt_log').$type<EmailAttempt[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_outbox_dedupe_key').on(t.dedupeKey),
    // What a sender claims: rows waiting for their turn (in claim order, so a claim reads
    // only the rows it takes, however many are queued), and claims whose lease ran out.
    index('email_outbox_queued_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'QUEUED'`),
    index('email_outbox_leased_idx')
      .on(t.leaseUntil)
      .where(sql`${t.status} = 'SENDING'`),
    // The delivery log, newest first, and its status filter.
    index('email_outbox_project_created_idx').on(t.projectId, t.createdAt, t.id),
    index('email_outbox_template_idx').on(t.templateId),
    index('email_outbox_user_idx').on(t.userId),
    // The foreign key's: few rows have a certificate, so the index holds only those.
    index('email_outbox_certificate_idx')
      .on(t.certificateId)
      .where(sql`${t.certificateId} is not null`),
    check(
      'email_outbox_kind_check',
      sql`${t.kind} in (${sql.raw(emailDeliveryKinds.map((x) => `'${x}'`).join(', '))})`,
    ),
    check(
      'email_outbox_status_check',
      sql`${t.status} in (${sql.raw(emailDeliveryStatuses.map((x) => `'${x}'`).join(', '))})`,
    ),
  ],
);

/**
 * Who sent which test email to whom. A test goes to any address from the platform's sender,
 * so each send is counted (per person and per project an hour, under an advisory lock; see
 * `email-test-sends.repository.ts`) and kept: its sender, its addresses, and the template's
 * texts as they were when it was sent. The rows outlive the project, the template and the
 * sender (set null; the sender's email is kept), so deleting a project neither hides a send
 * nor gives its sender a fresh count.
 */
export const emailTestSends = pgTable(
  'email_test_sends',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    senderId: uuid('sender_id').references(() => users.id, { onDelete: 'set null' }),
    senderEmail: text('sender_email').notNull(),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
    templateId: uuid('template_id').references(() => emailTemplates.id, { onDelete: 'set null' }),
    recipients: jsonb('recipients').$type<string[]>().notNull(),
    /** How many emails the send queued: what the limits count. */
    recipientCount: integer('recipient_count').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    buttonText: text('button_text').notNull(),
    dashboardUrlText: text('dashboard_url_text').notNull(),
  },
  (t) => [
    index('email_test_sends_sender_idx').on(t.senderId, t.sentAt),
    index('email_test_sends_project_idx').on(t.projectId, t.sentAt),
  ],
);
