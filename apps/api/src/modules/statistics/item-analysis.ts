import { isNegativeDiscrimination, type ItemAnalysisRow, type ItemFlag } from '@pss/contract';
import type { ChoiceFiguresRow, QuestionFiguresRow } from './item-analysis.repository.js';

/**
 * The thresholds of the item analysis's flags, in one place. A flag needs enough completed
 * attempts to mean something: below `minimumAttempts` none is raised. Negative
 * discrimination has a rule of its own, shared with the screen that states it (the
 * contract's `negativeDiscriminationRule`): 20 attempts and r two standard errors below 0.
 */
export const ITEM_FLAG_RULES = {
  minimumAttempts: 5,
  /** Full marks in at least this share of attempts: almost everyone gets it right. */
  almostAllRight: 0.95,
  /** Full marks in at most this share: almost everyone gets it wrong. */
  almostAllWrong: 0.05,
  /** A necessary choice missed, or an unnecessary one picked, in at least this share of attempts. */
  often: 1 / 3,
} as const;

export function questionFlags(row: QuestionFiguresRow, difficulty: number | null): ItemFlag[] {
  if (row.attempts < ITEM_FLAG_RULES.minimumAttempts || difficulty === null) return [];
  const flags: ItemFlag[] = [];
  if (difficulty >= ITEM_FLAG_RULES.almostAllRight) flags.push('ALMOST_ALL_RIGHT');
  if (difficulty <= ITEM_FLAG_RULES.almostAllWrong) flags.push('ALMOST_ALL_WRONG');
  if (isNegativeDiscrimination(row.discrimination, row.attempts)) flags.push('NEGATIVE_DISCRIMINATION');
  return flags;
}

function choiceFlags(choice: ChoiceFiguresRow, attempts: number, rate: number | null): ItemFlag[] {
  if (attempts < ITEM_FLAG_RULES.minimumAttempts || rate === null) return [];
  if (choice.marked_as === 'NECESSARY' && 1 - rate >= ITEM_FLAG_RULES.often) return ['OFTEN_MISSED'];
  if (choice.marked_as === 'UNNECESSARY' && rate >= ITEM_FLAG_RULES.often) return ['OFTEN_CHOSEN'];
  return [];
}

/**
 * The change of each row's figure since the earliest round in which the same case (its copies,
 * by `family_id`) was answered: questions matched by place and text, choices by text as well.
 */
function withChanges(rows: (ItemAnalysisRow & { family_id: string })[]): ItemAnalysisRow[] {
  const keyOf = (r: ItemAnalysisRow & { family_id: string }) =>
    [r.family_id, r.question_position, r.question_text, r.choice_text ?? ''].join('\u0000');
  const figureOf = (r: ItemAnalysisRow) => (r.choice_id === null ? r.difficulty : r.chosen_rate);
  const earliest = new Map<string, ItemAnalysisRow>();
  for (const row of rows) {
    if (figureOf(row) === null) continue;
    const known = earliest.get(keyOf(row));
    if (!known || row.round_number < known.round_number) earliest.set(keyOf(row), row);
  }
  return rows.map((row) => {
    const first = earliest.get(keyOf(row));
    const now = figureOf(row);
    const then = first ? figureOf(first) : null;
    const change = first && first.round_number < row.round_number && now !== null && then !== null ? now - then : null;
    const { family_id: _, ...shown } = row;
    return { ...shown, change };
  });
}

/** The rows of the item analysis: each question, then its choices, in the cases' order. */
export function itemAnalysisRows(questions: QuestionFiguresRow[], choices: ChoiceFiguresRow[]): ItemAnalysisRow[] {
  return withChanges(figureRows(questions, choices));
}

function figureRows(
  questions: QuestionFiguresRow[],
  choices: ChoiceFiguresRow[],
): (ItemAnalysisRow & { family_id: string })[] {
  const choicesOf = new Map<string, ChoiceFiguresRow[]>();
  for (const choice of choices) {
    const key = `${choice.case_id}:${choice.question_id}`;
    const list = choicesOf.get(key);
    if (list) list.push(choice);
    else choicesOf.set(key, [choice]);
  }
  const rows: (ItemAnalysisRow & { family_id: string })[] = [];
  for (const q of questions) {
    const difficulty = q.attempts === 0 ? null : q.full_marks / q.attempts;
    // Rounding noise can put a perfect correlation a hair outside [-1, 1].
    const discrimination = q.discrimination === null ? null : Math.max(-1, Math.min(1, Number(q.discrimination)));
    const question = {
      case_id: q.case_id,
      family_id: q.family_id,
      case_name: q.case_name,
      round_number: q.round_number,
      question_id: q.question_id,
      question_position: q.position,
      question_text: q.question_text,
      attempts: q.attempts,
    };
    rows.push({
      ...question,
      choice_id: null,
      choice_text: null,
      marked_as: null,
      chosen: null,
      chosen_rate: null,
      difficulty,
      discrimination,
      change: null,
      flags: questionFlags({ ...q, discrimination }, difficulty),
    });
    for (const choice of choicesOf.get(`${q.case_id}:${q.question_id}`) ?? []) {
      const rate = q.attempts === 0 ? null : choice.chosen / q.attempts;
      rows.push({
        ...question,
        choice_id: choice.choice_id,
        choice_text: choice.choice_text,
        marked_as: choice.marked_as,
        chosen: choice.chosen,
        chosen_rate: rate,
        difficulty: null,
        discrimination: null,
        change: null,
        flags: choiceFlags(choice, q.attempts, rate),
      });
    }
  }
  return rows;
}
