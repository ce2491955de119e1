import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './list-query.js';
import { caseElementsSortFields } from './sort-fields.js';

/**
 * Elements: what participants see on their dashboard beside the cases — key takeaways of a
 * case, and answer tags that label answer choices. Projects and module libraries each have
 * theirs, uploaded as CSV files (import kinds SUMMARY and ANSWER_TAGS).
 */

/** Key takeaways a case may have (an upload with more is refused: IMPORT_MAX_DATA_EXCEEDED). */
export const MAX_KEY_TAKEAWAYS = 20;
export const KEY_TAKEAWAY_HEADERS = ['case_name', 'key_takeaway'] as const;
export const ANSWER_TAG_HEADERS = ['case_name', 'question', 'answer', 'tag'] as const;

export const ElementsType = z.enum(['KEY_TAKEAWAYS', 'ANSWER_TAGS']);
export type ElementsTypeValue = z.infer<typeof ElementsType>;
export const ElementOrigin = z.enum(['CUSTOM', 'MODULE_LIBRARY']);

const caseFilter = z
  .string()
  .max(500)
  .optional()
  .transform((raw, ctx) => {
    if (!raw) return {};
    try {
      const parsed = z.strictObject({ case_id: z.string().uuid().optional() }).safeParse(JSON.parse(raw));
      if (parsed.success) return parsed.data;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'filter must be {"case_id": "…"}' });
    return z.NEVER;
  });
export const elementsFilterQuery = z.object({ filter: caseFilter });

export const keyTakeaway = z.object({
  case_id: z.string().uuid(),
  case_name: z.string(),
  position: z.number().int(),
  text: z.string(),
  origin: ElementOrigin,
});
export const keyTakeawayList = z.object({ items: z.array(keyTakeaway) });
export type KeyTakeaway = z.infer<typeof keyTakeaway>;

export const answerTag = z.object({
  case_id: z.string().uuid(),
  case_name: z.string(),
  question_id: z.string().uuid(),
  question: z.string(),
  choice_id: z.string().uuid(),
  answer: z.string(),
  tag: z.string(),
  origin: ElementOrigin,
});
export const answerTagList = z.object({ items: z.array(answerTag) });
export type AnswerTag = z.infer<typeof answerTag>;

/** Per case, how many key takeaways and answer tags it has. */
export const caseElements = z.object({
  case_id: z.string().uuid(),
  case_name: z.string(),
  key_takeaways: z.number().int(),
  answer_tags: z.number().int(),
});
export type CaseElements = z.infer<typeof caseElements>;
export const caseElementsPage = pagedSchema(caseElements);

const caseElementsList = (typeRequired: boolean) =>
  listQuerySchema({
    sortable: caseElementsSortFields,
    defaultSort: [{ field: 'case_name', direction: 'ASC' }],
    filter: z.strictObject({}),
  }).and(z.object({ type: typeRequired ? ElementsType : ElementsType.optional() }));
/** `type` narrows the list to cases having that kind of element; a module's list requires it. */
export const projectCaseElementsQuery = caseElementsList(false);
export const moduleCaseElementsQuery = caseElementsList(true);
export type CaseElementsQuery = z.output<typeof projectCaseElementsQuery>;

export const elementsImportQuery = z.object({ type: z.enum(['ANSWER_TAGS', 'SUMMARY']) });
