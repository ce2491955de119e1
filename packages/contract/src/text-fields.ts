import { z } from 'zod';
import type { ErrorCode } from './errors.js';
import { isBlankRichText, isBlankText } from './text-rule.js';

/**
 * The one way a request declares a required text (spec §5): '' or missing is
 * FIELD_REQUIRED, only whitespace is BLANK_TEXT (for rich text: once empty paragraphs, tags
 * and `&nbsp;` are stripped), longer than `max` is `tooLong` (a field's own code such as
 * INVALID_NAME, else the general message). Each check stops the next, so a field says one
 * thing. A contract test (text-fields.test.ts) refuses required strings declared by hand.
 */

const FIELD_REQUIRED: ErrorCode = 'FIELD_REQUIRED';
const BLANK_TEXT: ErrorCode = 'BLANK_TEXT';

/** A string that is given: missing, null and '' are FIELD_REQUIRED (another type keeps zod's message). */
const filled = () =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? FIELD_REQUIRED : undefined) })
    .min(1, { message: FIELD_REQUIRED, abort: true });

/** A required plain text, trimmed. */
export function requiredText(max: number, tooLong?: ErrorCode): z.ZodString {
  return filled()
    .refine((text) => !isBlankText(text), { message: BLANK_TEXT, abort: true })
    .trim()
    .max(max, tooLong);
}

/** A required rich text (HTML, sanitised by the server), trimmed. */
export function requiredRichText(max: number, tooLong?: ErrorCode): z.ZodString {
  return filled()
    .refine((html) => !isBlankRichText(html), { message: BLANK_TEXT, abort: true })
    .trim()
    .max(max, tooLong);
}

/**
 * A required string that is not prose — a date, a code — whose own format refuses
 * whitespace: '' is FIELD_REQUIRED and the caller adds the format.
 */
export function requiredValue(): z.ZodString {
  return filled();
}
