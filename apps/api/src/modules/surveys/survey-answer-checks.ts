import {
  isChoiceQuestion,
  isSingleAnswer,
  type FieldIssue,
  type SavedSurveyPage,
  type StoredSurveyAnswer,
} from '@pss/contract';
import type { z } from 'zod';
import type { surveyAnswerBody } from '@pss/contract';
import { validationError } from '../../lib/errors.js';
import { questionsOf } from './survey-template-pages.js';

export type AnswerBody = z.output<typeof surveyAnswerBody>;

function answeredAt(answer: StoredSurveyAnswer): boolean {
  return answer.choice_ids.length > 0 || Boolean(answer.text?.trim()) || answer.none_of_below;
}

/**
 * Checks answers against the template's questions: every component one of its questions
 * (once), every choice one of that question's, one choice for single-answer types, text only
 * where the question takes it; with `complete`, every required question answered.
 */
export function checkAnswers(pages: SavedSurveyPage[], body: AnswerBody): StoredSurveyAnswer[] {
  const questions = new Map(questionsOf(pages).map((q) => [q.id, q]));
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  const stored: StoredSurveyAnswer[] = [];
  body.answers.forEach((answer, i) => {
    const at = `body.answers.${i}`;
    const q = questions.get(answer.component_id);
    if (!q) return issues.push({ field: `${at}.component_id`, message: 'This is not a question of this survey.' });
    if (seen.has(q.id))
      return issues.push({ field: `${at}.component_id`, message: 'This question is answered twice.' });
    seen.add(q.id);
    const choiceIds = new Set(q.choices.map((c) => c.id));
    const text = answer.text?.trim() || null;
    if (!isChoiceQuestion(q.type) && answer.choice_ids.length) {
      issues.push({ field: `${at}.choice_ids`, message: 'This question takes text, not choices.' });
    } else if (answer.choice_ids.some((id) => !choiceIds.has(id))) {
      issues.push({ field: `${at}.choice_ids`, message: 'A choice is not one of this question’s.' });
    } else if (isSingleAnswer(q.type) && answer.choice_ids.length > 1) {
      issues.push({ field: `${at}.choice_ids`, message: 'This question takes one choice.' });
    }
    if (text && isChoiceQuestion(q.type) && !q.allow_other) {
      issues.push({ field: `${at}.text`, message: 'This question has no "other" entry.' });
    }
    if (answer.none_of_below && (!q.allow_none_of_below || answer.choice_ids.length)) {
      issues.push({ field: `${at}.none_of_below`, message: '"None of the below" is not possible here.' });
    }
    stored.push({ component_id: q.id, choice_ids: answer.choice_ids, text, none_of_below: answer.none_of_below });
  });
  if (body.complete) {
    for (const q of questions.values()) {
      const given = stored.find((a) => a.component_id === q.id);
      if (q.required && !(given && answeredAt(given))) {
        issues.push({ field: `components.${q.id}`, errorCode: 'FIELD_REQUIRED', message: `Answer "${q.text}".` });
      }
    }
  }
  if (issues.length) throw validationError(issues);
  return stored;
}
