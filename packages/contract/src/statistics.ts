import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './list-query.js';
import { participantStatisticsSortFields } from './sort-fields.js';
import { requiredText } from './text-fields.js';

/**
 * A project season's statistics (spec §7, Statistics). Every figure is counted in SQL over
 * the participants' cases; test users (TESTUSER) and archived participants are left out.
 * Rates are numbers from 0 to 1 with their numerator and denominator beside them (0 when
 * the denominator is 0).
 */

/** `seasonName` names one of the project's seasons. */
export const statisticsSeasonQuery = z.object({ seasonName: requiredText(120) });

export const participationRate = z.object({
  /** Participants who have started at least one case of the season. */
  participating: z.number().int(),
  /** Participants assigned to the season. */
  total: z.number().int(),
  rate: z.number().min(0).max(1),
});
export type ParticipationRate = z.infer<typeof participationRate>;

export const completionRateTypes = ['CASES', 'PARTICIPANTS'] as const;
export const completionRateQuery = statisticsSeasonQuery.extend({
  type: z.enum(completionRateTypes).default('CASES'),
});
/**
 * CASES: completed cases ÷ cases unlocked so far; PARTICIPANTS: participants who have
 * completed every case unlocked for them so far ÷ participants assigned.
 */
export const completionRate = z.object({
  type: z.enum(completionRateTypes),
  completed: z.number().int(),
  total: z.number().int(),
  rate: z.number().min(0).max(1),
});
export type CompletionRate = z.infer<typeof completionRate>;

export const roundStatistics = z.object({
  round_number: z.number().int(),
  /** Participants assigned to the round. */
  assigned: z.number().int(),
  /** …who have started at least one of its cases. */
  participating: z.number().int(),
  /** …who have completed every case of it unlocked for them (at least one). */
  completed: z.number().int(),
  participation_rate: z.number().min(0).max(1),
  completion_rate: z.number().min(0).max(1),
});
export const roundStatisticsList = z.object({ items: z.array(roundStatistics) });
export type RoundStatistics = z.infer<typeof roundStatistics>;

export const caseCompletion = z.object({
  case_id: z.string().uuid(),
  case_name: z.string(),
  round_number: z.number().int(),
  /** Participants the case is assigned to. */
  assigned: z.number().int(),
  started: z.number().int(),
  completed: z.number().int(),
  completion_rate: z.number().min(0).max(1),
  /** The mean score of completed attempts, 0–100; null before anyone completes it. */
  average_score: z.number().nullable(),
});
export const caseCompletionList = z.object({ items: z.array(caseCompletion) });
export type CaseCompletion = z.infer<typeof caseCompletion>;

/** Completions per day over the last 14 days (today included), oldest first, every day listed. */
export const completionsByDay = z.object({
  items: z.array(z.object({ date: z.string(), completed: z.number().int() })),
});
export type CompletionsByDay = z.infer<typeof completionsByDay>;

/** NOT_STARTED: nothing begun; IN_PROGRESS: begun, not all complete; COMPLETE: every unlocked case complete. */
export const participantProgressValues = ['NOT_STARTED', 'IN_PROGRESS', 'COMPLETE'] as const;
export const ProgressOfParticipant = z.enum(participantProgressValues);

export const participantStatistics = z.object({
  user_id: z.string().uuid(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  progress: ProgressOfParticipant,
  completed: z.number().int(),
  /** Cases unlocked for the participant so far. */
  unlocked: z.number().int(),
  average_score: z.number().nullable(),
  rounds: z.array(
    z.object({
      round_number: z.number().int(),
      progress: ProgressOfParticipant,
      completed: z.number().int(),
      unlocked: z.number().int(),
      average_score: z.number().nullable(),
    }),
  ),
});
export type ParticipantStatistics = z.infer<typeof participantStatistics>;
export const participantStatisticsQuery = listQuerySchema({
  sortable: participantStatisticsSortFields,
  defaultSort: [{ field: 'name', direction: 'ASC' }],
  filter: z.strictObject({ progress: ProgressOfParticipant.optional() }),
  // Optional here, as the spec lists the call: left out, the project's default season
  // (`defaultSeason`: the one running today, else the latest begun).
}).and(z.object({ seasonName: requiredText(120).optional() }));
export const participantStatisticsPage = pagedSchema(participantStatistics);

export const connectedAccount = z.object({
  user_id: z.string().uuid(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  role: z.string(),
  /** Separate sign-ins (sessions begun), and the first and the latest. */
  sign_ins: z.number().int(),
  first_sign_in: z.string(),
  last_sign_in: z.string(),
});
export type ConnectedAccount = z.infer<typeof connectedAccount>;
export const connectedAccountsQuery = listQuerySchema({
  sortable: ['last_sign_in', 'name'] as const,
  defaultSort: [{ field: 'last_sign_in', direction: 'DESC' }],
  filter: z.strictObject({}),
});
export const connectedAccountsPage = pagedSchema(connectedAccount);

export const scoringUpdateBody = z.strictObject({ project_id: z.string().uuid() });
/** How many completed attempts' stored scores the recomputation changed (0 when run again). */
export const scoringUpdateResult = z.object({ checked: z.number().int(), updated: z.number().int() });

/**
 * Beyond the specification: per question category, how often necessary choices were missed
 * (under-use) and unnecessary ones chosen (over-use) in completed cases, per round and over
 * the season, with the change from the first round to the last that has completed cases.
 */
const useRates = z.object({
  necessary_offered: z.number().int(),
  necessary_missed: z.number().int(),
  under_use_rate: z.number().min(0).max(1),
  unnecessary_offered: z.number().int(),
  unnecessary_chosen: z.number().int(),
  over_use_rate: z.number().min(0).max(1),
});
export const categoryUse = useRates.extend({
  category_id: z.string().uuid().nullable(),
  category_name: z.string(),
  rounds: z.array(useRates.extend({ round_number: z.number().int() })),
  /** Last round's rate − first round's (negative: fewer misses); null with fewer than two rounds. */
  under_use_change: z.number().nullable(),
  over_use_change: z.number().nullable(),
});
export type CategoryUse = z.infer<typeof categoryUse>;
export const categoryUseList = z.object({ items: z.array(categoryUse) });

/**
 * What the item analysis flags (issue #37): a question almost everyone answers with full
 * marks, or almost no one; one whose full marks go with a lower rest-of-case score
 * (negative discrimination); a necessary choice many miss; an unnecessary one many pick.
 */
export const itemFlags = [
  'ALMOST_ALL_RIGHT',
  'ALMOST_ALL_WRONG',
  'NEGATIVE_DISCRIMINATION',
  'OFTEN_MISSED',
  'OFTEN_CHOSEN',
] as const;
export type ItemFlag = (typeof itemFlags)[number];

/**
 * When a question's discrimination r is flagged as negative (issue #48): only where the
 * evidence holds, not at any r below 0. With N completed attempts its standard error is
 * SE = √((1 − r²) / (N − 2)), about 0.22 at N = 20; the flag needs r two standard errors
 * below 0 (r + 2·SE ≤ 0, the usual test of a correlation at about 5 %), which works out to
 * r ≤ −2 / √(N + 2): −0.43 at 20 attempts, −0.35 at 30, −0.20 at 100. Below 20 attempts
 * (the same test would need r ≤ −0.76 at 5) nothing is flagged. The one place of the rule:
 * the API's flags and the screen's statement of it both read it here.
 */
export const negativeDiscriminationRule = { minimumAttempts: 20, standardErrors: 2 } as const;

/** The discrimination at or below which `attempts` completed attempts flag a question; null below the minimum. */
export function negativeDiscriminationLimit(attempts: number): number | null {
  if (!(attempts >= negativeDiscriminationRule.minimumAttempts)) return null;
  return -negativeDiscriminationRule.standardErrors / Math.sqrt(attempts + 2);
}

/** Whether a question's discrimination is flagged as negative (`negativeDiscriminationRule`). */
export function isNegativeDiscrimination(discrimination: number | null, attempts: number): boolean {
  const limit = negativeDiscriminationLimit(attempts);
  // A hair of rounding on the boundary counts as on it.
  return discrimination !== null && limit !== null && discrimination <= limit + 1e-12;
}

/**
 * One row of a season's item analysis: a scored question of a published case (`choice_id`
 * null: its difficulty and discrimination), or one of its choices (how often it was picked).
 */
export const itemAnalysisRow = z.object({
  case_id: z.string().uuid(),
  case_name: z.string(),
  round_number: z.number().int(),
  question_id: z.string(),
  /** The question's place in its case, from 1. */
  question_position: z.number().int(),
  question_text: z.string(),
  choice_id: z.string().nullable(),
  choice_text: z.string().nullable(),
  marked_as: z.enum(['NECESSARY', 'APPROPRIATE', 'UNNECESSARY']).nullable(),
  /** Members' completed attempts at the case. */
  attempts: z.number().int(),
  /** Choice rows: attempts that picked the choice, and their share of `attempts`. */
  chosen: z.number().int().nullable(),
  chosen_rate: z.number().min(0).max(1).nullable(),
  /** Question rows: the share of attempts with full marks on the question. */
  difficulty: z.number().min(0).max(1).nullable(),
  /** Question rows: the point-biserial correlation of full marks with the rest of the case's score. */
  discrimination: z.number().min(-1).max(1).nullable(),
  /**
   * Where the same case (copies of one case, by `source_case_id`) was answered in an earlier
   * round of the season: the change of `difficulty` (question rows) or `chosen_rate` (choice
   * rows) since the earliest such round, matched by the question's place and text and the
   * choice's text; null otherwise.
   */
  change: z.number().min(-1).max(1).nullable(),
  flags: z.array(z.enum(itemFlags)),
});
export type ItemAnalysisRow = z.infer<typeof itemAnalysisRow>;
export const itemAnalysisList = z.object({ items: z.array(itemAnalysisRow) });
