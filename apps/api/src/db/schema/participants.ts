import { sql } from 'drizzle-orm';
import { storedDataStatuses } from '@pss/contract';
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { projects, seasons } from './projects.js';
import { users } from './users.js';

/**
 * A participant of a project, with their per-project state: archived or not, notes, and
 * data status (READY when they have at least one assignment). Sort keys are copied from
 * the user so that a project's list pages by one index.
 */
export const projectParticipants = pgTable(
  'project_participants',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    archived: boolean('archived').notNull().default(false),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /** Copies of the user's sort keys (`last first`, lower-cased; email), kept in step on rename. */
    sortName: text('sort_name').notNull(),
    email: text('email').notNull(),
    notes: text('notes'),
    dataStatus: text('data_status', { enum: storedDataStatuses }).notNull().default('NOT_READY'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // User first: the key also finds a user's projects (each index costs every import row).
    primaryKey({ columns: [t.userId, t.projectId] }),
    // One index per sort the list offers, each within a project and its archive state.
    index('project_participants_by_name_idx').on(t.projectId, t.archived, t.sortName, t.userId),
    index('project_participants_by_email_idx').on(t.projectId, t.archived, t.email, t.userId),
    index('project_participants_by_created_idx').on(t.projectId, t.archived, t.createdAt, t.userId),
  ],
);

/**
 * "Contains" search over participants' names and emails, by trigram index: one row per
 * participation holding `sort_name email`. It is kept apart from `project_participants`
 * because filling a trigram index is the costliest part of a large import: an import marks
 * its project's search stale (`projects.participant_search_stale`) and the rows are brought
 * up to date right after it completes (db/participant-search.ts). While a project's search
 * is stale, searches read `project_participants` directly: slower, never wrong.
 */
export const participantSearch = pgTable(
  'participant_search',
  {
    projectId: uuid('project_id').notNull(),
    userId: uuid('user_id').notNull(),
    terms: text('terms').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.userId] }),
    foreignKey({
      columns: [t.userId, t.projectId],
      foreignColumns: [projectParticipants.userId, projectParticipants.projectId],
    }).onDelete('cascade'),
    // A large pending list (its size is set where the index is made, migration 0012): a
    // refresh of a big import appends to it, the vacuum after merges it.
    index('participant_search_terms_idx')
      .using('gin', sql`${t.terms} gin_trgm_ops`)
      .with({ gin_pending_list_limit: 32768 }),
  ],
);

/**
 * Which rounds of which season a participant takes, from which date. One row per
 * participant and season.
 */
export const participantAssignments = pgTable(
  'participant_assignments',
  {
    // restrict: an assignment is a clinician's work; what it hangs off is not deleted under it.
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    seasonId: uuid('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'restrict' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
    firstRound: smallint('first_round').notNull(),
    lastRound: smallint('last_round').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.seasonId] }),
    index('participant_assignments_project_idx').on(t.projectId, t.userId),
    // A season's assignments are looked for before a project edit may remove the season.
    index('participant_assignments_season_idx').on(t.seasonId),
    check(
      'participant_assignments_rounds_check',
      sql`${t.firstRound} between 1 and 4 and ${t.lastRound} between ${t.firstRound} and 4`,
    ),
  ],
);
