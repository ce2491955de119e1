import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { importJobKinds, importJobStates } from '@pss/contract';
import { users } from './users.js';

export interface ImportRowError {
  line: number;
  errorCode: string;
  message: string;
}

/**
 * Background imports (CAP, PARTICIPANTS, ANSWER_TAGS, SUMMARY, NEW_USERS). A worker
 * claims a NOT_STARTED job with FOR UPDATE SKIP LOCKED, so several processes never run one
 * twice; `lease_until` lets a restarted process tell a job whose worker died.
 */
export const importJobs = pgTable(
  'import_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: importJobKinds }).notNull(),
    state: text('state', { enum: importJobStates }).notNull().default('NOT_STARTED'),
    /** What the import belongs to (a client, a project, a module), for "latest job of". */
    scopeId: uuid('scope_id'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    fileName: text('file_name'),
    filePath: text('file_path').notNull(),
    totalRows: integer('total_rows').notNull().default(0),
    processedRows: integer('processed_rows').notNull().default(0),
    errors: jsonb('errors').$type<ImportRowError[]>().notNull().default([]),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** How many times a process has claimed the job (a claim whose process died is taken up again). */
    attempts: integer('attempts').notNull().default(0),
    /** The id of the request that queued the job, so its worker's log lines can be found with the request's. */
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('import_jobs_pending_idx').on(t.state, t.createdAt),
    index('import_jobs_scope_idx').on(t.kind, t.scopeId, t.createdAt),
    check('import_jobs_state_check', sql`${t.state} in ('NOT_STARTED', 'RUNNING', 'COMPLETE', 'ERROR')`),
  ],
);

/** The CAP member roster, replaced whole by each CAP import. */
export const capRoster = pgTable('cap_roster', {
  capId: text('cap_id').primaryKey(),
  name: text('name').notNull(),
  status: text('status').notNull(),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull(),
});
