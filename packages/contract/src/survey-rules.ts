import type { FieldIssue } from './errors.js';
import type { questionTypes, surveyTemplateTypes } from './enum-values.js';
import { isBlankText } from './text-rule.js';

/**
 * The rule a survey template must meet to be saved, apart from the templates' schemas
 * (./surveys.ts) so that the template builder shows it from its first paint without
 * bringing zod.
 */

/* ---------- The template rule ---------- */

/** The content a template is checked on: a saved template, or the builder's unsaved form. */
export interface SurveyTemplateContent {
  type: (typeof surveyTemplateTypes)[number];
  pages: {
    name: string;
    components: (
      | {
          kind: 'QUESTION';
          type: (typeof questionTypes)[number];
          text: string;
          choices: { text: string }[];
        }
      | { kind: 'INFO_REVIEW' }
    )[];
  }[];
}

/**
 * Where a survey would show participants an empty page: no page at all (`pages`), or a page
 * without a question or info review (`pages.N.components`), each SURVEY_EMPTY. A template must
 * pass this to be saved, and to be chosen for a project (one stored before the rule may be empty).
 */
export function emptySurveyProblems(pages: readonly { components: readonly unknown[] }[]): FieldIssue[] {
  if (!pages.length) {
    return [{ field: 'pages', errorCode: 'SURVEY_EMPTY', message: 'Add a page with at least one question.' }];
  }
  return pages.flatMap((page, p) =>
    page.components.length
      ? []
      : [
          {
            field: `pages.${p}.components`,
            errorCode: 'SURVEY_EMPTY' as const,
            message: 'Add a question or an info review to this page, or remove the page.',
          },
        ],
  );
}

/**
 * Everything that stops a template being saved, each with where it is (`pages.1.name`,
 * `pages.0.components.2.choices`) and its catalogue code: a page name used twice
 * (PAGE_NAME_NOT_UNIQUE), an info review in a START_NEW template
 * (START_NEW_SURVEY_INFO_REVIEW_NOT_ALLOWED), a blank page name, question or choice, too few
 * choices, an empty survey or page (SURVEY_EMPTY). The server decides with this; the builder
 * shows the same list beside the fields.
 */
export function surveyTemplateProblems(content: SurveyTemplateContent): FieldIssue[] {
  const problems: FieldIssue[] = [...emptySurveyProblems(content.pages)];
  const add = (field: string, errorCode: FieldIssue['errorCode'], message: string) =>
    problems.push({ field, errorCode, message });
  const seen = new Map<string, number>();
  content.pages.forEach((page, p) => {
    const key = page.name.trim().toLowerCase();
    // BLANK_TEXT for any blank, as for questions and choices: the server sees the name trimmed.
    if (isBlankText(page.name)) add(`pages.${p}.name`, 'BLANK_TEXT', 'Name this page.');
    else if (seen.has(key)) {
      add(`pages.${p}.name`, 'PAGE_NAME_NOT_UNIQUE', `Another page is already named "${page.name.trim()}".`);
    } else seen.set(key, p);
    page.components.forEach((component, c) => {
      const at = `pages.${p}.components.${c}`;
      if (component.kind === 'INFO_REVIEW') {
        if (content.type === 'START_NEW') {
          add(at, 'START_NEW_SURVEY_INFO_REVIEW_NOT_ALLOWED', 'A Start New Participant survey cannot review info.');
        }
        return;
      }
      if (isBlankText(component.text)) add(`${at}.text`, 'BLANK_TEXT', 'Write the question.');
      if (component.type === 'TEXT') return;
      const minimum = component.type === 'TYPE_AHEAD' ? 1 : 2;
      if (component.choices.length < minimum) {
        add(
          `${at}.choices`,
          'FIELD_REQUIRED',
          component.type === 'TYPE_AHEAD' ? 'Add at least one suggestion.' : 'Add at least two answer choices.',
        );
      }
      const texts = new Set<string>();
      component.choices.forEach((choice, j) => {
        const text = choice.text.trim().toLowerCase();
        if (isBlankText(choice.text)) add(`${at}.choices.${j}.text`, 'BLANK_TEXT', 'Write this choice.');
        else if (texts.has(text)) add(`${at}.choices.${j}.text`, 'VALIDATION_ERROR', 'This choice appears twice.');
        texts.add(text);
      });
    });
  });
  return problems;
}
