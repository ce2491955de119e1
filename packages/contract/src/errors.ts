import { caseErrors } from './error-catalogue/case-errors.js';
import { clientProjectErrors } from './error-catalogue/client-project-errors.js';
import type { ErrorDefinition } from './error-catalogue/error-definition.js';
import { emailErrors } from './error-catalogue/email-errors.js';
import { importErrors } from './error-catalogue/import-errors.js';
import { requestErrors } from './error-catalogue/request-errors.js';
import { resourceErrors } from './error-catalogue/resource-errors.js';
import { signInErrors } from './error-catalogue/sign-in-errors.js';
import { surveyErrors } from './error-catalogue/survey-errors.js';
import { userErrors } from './error-catalogue/user-errors.js';

export type { ErrorDefinition } from './error-catalogue/error-definition.js';

/**
 * The error catalogue: every error the platform can answer with, its HTTP status and
 * its English message. The server answers `{ errorCode, message, details? }`; the web
 * app shows its own translation of `message` except for the codes flagged
 * `showServerMessage`, where the server's message (which may be more specific, e.g.
 * naming the failing import row) is shown when present.
 *
 * Codes from the product specification, plus four it does not name: FORBIDDEN (403,
 * a signed-in user calling what their role may not), PAYLOAD_TOO_LARGE (413),
 * TOO_MANY_REQUESTS (429, the sign-in rate limit), CURRENT_PASSWORD_INCORRECT (403, a
 * password change without the right current password) and PASSWORD_CODE_INVALID (400, an
 * emailed code to set a password that is unknown, used or expired), among others.
 *
 * The entries live by area in error-catalogue/*.ts; this object is the one catalogue.
 */
export const errorCatalogue = {
  ...requestErrors,
  ...signInErrors,
  ...clientProjectErrors,
  ...userErrors,
  ...importErrors,
  ...caseErrors,
  ...surveyErrors,
  ...resourceErrors,
  ...emailErrors,
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof errorCatalogue;

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(errorCatalogue, value);
}

/** One problem with one field of a request, as listed in a VALIDATION_ERROR's details. */
export interface FieldIssue {
  /** Where the problem is: `body.first_name`, `query.page`, `body.questions.2.choices`. */
  field: string;
  message: string;
  /** A more specific catalogue code, where one applies (e.g. PASSWORD_TOO_SHORT). */
  errorCode?: ErrorCode;
}

/** The body of every error answer. */
export interface ErrorBody {
  errorCode: ErrorCode;
  message: string;
  details?: unknown;
}
