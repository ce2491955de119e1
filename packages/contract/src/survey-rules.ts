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
 * Everything that stops a template being saved, each with where it is (`pages.1.name`,
 * `pages.0.components.2.choices`) and its catalogue code: a page name used twice
 * (PAGE_NAME_NOT_UNIQUE), an info review in a START_NEW template
 * (START_NEW_SURVEY_INFO_REVIEW_NOT_ALLOWED), a blank page name, question or choice, too few
 * choices. The server decides with this; the builder shows the same list beside the fields.
 */
export function surveyTemplateProblems(content: SurveyTemplateContent): FieldIssue[] {
  const problems: FieldIssue[] = [];
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
