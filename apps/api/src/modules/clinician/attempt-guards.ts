import { AppError } from '../../lib/errors.js';
import type { AttemptRow } from './attempts.repository.js';

export const submitted = () =>
  new AppError('CHANGES_FORBIDDEN', { message: 'This case is submitted: its answers are final.' });
export const notPublished = () =>
  new AppError('CHANGES_FORBIDDEN', { message: 'This case is not published: it cannot be taken now.' });

/**
 * The rules a participant's work on one of their attempts must pass before it is written,
 * each with its refusal. One place for them: starting, answering and submitting ask the
 * same questions, in the same order.
 */
export function createAttemptGuards(deps: {
  /** Today in the schedule's time zone (`YYYY-MM-DD`). */
  today(): string;
  /** Whether the season's start survey is still to be answered before this attempt begins. */
  startSurveyPending(attemptId: string): Promise<boolean>;
}) {
  /** A season past its last round's end date takes no new answers (an administrator may extend the round). */
  const isClosed = (row: Pick<AttemptRow, 'seasonEndsOn'>) =>
    row.seasonEndsOn !== null && row.seasonEndsOn < deps.today();

  return {
    isClosed,
    isUnlocked: (row: Pick<AttemptRow, 'unlocksOn'>) => row.unlocksOn <= deps.today(),

    requireUnlocked(row: AttemptRow): void {
      if (row.unlocksOn > deps.today()) {
        throw new AppError('CHANGES_FORBIDDEN', { message: `This case unlocks on ${row.unlocksOn}.` });
      }
    },

    /**
     * A case that is not published is not taken (a quick answer here; the repository's writes
     * check again under a lock on the case).
     */
    requirePublished(row: AttemptRow): void {
      if (row.caseStatus !== 'PUBLISHED') throw notPublished();
    },

    requireOpen(row: AttemptRow): void {
      if (isClosed(row)) {
        throw new AppError('SEASON_CLOSED', {
          message: `${row.seasonName} ended on ${row.seasonEndsOn}: its cases are closed to new answers.`,
        });
      }
    },

    /**
     * The season's start survey comes before its first case (spec: the participant's screens
     * promise it; the server keeps the promise). Asked only of an attempt not yet begun: one
     * begun has passed this check.
     */
    async requireStartSurveyAnswered(row: AttemptRow): Promise<void> {
      if (row.status === 'NOT_STARTED' && (await deps.startSurveyPending(row.id))) {
        throw new AppError('START_SURVEY_REQUIRED');
      }
    },
  };
}
