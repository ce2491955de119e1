import { z } from 'zod';
import { FeedbackType, MarkedAs, QuestionType } from './enums.js';
import { MAX_CHOICES, MAX_QUESTIONS } from './case-rules.js';
import { listQuerySchema, pagedSchema } from './list-query.js';
import { caseFeedbackSortFields, casePreviewSortFields } from './sort-fields.js';

/**
 * A case as it is taken (its editor's shapes are ./cases.ts): an answer, the case as a
 * participant sees it (no marks on the choices), the feedback on each question after a
 * submit, a staff member's preview of the case taken, and the case's answer key.
 */

const id = z.string().uuid();

export const caseAnswer = z.strictObject({
  question_id: id,
  choice_ids: z.array(id).max(MAX_CHOICES).default([]),
  /** Free text: the TEXT or TYPE_AHEAD answer, or the "other" entry of a choice question. */
  text: z.string().max(5000).nullish(),
  none_of_below: z.boolean().default(false),
});
export type CaseAnswer = z.input<typeof caseAnswer>;

export const createPreviewBody = z.strictObject({
  case_id: id,
  answers: z.array(caseAnswer).max(MAX_QUESTIONS),
});
export type CreatePreviewBody = z.input<typeof createPreviewBody>;

export const questionFeedback = z.object({
  question_id: id,
  text: z.string(),
  type: QuestionType,
  required: z.boolean(),
  grouper_name: z.string().nullable(),
  choices: z.array(
    z.object({
      id,
      text: z.string(),
      marked_as: MarkedAs.nullable(),
      chosen: z.boolean(),
      /** The answer tags the project gave this choice (Elements), shown beside it. */
      tags: z.array(z.string()),
    }),
  ),
  answer_text: z.string().nullable(),
  none_of_below: z.boolean(),
  scored: z.boolean(),
  necessary_missed: z.array(z.string()),
  unnecessary_chosen: z.array(z.string()),
});
export type QuestionFeedback = z.infer<typeof questionFeedback>;

export const casePreview = z.object({
  id,
  case_id: id,
  case_name: z.string(),
  taken_by: z.object({ id, name: z.string() }),
  score: z.number().int(),
  feedback_type: FeedbackType,
  /** Per question: the answer given and, for personalised feedback, what was missed or wrongly chosen. */
  questions: z.array(questionFeedback),
  explanation: z.string(),
  references: z.string(),
  test_results: z.string(),
  completed_at: z.string(),
});
export type CasePreview = z.infer<typeof casePreview>;

export const casePreviewSummary = z.object({
  id,
  name: z.string(),
  completed_at: z.string(),
  score: z.number().int(),
});
export const casePreviewPage = pagedSchema(casePreviewSummary);
export const casePreviewListQuery = listQuerySchema({
  sortable: casePreviewSortFields,
  defaultSort: [{ field: 'completed_at', direction: 'DESC' }],
  filter: z.strictObject({ mine: z.boolean().optional() }),
});
export type CasePreviewListQuery = z.output<typeof casePreviewListQuery>;

/** The case as a participant sees it: no marks on the choices. */
export const caseForParticipant = z.object({
  id,
  name: z.string(),
  patient_name: z.string(),
  patient_age: z.number().int().nullable(),
  has_image: z.boolean(),
  image_alt: z.string(),
  reason_for_encounter: z.string(),
  details_sections: z.array(z.object({ id, name: z.string(), text: z.string() })),
  groupers: z.array(z.object({ id, name: z.string() })),
  questions: z.array(
    z.object({
      id,
      grouper_id: id.nullable(),
      type: QuestionType,
      text: z.string(),
      text_before: z.string(),
      required: z.boolean(),
      choices: z.array(z.object({ id, text: z.string() })),
      allow_other: z.boolean(),
      allow_none_of_below: z.boolean(),
    }),
  ),
});
export type CaseForParticipant = z.infer<typeof caseForParticipant>;

/** The answer key: per scored question, which choices are necessary, appropriate, unnecessary. */
export const caseFeedbackItem = z.object({
  question_id: id,
  position: z.number().int(),
  text: z.string(),
  type: QuestionType,
  necessary: z.array(z.string()),
  appropriate: z.array(z.string()),
  unnecessary: z.array(z.string()),
});
export const caseFeedbackPage = pagedSchema(caseFeedbackItem);
export const caseFeedbackQuery = listQuerySchema({
  sortable: caseFeedbackSortFields,
  defaultSort: [{ field: 'position', direction: 'ASC' }],
  filter: z.strictObject({ type: QuestionType.optional() }),
});
export type CaseFeedbackQuery = z.output<typeof caseFeedbackQuery>;
