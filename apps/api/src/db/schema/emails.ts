import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { emailSendModes, emailTypes } from '@pss/contract';
import { projects, seasons } from './projects.js';

/**
 * A project's email templates: the seven project emails (season_id null) and, per season,
 * its five variants. Made from written defaults (db/email-templates.ts); edited, enabled or
 * disabled, sent automatically or by hand. A season's variants go with the season.
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
  ],
);
