import { sql } from 'drizzle-orm';
import {
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
  uuid,
} from 'drizzle-orm/pg-core';
import { importJobs } from './imports.js';
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
    dataStatus: text('data_status', { enum: ['READY', 'NOT_READY'] })
      .notNull()
      .default('NOT_READY'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.userId] }),
    index('project_participants_user_idx').on(t.userId),
    // One index per sort the list offers, each within a project and its archive state.
    index('project_participants_by_name_idx').on(t.projectId, t.archived, t.sortName, t.userId),
    index('project_participants_by_email_idx').on(t.projectId, t.archived, t.email, t.userId),
    index('project_participants_by_created_idx').on(t.projectId, t.archived, t.createdAt, t.userId),
    // "Contains" search over name and email by trigram; GIN's pending list keeps imports cheap.
    index('project_participants_search_idx')
      .using('gin', sql`(${t.sortName} || ' ' || ${t.email}) gin_trgm_ops`)
      // A 32 MB pending list: an import of 100,000 appends to it, the vacuum after merges it.
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
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seasonId: uuid('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    firstRound: smallint('first_round').notNull(),
    lastRound: smallint('last_round').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.seasonId] }),
    index('participant_assignments_project_idx').on(t.projectId, t.userId),
    check(
      'participant_assignments_rounds_check',
      sql`${t.firstRound} between 1 and 4 and ${t.lastRound} between ${t.firstRound} and 4`,
    ),
  ],
);

/**
 * Rows of an import that passed their own checks, waiting for the all-or-nothing apply.
 * Typed columns rather than JSON, and UNLOGGED (see the migration): staging is rewritten on
 * every import and needs no crash safety, since a crashed import is started again.
 */
export const importRows = pgTable(
  'import_rows',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => importJobs.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    email: text('email').notNull(),
    employeeId: text('employee_id').notNull(),
    role: text('role').notNull(),
    profession: text('profession').notNull(),
    salutation: text('salutation'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    secondaryEmail: text('secondary_email'),
    mobileNumber: text('mobile_number'),
    npi: text('npi'),
    practiceNumber: text('practice_number'),
    facility: text('facility'),
    specialty: text('specialty'),
    managerFirstName: text('manager_first_name'),
    managerLastName: text('manager_last_name'),
    managerEmail: text('manager_email'),
    userType: text('user_type'),
    seasonId: uuid('season_id'),
    firstRound: smallint('first_round'),
    lastRound: smallint('last_round'),
    startDate: date('start_date', { mode: 'string' }),
  },
  (t) => [index('import_rows_job_email_idx').on(t.jobId, t.email)],
);
