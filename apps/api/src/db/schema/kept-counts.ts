import {
  bigint,
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
import { cases } from './cases.js';
import { seasons } from './projects.js';

/**
 * The season figures kept current (issue #36): small rows keyed by what they count, written
 * by the database's own triggers in the transaction that changes what they count (migration
 * 0041, `db/kept-counts.ts`), so the Progress Dashboard sums a few hundred rows instead of
 * reading a season's work. Derived data: `kept_rebuild(season)` recomputes a season's rows
 * from the source rows, and a season or case going takes its rows with it.
 *
 * A member is a participant assigned to the season, not archived in the project, not a test
 * user. Members are counted by their group — first round, last round and start date — which
 * with the season's published cases and rounds' dates says which cases they have and when
 * each unlocks; the rest counts only members who have begun something.
 */

/** Members of the season per group. */
export const keptMemberGroups = pgTable(
  'kept_member_groups',
  {
    seasonId: uuid('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    firstRound: smallint('first_round').notNull(),
    lastRound: smallint('last_round').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    members: integer('members').notNull(),
  },
  (t) => [primaryKey({ columns: [t.seasonId, t.firstRound, t.lastRound, t.startDate] })],
);

/**
 * Members who have begun something, per group and per the rounds (bit n−1 for round n) in
 * which they have begun a case and those whose every published case they have completed.
 */
export const keptProgress = pgTable(
  'kept_progress',
  {
    seasonId: uuid('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    firstRound: smallint('first_round').notNull(),
    lastRound: smallint('last_round').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    startedRounds: smallint('started_rounds').notNull(),
    doneRounds: smallint('done_rounds').notNull(),
    participants: integer('participants').notNull(),
  },
  (t) => [
    primaryKey({
      columns: [t.seasonId, t.firstRound, t.lastRound, t.startDate, t.startedRounds, t.doneRounds],
    }),
  ],
);

/** Members' begun and completed attempts at each published case, per group, with the completed ones' scores. */
export const keptCaseCounts = pgTable(
  'kept_case_counts',
  {
    seasonId: uuid('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    firstRound: smallint('first_round').notNull(),
    lastRound: smallint('last_round').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    started: integer('started').notNull(),
    completed: integer('completed').notNull(),
    /** Completed attempts with a score, and the scores' sum: the mean is their quotient. */
    scored: integer('scored').notNull(),
    scoreSum: bigint('score_sum', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.seasonId, t.caseId, t.firstRound, t.lastRound, t.startDate] }),
    index('kept_case_counts_case_idx').on(t.caseId),
  ],
);

/**
 * Members' completions per quarter of an hour (UTC): any time zone's days are whole
 * quarters, so the chart's days are sums of these whatever SCHEDULE_TIME_ZONE says.
 */
export const keptCompletionQuarters = pgTable(
  'kept_completion_quarters',
  {
    seasonId: uuid('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    quarter: timestamp('quarter', { withTimezone: true }).notNull(),
    completed: integer('completed').notNull(),
  },
  (t) => [primaryKey({ columns: [t.seasonId, t.quarter] })],
);

/** How often each choice was picked in members' completed attempts (the question categories' use). */
export const keptChoicePicks = pgTable(
  'kept_choice_picks',
  {
    seasonId: uuid('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    questionId: uuid('question_id').notNull(),
    choiceId: text('choice_id').notNull(),
    picked: integer('picked').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.seasonId, t.caseId, t.questionId, t.choiceId] }),
    index('kept_choice_picks_case_idx').on(t.caseId),
  ],
);
