import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { SavedSurveyPage, StoredSurveyAnswer } from '@pss/contract';
import { userSeasonRoundCases } from './attempts.js';
import { projects, seasons } from './projects.js';
import { users } from './users.js';

const templateTypes = ['START_NEW', 'START_RETURNING', 'REVIEW', 'END'] as const;
const typeCheck = (column: unknown) => sql`${column} in ('START_NEW', 'START_RETURNING', 'REVIEW', 'END')`;

/**
 * A survey template: its pages and their components are one validated JSON document (as a
 * case's questions are); the counts the list shows are kept beside it, written with it.
 */
export const surveyTemplates = pgTable(
  'survey_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    type: text('type', { enum: templateTypes }).notNull(),
    pages: jsonb('pages').$type<SavedSurveyPage[]>().notNull(),
    pageCount: integer('page_count').notNull().default(0),
    questionCount: integer('question_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('survey_templates_name_idx').on(t.name, t.id),
    index('survey_templates_type_idx').on(t.type, t.name),
    index('survey_templates_updated_idx').on(t.updatedAt),
    index('survey_templates_created_idx').on(t.createdAt),
    index('survey_templates_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    check('survey_templates_type_check', typeCheck(t.type)),
  ],
);

/**
 * A project's choice of one template per type (no row: none chosen). A template in use
 * cannot be deleted (the services say so first; the keys restrict).
 */
export const projectSurveys = pgTable(
  'project_surveys',
  {
    projectId: uuid('project_id')
      .primaryKey()
      .references(() => projects.id, { onDelete: 'cascade' }),
    startNewTemplateId: uuid('start_new_template_id').references(() => surveyTemplates.id, { onDelete: 'restrict' }),
    startReturningTemplateId: uuid('start_returning_template_id').references(() => surveyTemplates.id, {
      onDelete: 'restrict',
    }),
    reviewTemplateId: uuid('review_template_id').references(() => surveyTemplates.id, { onDelete: 'restrict' }),
    endTemplateId: uuid('end_template_id').references(() => surveyTemplates.id, { onDelete: 'restrict' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('project_surveys_start_new_idx').on(t.startNewTemplateId),
    index('project_surveys_start_returning_idx').on(t.startReturningTemplateId),
    index('project_surveys_review_idx').on(t.reviewTemplateId),
    index('project_surveys_end_idx').on(t.endTemplateId),
  ],
);

/**
 * A participant's answers to one template on one UserSeasonRoundCase: kept as given (a
 * survey left half-way keeps its answers), complete once `completed_at` is set, then never
 * changed. A clinician's work: every key restricts, so no edit or delete cascades over it.
 */
export const surveyResponses = pgTable(
  'survey_responses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => surveyTemplates.id, { onDelete: 'restrict' }),
    /** The template's type when answered (a template with answers is frozen, so it stays true). */
    templateType: text('template_type', { enum: templateTypes }).notNull(),
    userSeasonRoundCaseId: uuid('user_season_round_case_id')
      .notNull()
      .references(() => userSeasonRoundCases.id, { onDelete: 'restrict' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
    seasonId: uuid('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'restrict' }),
    answers: jsonb('answers').$type<StoredSurveyAnswer[]>().notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('survey_responses_once_key').on(t.userId, t.templateId, t.userSeasonRoundCaseId),
    index('survey_responses_template_idx').on(t.templateId),
    index('survey_responses_usrc_idx').on(t.userSeasonRoundCaseId),
    // The report reads a page of participants' responses of one type in a project.
    index('survey_responses_report_idx').on(t.projectId, t.templateType, t.userId),
    index('survey_responses_season_idx').on(t.userId, t.seasonId),
    check('survey_responses_type_check', typeCheck(t.templateType)),
  ],
);
