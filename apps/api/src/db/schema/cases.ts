import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { caseOrigins, feedbackTypes, storedCaseStatuses } from '@pss/contract';
import { clients } from './clients.js';
import { diseaseTypes, projects, seasons } from './projects.js';
import { modules } from './modules.js';
import { users } from './users.js';

/** The parts of a case edited as one document: sections, groupers, questions and choices. */
export interface CaseBody {
  details_sections: { id: string; name: string; text: string }[];
  groupers: { id: string; name: string }[];
  questions: {
    id: string;
    grouper_id: string | null;
    type: 'MULTI_ONE' | 'MULTI_MANY' | 'TEXT' | 'DROPDOWN' | 'TYPE_AHEAD';
    text: string;
    text_before: string;
    required: boolean;
    category_id: string | null;
    choices: { id: string; text: string; marked_as: 'NECESSARY' | 'APPROPRIATE' | 'UNNECESSARY' | null }[];
    allow_other: boolean;
    allow_none_of_below: boolean;
  }[];
}

/**
 * A clinical case simulation. Scalar fields are columns (listed, sorted, searched); the
 * sections, groupers and questions are one JSON document, saved whole by the editor and
 * frozen once published, so the ids answers point at never dangle. `status` is what the
 * author set (DRAFT or PUBLISHED); a published case reads as ACTIVE while its round runs.
 */
export const cases = pgTable(
  'cases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    origin: text('origin', { enum: caseOrigins }).notNull().default('CUSTOM'),
    clientId: uuid('client_id').references(() => clients.id, { onDelete: 'restrict' }),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'restrict' }),
    /** The module library holding a MODULE_LIBRARY case. */
    moduleId: uuid('module_id').references(() => modules.id, { onDelete: 'restrict' }),
    status: text('status', { enum: storedCaseStatuses }).notNull().default('DRAFT'),
    name: text('name').notNull(),
    diseaseTypeId: uuid('disease_type_id').references(() => diseaseTypes.id, { onDelete: 'restrict' }),
    patientName: text('patient_name').notNull().default(''),
    patientAge: smallint('patient_age'),
    imageKey: text('image_key'),
    imageType: text('image_type'),
    /** The patient image's text alternative, written by the author. */
    imageAlt: text('image_alt').notNull().default(''),
    reasonForEncounter: text('reason_for_encounter').notNull().default(''),
    seasonId: uuid('season_id').references(() => seasons.id, { onDelete: 'set null' }),
    roundNumber: smallint('round_number'),
    feedbackType: text('feedback_type', { enum: feedbackTypes }),
    references: text('references').notNull().default(''),
    testResults: text('test_results').notNull().default(''),
    explanation: text('explanation').notNull().default(''),
    body: jsonb('body').$type<CaseBody>().notNull(),
    questionCount: integer('question_count').notNull().default(0),
    sourceCaseId: uuid('source_case_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('cases_project_name_idx').on(t.projectId, sql`lower(${t.name})`, t.id),
    index('cases_project_updated_idx').on(t.projectId, t.updatedAt, t.id),
    index('cases_module_name_idx').on(t.moduleId, sql`lower(${t.name})`, t.id),
    index('cases_season_idx').on(t.seasonId, t.roundNumber),
    index('cases_source_idx').on(t.sourceCaseId),
    check('cases_round_check', sql`${t.roundNumber} between 1 and 4`),
    check('cases_home_check', sql`(${t.projectId} is not null) or (${t.moduleId} is not null)`),
  ],
);

/**
 * An administrator taking a case as a participant would. The case content is copied in, so
 * a preview still reads right after the draft changes.
 */
export const casePreviews = pgTable(
  'case_previews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    takenBy: uuid('taken_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    snapshot: jsonb('snapshot').notNull(),
    answers: jsonb('answers').notNull(),
    score: smallint('score').notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('case_previews_case_idx').on(t.caseId, t.completedAt, t.id)],
);
