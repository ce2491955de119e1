import {
  isChoiceQuestion,
  isSingleAnswer,
  type CaseAnswer,
  type CaseDocument,
  type FieldIssue,
  type QuestionFeedback,
} from '@pss/contract';
import { scoreCase, type CaseScore, type ScoringAnswer } from './scoring.js';

/**
 * Answers to a case, checked against its questions, scored by the one scoring rule and
 * turned into feedback. Previews use it now; participants' attempts use the same rules.
 */

export interface StoredAnswer {
  question_id: string;
  choice_ids: string[];
  text: string | null;
  none_of_below: boolean;
}

type Question = CaseDocument['questions'][number];

/** Whether an answer says anything: a choice, "none of the below", or some text. */
export function isAnswered(answer: StoredAnswer | undefined): boolean {
  return Boolean(answer && (answer.choice_ids.length || answer.none_of_below || answer.text?.trim()));
}

/**
 * Checks answers against the case: each names one of its questions once, choices belong
 * to their question, single-answer questions get one choice, "other" text and "none of the
 * below" only where the question offers them. Returns the problems and the cleaned answers.
 */
export function checkAnswers(
  questions: readonly Question[],
  answers: readonly CaseAnswer[],
): { problems: FieldIssue[]; answers: Map<string, StoredAnswer> } {
  const problems: FieldIssue[] = [];
  const byId = new Map(questions.map((q) => [q.id, q]));
  const cleaned = new Map<string, StoredAnswer>();
  answers.forEach((raw, i) => {
    const at = `answers.${i}`;
    const question = byId.get(raw.question_id);
    if (!question) {
      problems.push({ field: `${at}.question_id`, message: 'This question is not part of the case.' });
      return;
    }
    if (cleaned.has(question.id)) {
      problems.push({ field: `${at}.question_id`, message: 'This question is answered twice.' });
      return;
    }
    const choiceIds = [...new Set(raw.choice_ids ?? [])];
    const text = raw.text?.trim() ? raw.text.trim() : null;
    const noneOfBelow = raw.none_of_below ?? false;
    const known = new Set(question.choices.map((c) => c.id));
    if (choiceIds.some((id) => !known.has(id))) {
      problems.push({ field: `${at}.choice_ids`, message: 'A chosen answer is not one of this question’s.' });
    }
    if (isChoiceQuestion(question.type)) {
      if (isSingleAnswer(question.type) && choiceIds.length + (text ? 1 : 0) + (noneOfBelow ? 1 : 0) > 1) {
        problems.push({ field: `${at}.choice_ids`, message: 'This question takes one answer.' });
      }
      if (noneOfBelow && !question.allow_none_of_below) {
        problems.push({ field: `${at}.none_of_below`, message: 'This question has no "none of the below".' });
      }
      if (noneOfBelow && choiceIds.length) {
        problems.push({ field: `${at}.none_of_below`, message: '"None of the below" cannot go with a choice.' });
      }
      if (text && !question.allow_other) {
        problems.push({ field: `${at}.text`, message: 'This question has no "other" answer.' });
      }
    } else {
      if (choiceIds.length && question.type === 'TEXT') {
        problems.push({ field: `${at}.choice_ids`, message: 'A text question takes text, not choices.' });
      }
      if (noneOfBelow) problems.push({ field: `${at}.none_of_below`, message: 'Only choice questions have this.' });
    }
    cleaned.set(question.id, { question_id: question.id, choice_ids: choiceIds, text, none_of_below: noneOfBelow });
  });
  return { problems, answers: cleaned };
}

/** Required questions left unanswered, by their place in the case (`questions.3`). */
export function missingRequired(
  questions: readonly Question[],
  answers: ReadonlyMap<string, StoredAnswer>,
): FieldIssue[] {
  return questions.flatMap((q, i) =>
    q.required && !isAnswered(answers.get(q.id))
      ? [{ field: `questions.${i}`, errorCode: 'FIELD_REQUIRED' as const, message: `Answer “${q.text}”.` }]
      : [],
  );
}

export function scoreAnswers(questions: readonly Question[], answers: ReadonlyMap<string, StoredAnswer>): CaseScore {
  const scoring = new Map<string, ScoringAnswer>(
    [...answers].map(([id, a]) => [id, { choiceIds: a.choice_ids, noneOfTheBelow: a.none_of_below }]),
  );
  return scoreCase(
    questions.map((q) => ({
      id: q.id,
      type: q.type,
      choices: q.choices.map((c) => ({ id: c.id, markedAs: c.marked_as ?? 'APPROPRIATE' })),
    })),
    scoring,
  );
}

/**
 * Per question: what was answered and, for personalised feedback, the necessary choices
 * missed and the unnecessary ones chosen. General feedback shows no answer key: the case's
 * explanation stands for it.
 */
export function feedbackFor(
  doc: Pick<CaseDocument, 'questions' | 'groupers' | 'feedback_type'>,
  answers: ReadonlyMap<string, StoredAnswer>,
  score: CaseScore,
  /** Answer tags by choice id (`choiceTagsOf`). */
  tags: ReadonlyMap<string, string[]> = new Map(),
): QuestionFeedback[] {
  const personalised = doc.feedback_type !== 'GENERAL_FEEDBACK';
  const results = new Map(score.questions.map((r) => [r.questionId, r]));
  const grouperName = new Map(doc.groupers.map((g) => [g.id, g.name]));
  return doc.questions.map((q) => {
    const answer = answers.get(q.id);
    const chosen = new Set(answer?.choice_ids ?? []);
    const result = results.get(q.id);
    const textOf = (id: string) => q.choices.find((c) => c.id === id)?.text ?? '';
    return {
      question_id: q.id,
      text: q.text,
      type: q.type,
      required: q.required,
      grouper_name: q.grouper_id ? (grouperName.get(q.grouper_id) ?? null) : null,
      choices: q.choices.map((c) => ({
        id: c.id,
        text: c.text,
        marked_as: personalised ? c.marked_as : null,
        chosen: chosen.has(c.id),
        tags: tags.get(c.id) ?? [],
      })),
      answer_text: answer?.text ?? null,
      none_of_below: answer?.none_of_below ?? false,
      scored: Boolean(result),
      necessary_missed: personalised && result ? result.necessaryMissed.map(textOf) : [],
      unnecessary_chosen: personalised && result ? result.unnecessaryChosen.map(textOf) : [],
    };
  });
}
