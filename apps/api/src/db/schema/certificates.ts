import { sql } from 'drizzle-orm';
import { index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { cmes } from './cmes.js';
import { projects } from './projects.js';
import { users } from './users.js';

/** A case that counted toward a certificate: what it was and when it was submitted. */
export interface CertificateCase {
  case_id: string;
  case_name: string;
  submitted_at: string;
}

/**
 * A CME certificate (issue #37): issued once per CME and participant, in the transaction of
 * the submit that brought their completed cases of the project to the CME's minimum
 * (`db/certificates.ts`). What it certifies is copied onto it as it was on that day — name,
 * profession, project, client, credits, MOC points, course id and the cases that earned it —
 * so that a later edit or a removed CME does not change a certificate already given. The
 * `code` is its public, unguessable name (100 random bits), checked by anyone on
 * `/verify/{code}`; a revoked certificate keeps its row, with when, why and by whom.
 */
export const certificates = pgTable(
  'certificates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    cmeId: uuid('cme_id').references(() => cmes.id, { onDelete: 'set null' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    participantName: text('participant_name').notNull(),
    profession: text('profession'),
    projectName: text('project_name').notNull(),
    clientName: text('client_name').notNull(),
    credits: numeric('credits', { precision: 8, scale: 2, mode: 'number' }).notNull(),
    /** The CME's credits when it counts for MOC, else null. */
    mocPoints: numeric('moc_points', { precision: 8, scale: 2, mode: 'number' }),
    courseId: text('course_id'),
    minCases: integer('min_cases').notNull(),
    cases: jsonb('cases').$type<CertificateCase[]>().notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('certificates_code_unique').on(t.code),
    // Once per CME and participant; a certificate whose CME was removed keeps its row.
    uniqueIndex('certificates_cme_user_unique')
      .on(t.cmeId, t.userId)
      .where(sql`${t.cmeId} is not null`),
    index('certificates_project_idx').on(t.projectId, t.issuedAt, t.id),
    index('certificates_user_idx').on(t.userId),
  ],
);
