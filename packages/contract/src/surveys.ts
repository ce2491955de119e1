import { z } from 'zod';
import { MAX_CHOICES, MAX_RICH_TEXT } from './case-rules.js';
import { caseChoice, caseQuestion } from './cases.js';
import { SurveyTemplateType } from './enums.js';
import { listQuerySchema, pagedSchema, selectionOf } from './list-query.js';
import { surveyTemplateSortFields } from './sort-fields.js';
import { requiredText } from './text-fields.js';

/**
 * Survey templates (spec §3): a name, a type (START_NEW, START_RETURNING, REVIEW, END) and
 * pages, each holding components — a question (the question types of cases, without their
 * marks and categories: surveys are not scored) or an info review (the participant's own
 * profile, shown to confirm). A project chooses one template per type; participants answer
 * them at their moment, once per template and UserSeasonRoundCase. A template with answers is
 * frozen (SURVEY_ALREADY_ATTACHED): duplicate it to change it.
 */

export type SurveyTemplateTypeValue = z.infer<typeof SurveyTemplateType>;

export const MAX_SURVEY_NAME = 200;
export const MAX_SURVEY_PAGES = 50;
export const MAX_PAGE_COMPONENTS = 100;

export const SurveyComponentKind = z.enum(['QUESTION', 'INFO_REVIEW']);
export type SurveyComponentKindValue = z.infer<typeof SurveyComponentKind>;

const id = z.string().uuid();

/** A question of a survey: a case question's shape, less what scores it (marks, category, grouper). */
export const surveyQuestionComponent = caseQuestion
  .pick({ type: true, text: true, required: true, allow_other: true, allow_none_of_below: true })
  .extend({
    id: id.optional(),
    kind: z.literal('QUESTION'),
    text_before: z.string().max(MAX_RICH_TEXT).default(''),
    choices: z.array(caseChoice.pick({ id: true, text: true })).max(MAX_CHOICES),
  });

/** The participant's own profile, shown for them to confirm (display name and mobile number may be corrected). */
export const surveyInfoReviewComponent = z.object({
  id: id.optional(),
  kind: z.literal('INFO_REVIEW'),
  /** What the participant is asked (plain text), shown above their details. */
  text: z.string().max(2000).default(''),
});

export const surveyComponent = z.discriminatedUnion('kind', [surveyQuestionComponent, surveyInfoReviewComponent]);
export type SurveyComponentInput = z.input<typeof surveyComponent>;

export const surveyPage = z.object({
  id: id.optional(),
  name: z.string().trim().max(200),
  components: z.array(surveyComponent).max(MAX_PAGE_COMPONENTS),
});

const templateName = requiredText(MAX_SURVEY_NAME);
const pages = z.array(surveyPage).max(MAX_SURVEY_PAGES);

/** `POST /survey-templates`: a name and a type (`/survey-templates/new?name=&type=`), pages when the builder has them. */
export const createSurveyTemplateBody = z.strictObject({
  name: templateName,
  type: SurveyTemplateType,
  pages: pages.default([]),
});
export type CreateSurveyTemplateBody = z.input<typeof createSurveyTemplateBody>;

/** `PUT /survey-templates/{id}`: the template whole. */
export const updateSurveyTemplateBody = z.strictObject({ name: templateName, type: SurveyTemplateType, pages });
export type UpdateSurveyTemplateBody = z.input<typeof updateSurveyTemplateBody>;

export const duplicateSurveyTemplateBody = z.strictObject({ name: templateName.optional() }).nullish();

const savedQuestion = surveyQuestionComponent.extend({
  id,
  text_before: z.string(),
  choices: z.array(z.object({ id, text: z.string() })),
});
const savedInfoReview = surveyInfoReviewComponent.extend({ id, text: z.string() });
export const savedSurveyComponent = z.discriminatedUnion('kind', [savedQuestion, savedInfoReview]);
export type SavedSurveyComponent = z.infer<typeof savedSurveyComponent>;
export type SurveyQuestion = z.infer<typeof savedQuestion>;
export const savedSurveyPage = z.object({ id, name: z.string(), components: z.array(savedSurveyComponent) });
export type SavedSurveyPage = z.infer<typeof savedSurveyPage>;

export const surveyTemplate = z.object({
  id,
  name: z.string(),
  type: SurveyTemplateType,
  pages: z.array(savedSurveyPage),
  /** Projects (the caller may see) that use it. */
  project_count: z.number().int(),
  /** True once a participant has answered it: it is frozen then (duplicate it to change it). */
  answered: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SurveyTemplate = z.infer<typeof surveyTemplate>;

export const surveyTemplateSummary = surveyTemplate.omit({ pages: true }).extend({
  page_count: z.number().int(),
  question_count: z.number().int(),
});
export type SurveyTemplateSummary = z.infer<typeof surveyTemplateSummary>;
export const surveyTemplatePage = pagedSchema(surveyTemplateSummary);

/**
 * A template has no client of its own (the provider's superadmins write them all): a template
 * "of" a client is one that a project of that client uses, and "of" a project one that project
 * uses (for any of its four moments).
 */
export const surveyTemplateFilter = z.strictObject({
  type: SurveyTemplateType.optional(),
  /** Templates used by a project of this client. */
  client_id: id.optional(),
  /** Templates used by this project. */
  project_id: id.optional(),
});
export type SurveyTemplateFilter = z.infer<typeof surveyTemplateFilter>;
const surveyTemplateListBase = listQuerySchema({
  sortable: surveyTemplateSortFields,
  defaultSort: [{ field: 'name', direction: 'ASC' }],
  filter: surveyTemplateFilter,
});
/** The specification's own parameters of the list, each the filter key it stands for. */
const filterParams = { client: 'client_id', project: 'project_id' } as const;

/**
 * `GET /survey-templates`: the list's usual parameters, and the specification's `client` and
 * `project`, which are the filter's `client_id` and `project_id` (given both ways, they must agree).
 */
export const surveyTemplateListQuery = surveyTemplateListBase.in
  .extend({ client: id.optional(), project: id.optional() })
  .transform((raw, ctx) => {
    const { client, project, ...rest } = raw;
    const parsed = surveyTemplateListBase.safeParse(rest);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: 'custom', path: issue.path.map(String), message: issue.message });
      }
      return z.NEVER;
    }
    const filter: SurveyTemplateFilter = { ...parsed.data.filter };
    for (const [param, value] of [
      ['client', client],
      ['project', project],
    ] as const) {
      if (value === undefined) continue;
      const key = filterParams[param];
      if (filter[key] !== undefined && filter[key] !== value) {
        ctx.addIssue({ code: 'custom', path: [param], message: `${param} and filter.${key} name different records` });
        return z.NEVER;
      }
      filter[key] = value;
    }
    return { ...parsed.data, filter };
  });
export type SurveyTemplateListQuery = z.output<typeof surveyTemplateListQuery>;

export const surveyTemplateSelection = selectionOf(surveyTemplateFilter.optional());
export type SurveyTemplateSelection = z.infer<typeof surveyTemplateSelection>;

/** `DELETE /survey-templates?filter=`: a JSON selection (`{"ids":[…]}` or `{"all":true,…}`). */
export const surveyTemplateDeleteQuery = z.object({
  filter: z
    .string()
    .max(400_000)
    .transform((raw, ctx) => {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'filter must be a JSON selection' });
        return z.NEVER;
      }
      const parsed = surveyTemplateSelection.safeParse(value);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: 'filter must be {"ids":[…]} or {"all":true,"except":[…]}' });
        return z.NEVER;
      }
      return parsed.data;
    }),
});
export const deletedSurveyTemplates = z.object({ ids: z.array(id) });

/** A project that uses a template, and for which type. */
export const linkedProject = z.object({
  project_id: id,
  project_name: z.string(),
  client_id: id,
  client_name: z.string(),
  type: SurveyTemplateType,
});
export type LinkedProject = z.infer<typeof linkedProject>;

/* ---------- A project's surveys ---------- */

export const projectSurveyFields = [
  'start_new_template_id',
  'start_returning_template_id',
  'review_template_id',
  'end_template_id',
] as const;
export type ProjectSurveyField = (typeof projectSurveyFields)[number];
/** Which type each field of a project's surveys takes. */
export const surveyFieldType: Record<ProjectSurveyField, SurveyTemplateTypeValue> = {
  start_new_template_id: 'START_NEW',
  start_returning_template_id: 'START_RETURNING',
  review_template_id: 'REVIEW',
  end_template_id: 'END',
};

/** `PUT /projects/{id}/survey`: one template per type, each nullable (null: none); a field left out stays as it is. */
export const projectSurveyBody = z.strictObject({
  start_new_template_id: id.nullable().optional(),
  start_returning_template_id: id.nullable().optional(),
  review_template_id: id.nullable().optional(),
  end_template_id: id.nullable().optional(),
});
export type ProjectSurveyBody = z.input<typeof projectSurveyBody>;

export const projectSurvey = z.object({
  project_id: id,
  start_new_template_id: id.nullable(),
  start_returning_template_id: id.nullable(),
  review_template_id: id.nullable(),
  end_template_id: id.nullable(),
  /** The chosen templates' names, for the screen. */
  templates: z.array(z.object({ id, name: z.string(), type: SurveyTemplateType })),
});
export type ProjectSurvey = z.infer<typeof projectSurvey>;

/* ---------- Participants ---------- */

/** One answer to one question component. */
export const surveyAnswer = z.strictObject({
  component_id: id,
  choice_ids: z.array(id).max(MAX_CHOICES).default([]),
  /** Free text: a TEXT or TYPE_AHEAD answer, or the "other" entry of a choice question. */
  text: z.string().max(5000).nullish(),
  none_of_below: z.boolean().default(false),
});
export type SurveyAnswer = z.input<typeof surveyAnswer>;

/**
 * `POST /survey-templates/{id}/{userSeasonRoundCaseId}/answer`. `complete: false` keeps the
 * answers so far (a participant who leaves half-way loses nothing); `complete` (the default)
 * checks the required questions and records the survey as answered, after which it cannot change.
 */
export const surveyAnswerBody = z.strictObject({
  answers: z.array(surveyAnswer).max(MAX_SURVEY_PAGES * MAX_PAGE_COMPONENTS),
  complete: z.boolean().default(true),
});
export type SurveyAnswerBody = z.input<typeof surveyAnswerBody>;
export const surveyAnswerResult = z.object({ complete: z.boolean() });

/** What an info review shows: the participant's own details. */
export const surveyProfile = z.object({
  user_id: id,
  salutation: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  display_name: z.string().nullable(),
  profession: z.string().nullable(),
  specialty: z.string().nullable(),
  facility: z.string().nullable(),
  npi: z.string().nullable(),
  practice_number: z.string().nullable(),
  mobile_number: z.string().nullable(),
});
export type SurveyProfile = z.infer<typeof surveyProfile>;

export const storedSurveyAnswer = z.object({
  component_id: id,
  choice_ids: z.array(id),
  text: z.string().nullable(),
  none_of_below: z.boolean(),
});
export type StoredSurveyAnswer = z.infer<typeof storedSurveyAnswer>;

/** A survey due now, as its participant answers it (with what they saved so far). */
export const participantSurvey = z.object({
  template_id: id,
  type: SurveyTemplateType,
  name: z.string(),
  pages: z.array(savedSurveyPage),
  answers: z.array(storedSurveyAnswer),
  /** The participant's details when a page holds an info review; else null. */
  profile: surveyProfile.nullable(),
});
export type ParticipantSurvey = z.infer<typeof participantSurvey>;

/** `GET /users/{userSeasonRoundCaseId}/surveys`: what is due around this case (null: nothing). */
export const dueSurveys = z.object({
  /** Before the case: START_NEW or START_RETURNING, once per season. */
  start: participantSurvey.nullable(),
  /** After the case's feedback. */
  review: participantSurvey.nullable(),
  /** After the season's last case. */
  end: participantSurvey.nullable(),
});
export type DueSurveys = z.infer<typeof dueSurveys>;

/** `GET /users/{userSeasonRoundCaseId}/endSurvey/{projectId}`. */
export const endSurveyDue = z.object({ due: z.boolean(), survey: participantSurvey.nullable() });
