/**
 * The one test of whether a text holds anything (spec §5: text and rich-text fields must
 * contain non-whitespace, empty paragraph tags stripped first). Used by the request
 * schemas' text fields (./text-fields.ts) and by the case and survey rules
 * (./case-rules.ts, ./survey-rules.ts). Without zod, so that the editors that show those
 * rules from their first paint do not bring it.
 */

/** Whitespace as a reader sees it: what `trim` removes, and the zero-width spaces. */
const INVISIBLE = /^[\s\u200b-\u200d\u2060]*$/;

/** True when plain text holds only whitespace (or nothing). */
export function isBlankText(text: string | null | undefined): boolean {
  return !text || INVISIBLE.test(text);
}

/**
 * True when rich text (HTML) holds nothing a reader would see: empty paragraphs
 * (`<p></p>`, `<p><br></p>`), other tags, spaces and `&nbsp;`. The elements the server's
 * sanitiser drops with their content (scripts, styles…) count as nothing too, so that a
 * text this calls filled is still filled once sanitised.
 */
export function isBlankRichText(html: string | null | undefined): boolean {
  if (!html) return true;
  const text = html
    .replace(/<(script|style|textarea|option)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<p\b[^>]*>(\s|&nbsp;|<br\s*\/?>)*<\/p>/gi, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;|&#x0*a0;/gi, ' ');
  return isBlankText(text);
}

/** The catalogue code for a required text that is missing (FIELD_REQUIRED) or holds only whitespace (BLANK_TEXT). */
export function requiredTextProblem(
  text: string | null | undefined,
  rich = false,
): 'FIELD_REQUIRED' | 'BLANK_TEXT' | null {
  if (!text) return 'FIELD_REQUIRED';
  return (rich ? isBlankRichText(text) : isBlankText(text)) ? 'BLANK_TEXT' : null;
}
