import { sql } from 'drizzle-orm';
import { storedAttemptStatuses } from '@pss/contract';
import {
  boolean,
  check,
  date,
  index,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { cases } from './cases.js';
import { projects, seasons } from './projects.js';
import { users } from './users.js';

/**
 * A participant's UserSeasonRoundCase: one published case, in the season round it is
 * placed in, for one participant assigned to that round. Made from the assignments when
 * the participant (or an administrator's progress view) looks; answers hang off it.
 */
export const userSeasonRoundCases = pgTable(
  'user_season_round_cases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // restrict, like every key of a participant's work: deleting what it hangs off is refused
    // (the services say why first), never a silent cascade over a clinician's answers.
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'restrict' }),
    seasonId: uuid('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'restrict' }),
    roundNumber: smallint('round_number').notNull(),
    /** The later of the round's start and the participant's own start date. */
    unlocksOn: date('unlocks_on', { mode: 'string' }).notNull(),
    status: text('status', { enum: storedAttemptStatuses }).notNull().default('NOT_STARTED'),
    score: smallint('score'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    scoreAccessedAt: timestamp('score_accessed_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('usrc_user_case_unique').on(t.userId, t.caseId),
    index('usrc_user_idx').on(t.userId, t.unlocksOn),
    index('usrc_project_status_idx').on(t.projectId, t.status),
    index('usrc_case_idx').on(t.caseId),
    // A season's work is looked for before a project edit may remove the season.
    index('usrc_season_idx').on(t.seasonId, t.roundNumber),
    check('usrc_status_check', sql`${t.status} in ('NOT_STARTED', 'STARTED', 'IN_PROGRESS', 'COMPLETE')`),
  ],
);

/** One answer to one question of a UserSeasonRoundCase, saved as it is given. */
export const caseAnswers = pgTable(
  'case_answers',
  {
    userSeasonRoundCaseId: uuid('user_season_round_case_id')
      .notNull()
      .references(() => userSeasonRoundCases.id, { onDelete: 'restrict' }),
    questionId: uuid('question_id').notNull(),
    choiceIds: jsonb('choice_ids').$type<string[]>().notNull(),
    text: text('text'),
    noneOfBelow: boolean('none_of_below').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userSeasonRoundCaseId, t.questionId] })],
);
