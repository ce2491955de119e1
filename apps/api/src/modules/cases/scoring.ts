/**
 * The scoring rule of the platform, in one place (previews, participants and reports all
 * call it):
 *
 *   score = 100 × (necessary choices selected − unnecessary choices selected)
 *                ÷ necessary choices available, clamped to 0–100.
 *
 * APPROPRIATE choices count neither way. Free-text questions (TEXT, TYPE_AHEAD) are not
 * scored. "None of the below" selects none of the listed choices: right where a question
 * has no necessary choice, and missing every necessary one where it has. A case with no
 * necessary choice at all scores 100 when nothing unnecessary was chosen and 0 otherwise,
 * since there is no scale to subtract from.
 *
 * Personalised feedback lists, per question, the necessary choices missed and the
 * unnecessary ones chosen.
 */

export type MarkedAs = 'NECESSARY' | 'APPROPRIATE' | 'UNNECESSARY';
export type ScoredQuestionType = 'MULTI_ONE' | 'MULTI_MANY' | 'DROPDOWN' | 'TEXT' | 'TYPE_AHEAD';

export interface ScoringQuestion {
  id: string;
  type: ScoredQuestionType;
  choices: { id: string; markedAs: MarkedAs }[];
}

export interface ScoringAnswer {
  choiceIds?: readonly string[];
  noneOfTheBelow?: boolean;
}

export interface QuestionResult {
  questionId: string;
  necessaryAvailable: number;
  necessarySelected: number;
  unnecessarySelected: number;
  necessaryMissed: string[];
  unnecessaryChosen: string[];
}

export interface CaseScore {
  /** 0–100, rounded to a whole number. */
  score: number;
  necessaryAvailable: number;
  necessarySelected: number;
  unnecessarySelected: number;
  questions: QuestionResult[];
}

const FREE_TEXT: ReadonlySet<ScoredQuestionType> = new Set(['TEXT', 'TYPE_AHEAD']);

export function scoreQuestion(question: ScoringQuestion, answer: ScoringAnswer | undefined): QuestionResult {
  const chosen = new Set(answer?.noneOfTheBelow ? [] : (answer?.choiceIds ?? []));
  const necessary = question.choices.filter((c) => c.markedAs === 'NECESSARY');
  const unnecessary = question.choices.filter((c) => c.markedAs === 'UNNECESSARY');
  const necessaryMissed = necessary.filter((c) => !chosen.has(c.id)).map((c) => c.id);
  const unnecessaryChosen = unnecessary.filter((c) => chosen.has(c.id)).map((c) => c.id);
  return {
    questionId: question.id,
    necessaryAvailable: necessary.length,
    necessarySelected: necessary.length - necessaryMissed.length,
    unnecessarySelected: unnecessaryChosen.length,
    necessaryMissed,
    unnecessaryChosen,
  };
}

export function scoreCase(
  questions: readonly ScoringQuestion[],
  answers: ReadonlyMap<string, ScoringAnswer>,
): CaseScore {
  const results = questions.filter((q) => !FREE_TEXT.has(q.type)).map((q) => scoreQuestion(q, answers.get(q.id)));
  const necessaryAvailable = sum(results.map((r) => r.necessaryAvailable));
  const necessarySelected = sum(results.map((r) => r.necessarySelected));
  const unnecessarySelected = sum(results.map((r) => r.unnecessarySelected));
  const raw =
    necessaryAvailable === 0
      ? unnecessarySelected === 0
        ? 100
        : 0
      : (100 * (necessarySelected - unnecessarySelected)) / necessaryAvailable;
  return {
    score: Math.round(Math.min(100, Math.max(0, raw))),
    necessaryAvailable,
    necessarySelected,
    unnecessarySelected,
    questions: results,
  };
}

function sum(values: number[]): number {
  return values.reduce((total, v) => total + v, 0);
}
