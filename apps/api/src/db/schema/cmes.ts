import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects } from './projects.js';

/** A CME credit offered by a project: earned by completing at least `min_cases` cases. */
export const cmes = pgTable(
  'cmes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    minCases: integer('min_cases').notNull(),
    credits: numeric('credits', { precision: 8, scale: 2, mode: 'number' }).notNull(),
    moc: boolean('moc').notNull().default(false),
    toteraCourseId: text('totera_course_id'),
    custom: text('custom'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('cmes_project_idx').on(t.projectId, t.minCases, t.id),
    check('cmes_min_cases_check', sql`${t.minCases} >= 0`),
    check('cmes_credits_check', sql`${t.credits} >= 0`),
  ],
);
