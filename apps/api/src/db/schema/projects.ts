import { sql } from 'drizzle-orm';
import { projectStatuses } from '@pss/contract';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { clients } from './clients.js';

/** A client's programme of case simulations, run in seasons of up to four rounds. */
export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    status: text('status', { enum: projectStatuses }).notNull().default('ACTIVE'),
    notes: text('notes'),
    /** The project's own support contact ({email}, {phone}); null: the client's, then the server's. */
    supportEmail: text('support_email'),
    supportPhone: text('support_phone'),
    /**
     * Kept counts of the project's participants, updated in the same transaction as every
     * change to them, so that a list page never recounts 100,000 rows.
     */
    activeParticipants: integer('active_participants').notNull().default(0),
    archivedParticipants: integer('archived_participants').notNull().default(0),
    notReadyParticipants: integer('not_ready_participants').notNull().default(0),
    /**
     * Goes up with every statement that changes the project's participants (a trigger, see
     * migration 0014), so that anything derived from their order can tell it is out of date.
     */
    participantsVersion: bigint('participants_version', { mode: 'number' }).notNull().default(0),
    /** The participant search rows lag behind an import until refreshed (see participantSearch). */
    participantSearchStale: boolean('participant_search_stale').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('projects_client_name_unique').on(t.clientId, sql`lower(${t.name})`),
    index('projects_client_created_idx').on(t.clientId, t.createdAt, t.id),
    index('projects_name_idx').on(sql`lower(${t.name})`, t.id),
    index('projects_created_idx').on(t.createdAt, t.id),
    // The few projects whose participant search awaits a refresh.
    index('projects_search_stale_idx')
      .on(t.id)
      .where(sql`${t.participantSearchStale}`),
    // Substring search (ILIKE '%…%') by index.
    index('projects_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    check('projects_status_check', sql`${t.status} in ('ACTIVE', 'ARCHIVED')`),
  ],
);

/** Catalogues shared by projects and module libraries; names are unique regardless of case. */
export const diseaseTypes = pgTable(
  'disease_types',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('disease_types_name_unique').on(sql`lower(${t.name})`)],
);

export const questionCategories = pgTable(
  'question_categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('question_categories_name_unique').on(sql`lower(${t.name})`)],
);

export const projectDiseaseTypes = pgTable(
  'project_disease_types',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    // restrict: a disease type assigned to a project cannot be deleted.
    diseaseTypeId: uuid('disease_type_id')
      .notNull()
      .references(() => diseaseTypes.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.diseaseTypeId] }), index('pdt_disease_type_idx').on(t.diseaseTypeId)],
);

export const projectQuestionCategories = pgTable(
  'project_question_categories',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    questionCategoryId: uuid('question_category_id')
      .notNull()
      .references(() => questionCategories.id, { onDelete: 'restrict' }),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.questionCategoryId] }),
    index('pqc_question_category_idx').on(t.questionCategoryId),
  ],
);

export const seasons = pgTable(
  'seasons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // restrict: a project's delete removes its seasons itself, after checking nothing of
    // participants' hangs off them.
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    /** First round's start and last round's end, kept in step with the rounds on every save. */
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
  },
  (t) => [
    uniqueIndex('seasons_project_name_unique').on(t.projectId, sql`lower(${t.name})`),
    // Running seasons, in the order the list shows them (end date, then id).
    index('seasons_span_idx').on(t.endDate, t.id),
  ],
);

export const rounds = pgTable(
  'rounds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seasonId: uuid('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    number: smallint('number').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
  },
  (t) => [
    uniqueIndex('rounds_season_number_unique').on(t.seasonId, t.number),
    index('rounds_dates_idx').on(t.startDate, t.endDate),
    check('rounds_number_check', sql`${t.number} between 1 and 4`),
    check('rounds_dates_check', sql`${t.endDate} >= ${t.startDate}`),
  ],
);
