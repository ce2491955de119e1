import type { CaseBody } from '../../db/schema/index.js';
import type { StoredSurveyAnswer, SurveyQuestion } from '@pss/contract';
import { scoreAnswers, type StoredAnswer } from '../cases/cases.service.js';
import type { AnswerRow, AttemptRow, AttemptStatus } from './reports.repository.js';

/**
 * How the reports read participants' work: progress in words a person reads, averages,
 * and the per-category breakdown of a completed case's answers by the one scoring rule
 * (`modules/cases/scoring.ts`, through the cases service). Pure functions, tested alone.
 */

export type Progress = 'NOT_STARTED' | 'IN_PROGRESS' | 'COMPLETE';

export const progressLabels: Record<Progress, string> = {
  NOT_STARTED: 'Not started',
  IN_PROGRESS: 'In progress',
  COMPLETE: 'Complete',
};

export const statusLabels: Record<AttemptStatus, string> = {
  NOT_STARTED: 'Not started',
  STARTED: 'Opened',
  IN_PROGRESS: 'In progress',
  COMPLETE: 'Complete',
};

const begun = (a: Pick<AttemptRow, 'status'>) => a.status !== 'NOT_STARTED';

/**
 * Progress over some cases, as the participants list's filter reads it: COMPLETE when there
 * are cases and every one is complete, IN_PROGRESS when some is begun, else NOT_STARTED.
 */
export function progressOf(attempts: readonly Pick<AttemptRow, 'status'>[]): Progress {
  if (attempts.length && attempts.every((a) => a.status === 'COMPLETE')) return 'COMPLETE';
  return attempts.some(begun) ? 'IN_PROGRESS' : 'NOT_STARTED';
}

/**
 * A round's progress for a participant, in words: "Not assigned" (the round is not among
 * theirs), "No cases" (none published in it), "Complete", "In progress", "Not open yet"
 * (none begun and none unlocked by `today`) or "Not started".
 */
export function roundProgressLabel(
  assigned: boolean,
  attempts: readonly Pick<AttemptRow, 'status' | 'unlocksOn'>[],
  today: string,
): string {
  if (!assigned) return 'Not assigned';
  if (!attempts.length) return 'No cases';
  const progress = progressOf(attempts);
  if (progress !== 'NOT_STARTED') return progressLabels[progress];
  return attempts.every((a) => a.unlocksOn > today) ? 'Not open yet' : progressLabels.NOT_STARTED;
}

/** The mean of the scores, to one decimal; null for none. */
export function averageScore(scores: readonly (number | null)[]): number | null {
  const known = scores.filter((s): s is number => s !== null);
  if (!known.length) return null;
  return Math.round((10 * known.reduce((sum, s) => sum + s, 0)) / known.length) / 10;
}

/** The completed attempts' stored scores. */
export const completedScores = (attempts: readonly AttemptRow[]) =>
  attempts.filter((a) => a.status === 'COMPLETE').map((a) => a.score);

/** The latest moment anything happened to the attempts. */
export function lastActivity(attempts: readonly AttemptRow[]): Date | null {
  let latest: Date | null = null;
  for (const a of attempts) {
    for (const at of [a.startedAt, a.submittedAt, a.scoreAccessedAt, a.finishedAt]) {
      if (at && (!latest || at > latest)) latest = at;
    }
  }
  return latest;
}

/** `1-4`, or `2` for one round. */
export const roundsText = (first: number, last: number) => (first === last ? String(first) : `${first}-${last}`);

/** A percentage to one decimal; null when there is nothing to divide by. */
export function percent(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((1000 * part) / whole) / 10 : null;
}

/** What a completed case's answers show per question category. */
export interface CategoryUse {
  necessaryAvailable: number;
  necessaryMissed: number;
  unnecessaryAvailable: number;
  unnecessaryChosen: number;
}

export interface AnswerBreakdown {
  necessaryMissed: number;
  unnecessaryChosen: number;
  /** By question category id (questions without a category are in the totals only). */
  byCategory: Map<string, CategoryUse>;
}

/**
 * Under-use (necessary choices missed) and over-use (unnecessary choices chosen) in a
 * case's answers, in total and per question category, as the scoring rule counts them.
 */
export function answerBreakdown(body: CaseBody, answers: readonly AnswerRow[]): AnswerBreakdown {
  const stored = new Map<string, StoredAnswer>(
    answers.map((a) => [
      a.questionId,
      { question_id: a.questionId, choice_ids: a.choiceIds, text: null, none_of_below: a.noneOfBelow },
    ]),
  );
  const score = scoreAnswers(body.questions, stored);
  const questions = new Map(body.questions.map((q) => [q.id, q]));
  const byCategory = new Map<string, CategoryUse>();
  let necessaryMissed = 0;
  let unnecessaryChosen = 0;
  for (const result of score.questions) {
    necessaryMissed += result.necessaryMissed.length;
    unnecessaryChosen += result.unnecessaryChosen.length;
    const question = questions.get(result.questionId);
    if (!question?.category_id) continue;
    const use = byCategory.get(question.category_id) ?? {
      necessaryAvailable: 0,
      necessaryMissed: 0,
      unnecessaryAvailable: 0,
      unnecessaryChosen: 0,
    };
    use.necessaryAvailable += result.necessaryAvailable;
    use.necessaryMissed += result.necessaryMissed.length;
    use.unnecessaryAvailable += question.choices.filter((c) => c.marked_as === 'UNNECESSARY').length;
    use.unnecessaryChosen += result.unnecessaryChosen.length;
    byCategory.set(question.category_id, use);
  }
  return { necessaryMissed, unnecessaryChosen, byCategory };
}

/** Groups rows by a key, keeping their order. */
export function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** A survey answer as a report cell: the choices' texts, "Other: …", "None of the below", or the text typed. */
export function surveyAnswerText(question: SurveyQuestion, answer: StoredSurveyAnswer | undefined): string | null {
  if (!answer) return null;
  if (answer.none_of_below) return 'None of the below';
  const chosen = answer.choice_ids.map((id) => question.choices.find((c) => c.id === id)?.text ?? '').filter(Boolean);
  if (question.type === 'TEXT' || question.type === 'TYPE_AHEAD') return answer.text ?? null;
  if (answer.text) chosen.push(`Other: ${answer.text}`);
  return chosen.length ? chosen.join('; ') : null;
}
