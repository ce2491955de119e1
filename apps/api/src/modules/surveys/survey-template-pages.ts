import { randomUUID } from 'node:crypto';
import {
  isChoiceQuestion,
  surveyTemplateProblems,
  type SavedSurveyComponent,
  type SavedSurveyPage,
  type SurveyQuestion,
  type SurveyTemplateTypeValue,
} from '@pss/contract';
import type { z } from 'zod';
import type { surveyPage } from '@pss/contract';
import { AppError, validationError } from '../../lib/errors.js';
import { sanitizeQuestionHtml } from './survey-rich-text.js';

type PageInput = z.output<typeof surveyPage>;

/** Ids the builder gave are kept; a missing or repeated one is replaced (answers point at them). */
export function withIds(pages: PageInput[], fresh = false): SavedSurveyPage[] {
  const seen = new Set<string>();
  const idOf = (id: string | undefined) => {
    const next = !fresh && id && !seen.has(id) ? id : randomUUID();
    seen.add(next);
    return next;
  };
  return pages.map((page) => ({
    id: idOf(page.id),
    name: page.name.trim(),
    components: page.components.map((c): SavedSurveyComponent => {
      if (c.kind === 'INFO_REVIEW') return { id: idOf(c.id), kind: 'INFO_REVIEW', text: c.text.trim() };
      return {
        id: idOf(c.id),
        kind: 'QUESTION',
        type: c.type,
        text: c.text.trim(),
        text_before: sanitizeQuestionHtml(c.text_before),
        required: c.required,
        // Free text takes no choices, except a type-ahead's suggestions.
        choices:
          c.type === 'TEXT' ? [] : c.choices.map((choice) => ({ id: idOf(choice.id), text: choice.text.trim() })),
        allow_other: isChoiceQuestion(c.type) && c.allow_other,
        allow_none_of_below: isChoiceQuestion(c.type) && c.allow_none_of_below,
      };
    }),
  }));
}

export const questionsOf = (pages: SavedSurveyPage[]): SurveyQuestion[] =>
  pages.flatMap((p) => p.components.filter((c): c is SurveyQuestion => c.kind === 'QUESTION'));
export const hasInfoReview = (pages: SavedSurveyPage[]) =>
  pages.some((p) => p.components.some((c) => c.kind === 'INFO_REVIEW'));

/**
 * The template rule, as a refusal: an info review in a START_NEW template first, then a page
 * name used twice (naming the page), then an empty survey or page (SURVEY_EMPTY), then anything
 * else (VALIDATION_ERROR); each issue names its field (`body.pages.1.name`).
 */
export function assertValid(input: { type: SurveyTemplateTypeValue; pages: SavedSurveyPage[] }): void {
  const problems = surveyTemplateProblems(input).map((p) => ({ ...p, field: `body.${p.field}` }));
  if (!problems.length) return;
  const infoReview = problems.filter((p) => p.errorCode === 'START_NEW_SURVEY_INFO_REVIEW_NOT_ALLOWED');
  if (infoReview.length) {
    throw new AppError('START_NEW_SURVEY_INFO_REVIEW_NOT_ALLOWED', { details: { fields: infoReview } });
  }
  const names = problems.filter((p) => p.errorCode === 'PAGE_NAME_NOT_UNIQUE');
  if (names.length) {
    const named = names.map((p) => `"${input.pages[Number(p.field.split('.')[2])]?.name ?? ''}"`).join(', ');
    throw new AppError('PAGE_NAME_NOT_UNIQUE', {
      message: `Page names must be unique: ${named} is used more than once.`,
      details: { fields: names },
    });
  }
  const empty = problems.filter((p) => p.errorCode === 'SURVEY_EMPTY');
  if (empty.length) throw new AppError('SURVEY_EMPTY', { details: { fields: empty } });
  throw validationError(problems);
}

/** The page and question counts a template row keeps for the list. */
export const counts = (pages: SavedSurveyPage[]) => ({
  pageCount: pages.length,
  questionCount: questionsOf(pages).length,
});
