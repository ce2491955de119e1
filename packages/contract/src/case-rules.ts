import type { z } from 'zod';
import type { FieldIssue } from './errors.js';
import type { CaseStatus, MarkedAs, QuestionType } from './enums.js';
import type { updateCaseBody } from './cases.js';
import { isBlankRichText, isBlankText as isBlank } from './text-rule.js';

/**
 * What is known about a case without its schemas (./cases.ts): its limits, the question
 * types' rules and the rule a case must meet to be published or previewed. Apart so that
 * the case editor reads them from its first paint without bringing zod and every case
 * schema (the editor checks its form with the schema once that has arrived).
 */

export const MAX_CASE_NAME = 200;
export const MAX_RICH_TEXT = 100_000;
export const MAX_QUESTIONS = 200;
export const MAX_CHOICES = 50;
export const MAX_SECTIONS = 50;
export const MAX_GROUPERS = 50;
/** Patient images: JPEG or PNG, checked by content, at most this many bytes. */
export const MAX_CASE_IMAGE_BYTES = 5 * 1024 * 1024;
/** RTF files that fill a case's text fields. */
export const MAX_CASE_RTF_BYTES = 5 * 1024 * 1024;

/** Question types a participant picks listed choices for, and which are scored. */
export const CHOICE_QUESTION_TYPES = ['MULTI_ONE', 'MULTI_MANY', 'DROPDOWN'] as const;
/** Question types that take exactly one choice: at most one may be NECESSARY. */
export const SINGLE_ANSWER_TYPES = ['MULTI_ONE', 'DROPDOWN'] as const;

export function isChoiceQuestion(type: QuestionTypeValue): boolean {
  return (CHOICE_QUESTION_TYPES as readonly string[]).includes(type);
}
export function isSingleAnswer(type: QuestionTypeValue): boolean {
  return (SINGLE_ANSWER_TYPES as readonly string[]).includes(type);
}

export type QuestionTypeValue = z.infer<typeof QuestionType>;
export type MarkedAsValue = z.infer<typeof MarkedAs>;
export type CaseStatusValue = z.infer<typeof CaseStatus>;

/** The longest text alternative of a patient image. */
export const MAX_IMAGE_ALT = 300;

/**
 * The case's text fields an RTF file can fill (besides the patient's age and details
 * sections): plain text, and rich text (HTML `<p>` paragraphs).
 */
export const rtfPlainTextFields = ['name', 'patient_name'] as const;
export const rtfRichTextFields = ['reason_for_encounter', 'references', 'test_results', 'explanation'] as const;
export const rtfTextFields = [...rtfPlainTextFields, ...rtfRichTextFields] as const;
export type RtfTextField = (typeof rtfTextFields)[number];

/* ---------- The publish / preview rule ---------- */

/** The content a case is checked on: a saved case, or an editor's unsaved form. */
export type CaseContent = Omit<z.input<typeof updateCaseBody>, 'details_sections' | 'groupers' | 'questions'> & {
  details_sections: { id?: string; name: string; text: string }[];
  groupers: { id?: string; name: string }[];
  questions: {
    id?: string;
    grouper_id: string | null;
    type: QuestionTypeValue;
    text: string;
    text_before: string;
    required: boolean;
    category_id: string | null;
    choices: { id?: string; text: string; marked_as: MarkedAsValue | null }[];
    allow_other: boolean;
    allow_none_of_below: boolean;
  }[];
};

export interface CaseProject {
  disease_type_ids: readonly string[];
  question_category_ids: readonly string[];
  /** The round numbers of each of the project's seasons (a case's placement must be one). */
  season_rounds?: Readonly<Record<string, readonly number[]>>;
}

/**
 * Everything that stops a case being published or previewed, each with where it is
 * (`questions.2.choices.1.text`, the editor's field path). An empty list means valid.
 * The server decides with this; the editor shows the same list beside the fields.
 */
export function caseProblems(content: CaseContent, project: CaseProject): FieldIssue[] {
  const problems: FieldIssue[] = [];
  const add = (field: string, errorCode: FieldIssue['errorCode'], message: string) =>
    problems.push({ field, errorCode, message });

  if (isBlank(content.name)) add('name', 'BLANK_TEXT', 'Enter the case name.');
  if (!content.disease_type_id) add('disease_type_id', 'FIELD_REQUIRED', 'Choose the disease type.');
  else if (!project.disease_type_ids.includes(content.disease_type_id)) {
    add('disease_type_id', 'WRONG_DISEASE_TYPE', 'The disease type is not one of the project’s.');
  }
  if (isBlank(content.patient_name)) add('patient_name', 'BLANK_TEXT', 'Enter the patient’s name.');
  if (content.patient_age === null || content.patient_age === undefined) {
    add('patient_age', 'FIELD_REQUIRED', 'Enter the patient’s age.');
  }
  if (isBlankRichText(content.reason_for_encounter)) {
    add('reason_for_encounter', 'BLANK_TEXT', 'Describe the reason for the encounter.');
  }
  if ((content.season_id ? 1 : 0) + (content.round_number ? 1 : 0) === 1) {
    add(content.season_id ? 'round_number' : 'season_id', 'FIELD_REQUIRED', 'Choose both a season and a round.');
  } else if (content.season_id && content.round_number && project.season_rounds) {
    const roundsOfSeason = project.season_rounds[content.season_id];
    if (!roundsOfSeason) add('season_id', 'VALIDATION_ERROR', 'This season is no longer one of the project’s.');
    else if (!roundsOfSeason.includes(content.round_number)) {
      add('round_number', 'VALIDATION_ERROR', 'This season has no round of this number.');
    }
  }
  content.details_sections.forEach((section, i) => {
    if (isBlank(section.name)) add(`details_sections.${i}.name`, 'BLANK_TEXT', 'Name this details section.');
    if (isBlankRichText(section.text)) add(`details_sections.${i}.text`, 'BLANK_TEXT', 'Write this section’s text.');
  });
  content.groupers.forEach((grouper, i) => {
    if (isBlank(grouper.name)) add(`groupers.${i}.name`, 'BLANK_TEXT', 'Name this grouper.');
    if (!content.questions.some((q) => q.grouper_id && q.grouper_id === grouper.id)) {
      add(`groupers.${i}`, 'FIELD_REQUIRED', 'This grouper has no questions.');
    }
  });
  if (content.questions.length === 0) add('questions', 'FIELD_REQUIRED', 'Add at least one question.');
  content.questions.forEach((q, i) => questionProblems(q, `questions.${i}`, project, add));
  if (!content.feedback_type) add('feedback_type', 'FIELD_REQUIRED', 'Choose personalised or general feedback.');
  if (content.feedback_type === 'GENERAL_FEEDBACK' && isBlankRichText(content.explanation)) {
    add('explanation', 'BLANK_TEXT', 'General feedback shows the explanation: write it.');
  }
  return problems;
}

function questionProblems(
  q: CaseContent['questions'][number],
  at: string,
  project: CaseProject,
  add: (field: string, errorCode: FieldIssue['errorCode'], message: string) => void,
): void {
  if (isBlank(q.text)) add(`${at}.text`, 'BLANK_TEXT', 'Write the question.');
  if (!q.category_id) add(`${at}.category_id`, 'FIELD_REQUIRED', 'Choose the question category.');
  else if (!project.question_category_ids.includes(q.category_id)) {
    add(`${at}.category_id`, 'PROJECT_MISSING_QUESTION_CATEGORIES', 'The category is not one of the project’s.');
  }
  if (q.type === 'TEXT') return;
  const minimum = q.type === 'TYPE_AHEAD' ? 1 : 2;
  if (q.choices.length < minimum) {
    add(
      `${at}.choices`,
      'FIELD_REQUIRED',
      q.type === 'TYPE_AHEAD' ? 'Add at least one suggestion.' : 'Add at least two answer choices.',
    );
  }
  const seen = new Set<string>();
  q.choices.forEach((choice, j) => {
    const key = choice.text.trim().toLowerCase();
    if (isBlank(choice.text)) add(`${at}.choices.${j}.text`, 'BLANK_TEXT', 'Write this choice.');
    else if (seen.has(key)) add(`${at}.choices.${j}.text`, 'VALIDATION_ERROR', 'This choice appears twice.');
    seen.add(key);
    if (isChoiceQuestion(q.type) && !choice.marked_as) {
      add(`${at}.choices.${j}.marked_as`, 'FIELD_REQUIRED', 'Mark this choice Necessary, Appropriate or Unnecessary.');
    }
  });
  if (isSingleAnswer(q.type) && q.choices.length > 0 && q.choices.every((c) => c.marked_as)) {
    const necessary = q.choices.filter((c) => c.marked_as === 'NECESSARY').length;
    const acceptable = q.choices.filter((c) => c.marked_as !== 'UNNECESSARY').length;
    if (necessary > 1 || acceptable === 0) {
      add(
        `${at}.choices`,
        'SINGLE_ANSWER_INVALID_MARKED_AS',
        necessary > 1
          ? 'A single-answer question may have only one choice marked Necessary.'
          : 'A single-answer question needs a choice marked Necessary or Appropriate.',
      );
    }
  }
}
