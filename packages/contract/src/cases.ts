import { z } from 'zod';
import { CaseOrigin, CaseStatus, FeedbackType, MarkedAs, QuestionType, StoredCaseStatus } from './enums.js';
import {
  MAX_CASE_NAME,
  MAX_CHOICES,
  MAX_GROUPERS,
  MAX_IMAGE_ALT,
  MAX_QUESTIONS,
  MAX_RICH_TEXT,
  MAX_SECTIONS,
  rtfPlainTextFields,
  rtfRichTextFields,
} from './case-rules.js';
import { listQuerySchema, pagedSchema } from './list-query.js';
import { caseSortFields } from './sort-fields.js';
import { requiredText } from './text-fields.js';

/**
 * Clinical case simulations: a patient vignette (background, details sections), questions
 * in groupers with answer choices marked NECESSARY / APPROPRIATE / UNNECESSARY. How a case
 * is taken — answers, feedback, previews, the answer key — is ./case-answers.ts.
 *
 * A case is saved whole (`PUT /cases/{id}`) while it is a draft; questions, choices,
 * groupers and details sections keep the ids the server gave them, so that answers and
 * previews can point at them. Rich text is HTML, sanitised by the server.
 */

const id = z.string().uuid();
const plainText = (max: number) => z.string().max(max);
const richText = z.string().max(MAX_RICH_TEXT);

export const caseChoice = z.object({
  id: id.optional(),
  text: plainText(1000),
  /** Null while the author has not decided (a draft may be incomplete; publishing checks). */
  marked_as: MarkedAs.nullable(),
});

export const caseQuestion = z.object({
  id: id.optional(),
  grouper_id: id.nullable(),
  type: QuestionType,
  text: plainText(2000),
  /** Rich text shown before the question (a lab value, an image description…). */
  text_before: richText,
  required: z.boolean(),
  category_id: id.nullable(),
  /** The answer choices (for TYPE_AHEAD: the suggestions offered while typing). */
  choices: z.array(caseChoice).max(MAX_CHOICES),
  allow_other: z.boolean(),
  allow_none_of_below: z.boolean(),
});

export const caseDetailsSection = z.object({ id: id.optional(), name: plainText(200), text: richText });
export const caseGrouper = z.object({ id: id.optional(), name: plainText(200) });

/** Everything a draft's editor saves. */
export const caseContentFields = {
  name: requiredText(MAX_CASE_NAME),
  disease_type_id: id.nullable(),
  patient_name: plainText(200),
  patient_age: z.number().int().min(0).max(130).nullable(),
  /**
   * What the patient image shows, for those who cannot see it (its text alternative). Left
   * out, the stored text is kept.
   */
  image_alt: plainText(MAX_IMAGE_ALT).optional(),
  reason_for_encounter: richText,
  /** The season and round the case is placed in (cases unlock when their round starts). */
  season_id: id.nullable(),
  round_number: z.number().int().min(1).max(4).nullable(),
  feedback_type: FeedbackType.nullable(),
  references: richText,
  test_results: richText,
  explanation: richText,
  details_sections: z.array(caseDetailsSection).max(MAX_SECTIONS),
  groupers: z.array(caseGrouper).max(MAX_GROUPERS),
  questions: z.array(caseQuestion).max(MAX_QUESTIONS),
};

export const updateCaseBody = z.strictObject(caseContentFields);
export type UpdateCaseBody = z.input<typeof updateCaseBody>;

/** A new draft in a project (`project_id`) or a module library (`module_id`): exactly one of them. */
export const createCaseBody = z
  .strictObject({
    project_id: id.optional(),
    module_id: id.optional(),
    name: caseContentFields.name,
    disease_type_id: id.nullable().optional(),
  })
  .refine((body) => Boolean(body.project_id) !== Boolean(body.module_id), {
    message: 'Give either project_id or module_id.',
    path: ['project_id'],
  });
export type CreateCaseBody = z.input<typeof createCaseBody>;

const savedChoice = caseChoice.extend({ id });
const savedQuestion = caseQuestion.extend({ id, choices: z.array(savedChoice) });
export const caseDocument = z.object({
  id,
  project_id: id.nullable(),
  client_id: id.nullable(),
  origin: CaseOrigin,
  status: CaseStatus,
  name: z.string(),
  disease_type_id: id.nullable(),
  disease_type_name: z.string().nullable(),
  patient_name: z.string(),
  patient_age: z.number().int().nullable(),
  has_image: z.boolean(),
  image_alt: z.string(),
  reason_for_encounter: z.string(),
  season_id: id.nullable(),
  season_name: z.string().nullable(),
  round_number: z.number().int().nullable(),
  feedback_type: FeedbackType.nullable(),
  references: z.string(),
  test_results: z.string(),
  explanation: z.string(),
  details_sections: z.array(caseDetailsSection.extend({ id })),
  groupers: z.array(caseGrouper.extend({ id })),
  questions: z.array(savedQuestion),
  /** The case this one was copied from (a module case, or the original of a duplicate). */
  source_case_id: id.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CaseDocument = z.infer<typeof caseDocument>;
export type CaseQuestion = CaseDocument['questions'][number];

export const caseSummary = z.object({
  id,
  project_id: id.nullable(),
  origin: CaseOrigin,
  status: CaseStatus,
  name: z.string(),
  patient_name: z.string(),
  disease_type_name: z.string().nullable(),
  season_name: z.string().nullable(),
  round_number: z.number().int().nullable(),
  question_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CaseSummary = z.infer<typeof caseSummary>;
export const caseSummaryPage = pagedSchema(caseSummary);

export const caseListQuery = listQuerySchema({
  sortable: caseSortFields,
  defaultSort: [{ field: 'name', direction: 'ASC' }],
  filter: z.strictObject({ status: CaseStatus.optional() }),
});
export type CaseListQuery = z.output<typeof caseListQuery>;

export const caseStatusBody = z.strictObject({ status: StoredCaseStatus });

/** Where a case is, what it is, and what stops it being published or previewed. */
export const caseStatusReport = z.object({
  id,
  status: CaseStatus,
  valid: z.boolean(),
  problems: z.array(z.object({ field: z.string(), message: z.string(), errorCode: z.string().optional() })),
});
export type CaseStatusReport = z.infer<typeof caseStatusReport>;

export const caseCounts = z.object({
  /** Participants assigned to the season round the case is placed in. */
  participants: z.number().int(),
  previews: z.number().int(),
  questions: z.number().int(),
});

/**
 * Which cases an action applies to besides the one in the path: chosen ids, or all cases
 * of that case's project matching a search and status filter, except some.
 */
export const caseSelection = z.union([
  z.strictObject({ ids: z.array(id).min(1).max(1000) }),
  z.strictObject({
    all: z.literal(true),
    except: z.array(id).max(1000).default([]),
    search: z.string().trim().max(200).optional(),
    filter: z.strictObject({ status: CaseStatus.optional() }).optional(),
  }),
]);
export type CaseSelection = z.infer<typeof caseSelection>;

export const caseDeleteQuery = z.object({
  /** A JSON case selection (`{"ids":[…]}` or `{"all":true,…}`); without it, only the case in the path. */
  filter: z
    .string()
    .max(40_000)
    .optional()
    .transform((raw, ctx) => {
      if (!raw) return undefined;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'filter must be a JSON case selection' });
        return z.NEVER;
      }
      const parsed = caseSelection.safeParse(value);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: 'filter must be {"ids":[…]} or {"all":true,"except":[…]}' });
        return z.NEVER;
      }
      return parsed.data;
    }),
});

export const moveCasesBody = z.strictObject({ project_id: id, cases: caseSelection.optional() });
export const duplicateCaseBody = z.strictObject({ name: caseContentFields.name.optional() }).nullish();
export const bulkCaseResult = z.object({ ids: z.array(id) });

const optionalTexts = <F extends string>(fields: readonly F[]) =>
  Object.fromEntries(fields.map((f) => [f, z.string().optional()])) as Record<F, z.ZodOptional<z.ZodString>>;

/** What an RTF file gave for the case's text fields (the editor merges them into its form). */
export const rtfCaseFields = z.object({
  ...optionalTexts(rtfPlainTextFields),
  patient_age: z.number().int().optional(),
  ...optionalTexts(rtfRichTextFields),
  details_sections: z.array(z.object({ name: z.string(), text: z.string() })),
});
export type RtfCaseFields = z.infer<typeof rtfCaseFields>;
