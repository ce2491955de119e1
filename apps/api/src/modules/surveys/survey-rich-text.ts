import type { SavedSurveyPage } from '@pss/contract';
import { sanitizeRichText } from '../../lib/rich-text.js';

/**
 * A survey question's "text before" is rich text, shown as HTML above the question (the
 * participant's survey and the builder's preview). It passes the one sanitiser when it is
 * saved, and again whenever a template is read: templates saved before it was sanitised on
 * save (a `<style>` that restyled the page) are answered clean without a rewrite of answered,
 * frozen templates. Sanitising clean HTML gives it back unchanged.
 */
export function sanitizeQuestionHtml(html: string): string {
  return html ? sanitizeRichText(html) : html;
}

/** The pages as they may be shown: every question's "text before" sanitised. */
export function shownPages(pages: SavedSurveyPage[]): SavedSurveyPage[] {
  return pages.map((page) => ({
    ...page,
    components: page.components.map((c) =>
      c.kind === 'QUESTION' ? { ...c, text_before: sanitizeQuestionHtml(c.text_before) } : c,
    ),
  }));
}
