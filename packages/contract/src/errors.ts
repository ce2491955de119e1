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
 */
export const errorCatalogue = {
  NOT_FOUND: { status: 404, message: 'The requested item could not be found.', showServerMessage: false },
  USER_NOT_FOUND: { status: 404, message: 'The user could not be found.', showServerMessage: false },
  VALIDATION_ERROR: {
    status: 400,
    message: 'Some fields have incorrect values. Please check them and try again.',
    showServerMessage: false,
  },
  DATABASE_ERROR: {
    status: 500,
    message: 'A database error occurred. Please try again later.',
    showServerMessage: false,
  },
  DATABASE_UNAVAILABLE: {
    status: 503,
    message: 'The database could not be reached. Please try again in a moment.',
    showServerMessage: false,
  },
  NOT_READY: {
    status: 503,
    message: 'The service is starting or stopping. Please try again in a moment.',
    showServerMessage: false,
  },
  INTERNAL_ERROR: {
    status: 500,
    message: 'An internal server error occurred. Please try again later.',
    showServerMessage: false,
  },
  CAP_CLIENT_NOT_FOUND: { status: 404, message: 'No CAP client exists with this CAP ID.', showServerMessage: false },
  CLIENT_CAP_ID_ALREADY_EXISTS: {
    status: 409,
    message: 'A client with this CAP ID already exists.',
    showServerMessage: false,
  },
  CLIENT_HAS_PROJECTS: {
    status: 409,
    message: 'This client cannot be deleted because it has projects attached.',
    showServerMessage: false,
  },
  INCORRECT_TEMPLATE_TYPE: {
    status: 400,
    message: 'The survey template type is not valid for this use.',
    showServerMessage: false,
  },
  SURVEY_ALREADY_ATTACHED: {
    status: 409,
    message: 'This survey is already attached to a project and cannot be updated.',
    showServerMessage: false,
  },
  CASES_NOT_COMPLETED: {
    status: 409,
    message: 'This action requires all cases to be completed first.',
    showServerMessage: false,
  },
  CHANGES_FORBIDDEN: { status: 403, message: 'Changes to this item are not allowed.', showServerMessage: false },
  WRONG_DISEASE_TYPE: {
    status: 422,
    message: "The case's disease type does not match the project's disease type.",
    showServerMessage: false,
  },
  CASE_IS_ACTIVE: { status: 409, message: 'This case is active and cannot be moved.', showServerMessage: false },
  CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON: {
    status: 409,
    message: 'This case is assigned to a current or future season and cannot be moved.',
    showServerMessage: false,
  },
  CASE_NOT_SAVED: { status: 500, message: 'The case could not be saved.', showServerMessage: false },
  ASSIGNMENTS_FORMAT_INVALID: {
    status: 422,
    message: 'The assignments in the import file are in an incorrect format.',
    showServerMessage: true,
  },
  PROJECT_MISSING_QUESTION_CATEGORIES: {
    status: 422,
    message: 'The project does not have the question categories used by this case.',
    showServerMessage: false,
  },
  PROJECT_MISSING_DISEASE_TYPES: {
    status: 422,
    message: 'The project does not have the disease types used by this case.',
    showServerMessage: false,
  },
  PROJECT_MISSING_QUESTION_CATEGORIES_AND_DISEASE_TYPES: {
    status: 422,
    message: 'The project has neither the question categories nor the disease types used by this case.',
    showServerMessage: false,
  },
  CSV_HEADERS_OR_DELIMITER_INVALID: {
    status: 422,
    message: 'The file has incorrect column headers or an incorrect CSV delimiter.',
    showServerMessage: false,
  },
  USER_DATA_INVALID: { status: 422, message: 'The file contains incorrect user data.', showServerMessage: false },
  IMPORT_VALIDATION_FAILED: { status: 422, message: 'The import failed validation.', showServerMessage: true },
  IMPORT_MAX_DATA_EXCEEDED: {
    status: 422,
    message: 'The import file contains more data than allowed (for example, more than 20 key takeaways).',
    showServerMessage: true,
  },
  IMPORT_DATABASE_ERROR: {
    status: 500,
    message: 'The import failed because of a database error.',
    showServerMessage: true,
  },
  IMPORT_FAILED: { status: 500, message: 'The import failed. Please try again.', showServerMessage: true },
  ASSIGNMENTS_DATE_INVALID: {
    status: 422,
    message: 'The assignment dates in the import file are invalid.',
    showServerMessage: true,
  },
  DISEASE_TYPE_DELETE_FORBIDDEN: {
    status: 409,
    message: 'This disease type is assigned to a project and cannot be deleted.',
    showServerMessage: false,
  },
  ASSOCIATED_ITEMS_DELETE_FORBIDDEN: {
    status: 409,
    message: 'These items are associated with other records and cannot be deleted.',
    showServerMessage: false,
  },
  NAME_CHANGE_NOT_ALLOWED: { status: 422, message: "An import cannot change a user's name.", showServerMessage: false },
  EMAIL_CHANGE_NOT_ALLOWED: {
    status: 422,
    message: "An import cannot change a user's email address.",
    showServerMessage: false,
  },
  PROFESSION_CHANGE_NOT_ALLOWED: {
    status: 422,
    message: "An import cannot change a user's profession.",
    showServerMessage: false,
  },
  EMPLOYEE_ID_CHANGE_NOT_ALLOWED: {
    status: 422,
    message: "An import cannot change a user's employee ID.",
    showServerMessage: false,
  },
  USER_ID_REQUIRED: {
    status: 422,
    message: 'A user ID is required for every imported user.',
    showServerMessage: false,
  },
  SALUTATION_REQUIRED: {
    status: 422,
    message: 'A salutation is required for every imported user.',
    showServerMessage: false,
  },
  FIRST_NAME_REQUIRED: {
    status: 422,
    message: 'A first name is required for every imported user.',
    showServerMessage: true,
  },
  LAST_NAME_REQUIRED: {
    status: 422,
    message: 'A last name is required for every imported user.',
    showServerMessage: true,
  },
  ROLE_REQUIRED: { status: 422, message: 'A valid role is required for every imported user.', showServerMessage: true },
  CASES_FROM_DIFFERENT_PROJECTS: {
    status: 400,
    message: 'The selected cases come from different projects and cannot be moved together.',
    showServerMessage: false,
  },
  CASES_FROM_WRONG_PROJECT: {
    status: 400,
    message: 'The selected cases do not belong to this project.',
    showServerMessage: false,
  },
  URL_ALREADY_EXISTS: { status: 409, message: 'This URL already exists.', showServerMessage: true },
  EMAIL_ALREADY_EXISTS: {
    status: 409,
    message: 'A user with this email address already exists.',
    showServerMessage: false,
  },
  PROJECT_NOT_FOUND: { status: 404, message: 'The project does not exist.', showServerMessage: false },
  INCORRECT_PASSWORD: { status: 401, message: 'The password is incorrect.', showServerMessage: false },
  PASSWORD_CODE_INVALID: {
    status: 400,
    message: 'This link to set a password has expired or was already used. Ask for a new one.',
    showServerMessage: false,
  },
  CURRENT_PASSWORD_INCORRECT: {
    status: 403,
    message: 'Enter your current password correctly to change it.',
    showServerMessage: false,
  },
  ELEMENTS_MODULE_LIBRARY_CONFLICT: {
    status: 409,
    message: 'These elements belong to module library cases and cannot be changed here.',
    showServerMessage: false,
  },
  ELEMENTS_CUSTOM_CONFLICT: {
    status: 409,
    message: 'These elements belong to custom cases and cannot be changed here.',
    showServerMessage: false,
  },
  EMPTY_USER_FILE: { status: 422, message: 'The uploaded user file is empty.', showServerMessage: false },
  USER_ARCHIVE_BLOCKED_BY_IMPORT: {
    status: 409,
    message: 'Users cannot be archived while an import is in progress.',
    showServerMessage: false,
  },
  USER_UNARCHIVE_BLOCKED_BY_IMPORT: {
    status: 409,
    message: 'Users cannot be unarchived while an import is in progress.',
    showServerMessage: false,
  },
  USER_UPDATE_BLOCKED_BY_IMPORT: {
    status: 409,
    message: 'User information cannot be changed while an import is in progress.',
    showServerMessage: false,
  },
  CASE_NOT_FOUND: { status: 404, message: 'The case could not be found.', showServerMessage: true },
  EMAILS_SEND_FAILED: { status: 500, message: 'Some or all emails could not be sent.', showServerMessage: true },
  NOT_AUTHORIZED: { status: 401, message: 'You are not authorized. Please log in.', showServerMessage: false },
  UNKNOWN_ERROR: {
    status: 500,
    message: 'An unexpected error has occurred. Please try again later.',
    showServerMessage: false,
  },
  REQUIRED_PARAMETER_MISSING: {
    status: 400,
    message: 'A required parameter is missing for this operation.',
    showServerMessage: false,
  },
  FIELD_REQUIRED: { status: 400, message: 'This field is required.', showServerMessage: false },
  INVALID_URL: { status: 400, message: 'Please enter a valid URL.', showServerMessage: false },
  INVALID_NAME: { status: 400, message: 'Please enter a valid name.', showServerMessage: false },
  INVALID_LAST_NAME: { status: 400, message: 'Please enter a valid last name.', showServerMessage: false },
  INVALID_SALUTATION: { status: 400, message: 'Please enter a valid salutation.', showServerMessage: false },
  INVALID_EMAIL: { status: 400, message: 'Please enter a valid email address.', showServerMessage: false },
  INVALID_CAP_ID: { status: 400, message: 'Please enter a valid CAP ID.', showServerMessage: false },
  BLANK_TEXT: { status: 400, message: 'This field cannot be empty or contain only spaces.', showServerMessage: false },
  PASSWORD_TOO_SHORT: {
    status: 400,
    message: 'The password must be at least 6 characters long.',
    showServerMessage: false,
  },
  EMAIL_REQUIRED: { status: 400, message: 'An email address is required.', showServerMessage: false },
  TEST_EMAIL_RECIPIENT_REQUIRED: {
    status: 400,
    message: 'Enter at least one email address to send a test email.',
    showServerMessage: false,
  },
  // Test sends go to any address, from the platform's sender: counted per person and per project an hour.
  TEST_EMAIL_LIMIT_REACHED: {
    status: 429,
    message: 'Too many test emails were sent in the last hour. Please wait and try again.',
    showServerMessage: true,
  },
  PROJECT_QUESTION_CATEGORY_REQUIRED: {
    status: 400,
    message: 'A project needs at least one question category.',
    showServerMessage: false,
  },
  PROJECT_DISEASE_TYPE_REQUIRED: {
    status: 400,
    message: 'A project needs at least one disease type.',
    showServerMessage: false,
  },
  PAGE_NAME_NOT_UNIQUE: { status: 409, message: 'A page with this name already exists.', showServerMessage: false },
  START_NEW_SURVEY_INFO_REVIEW_NOT_ALLOWED: {
    status: 422,
    message: 'A Start New Participant survey cannot include Info Review components.',
    showServerMessage: false,
  },
  SINGLE_ANSWER_INVALID_MARKED_AS: {
    status: 422,
    message: 'A single-answer question needs valid marked-as values and only one answer marked Necessary.',
    showServerMessage: false,
  },
  CASE_INVALID_FOR_PUBLISH: {
    status: 422,
    message: 'The case has errors and cannot be published until they are fixed.',
    showServerMessage: false,
  },
  CASE_INVALID_FOR_PREVIEW: {
    status: 422,
    message: 'The case has errors and cannot be previewed until they are fixed.',
    showServerMessage: false,
  },
  RESOURCE_ATTACHED_DELETE_FORBIDDEN: {
    status: 409,
    message: 'This resource is attached and cannot be deleted.',
    showServerMessage: true,
  },
  SURVEY_ATTACHED_DELETE_FORBIDDEN: {
    status: 409,
    message: 'This survey is attached to a project and cannot be deleted.',
    showServerMessage: false,
  },
  CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN: {
    status: 409,
    message: 'This case is associated with participants and cannot be deleted.',
    showServerMessage: false,
  },
  SEASON_HAS_PARTICIPANT_WORK: {
    status: 409,
    message:
      'A season or round that participants are assigned to or have worked on cannot be removed: their assignments, answers and scores would be lost.',
    showServerMessage: true,
  },
  PREVIEW_DELETE_FORBIDDEN: { status: 409, message: 'This preview cannot be deleted.', showServerMessage: false },
  FORBIDDEN: { status: 403, message: 'You do not have permission to do this.', showServerMessage: false },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The upload is larger than allowed.', showServerMessage: true },
  SIGNED_LINK_INVALID: {
    status: 403,
    message: 'This link is invalid or has expired. Open the resource again to get a new link.',
    showServerMessage: false,
  },
  RANGE_NOT_SATISFIABLE: {
    status: 416,
    message: 'The requested part of the file lies outside it.',
    showServerMessage: false,
  },
  // Signing in through the organisation's identity provider (OpenID Connect). The web app
  // shows each on /unauthorized?reason=<code>, so each says why and what to do.
  OIDC_NOT_CONFIGURED: {
    status: 404,
    message: 'Sign-in through your organisation is not set up on this platform.',
    showServerMessage: false,
  },
  OIDC_SIGN_IN_EXPIRED: {
    status: 400,
    message: 'This sign-in through your organisation was not started here or took too long. Please try again.',
    showServerMessage: false,
  },
  OIDC_SIGN_IN_INVALID: {
    status: 400,
    message: 'The answer of your organisation’s sign-in could not be verified. Please try again.',
    showServerMessage: false,
  },
  OIDC_PROVIDER_UNAVAILABLE: {
    status: 502,
    message: 'Your organisation’s sign-in service could not be reached. Please try again later.',
    showServerMessage: false,
  },
  OIDC_EMAIL_UNVERIFIED: {
    status: 403,
    message: 'Your organisation has not verified your email address, so it cannot sign you in here.',
    showServerMessage: false,
  },
  OIDC_ACCOUNT_UNKNOWN: {
    status: 403,
    message: 'No client administrator account on this platform has your email address.',
    showServerMessage: false,
  },
  PASSWORD_LOGIN_DISABLED: {
    status: 403,
    message: 'Client administrators sign in through their organisation. Use “Sign in with your organisation”.',
    showServerMessage: false,
  },
  TOO_MANY_REQUESTS: {
    status: 429,
    message: 'Too many attempts. Please wait a few minutes and try again.',
    showServerMessage: false,
  },
} as const satisfies Record<string, ErrorDefinition>;

export interface ErrorDefinition {
  status: number;
  message: string;
  showServerMessage: boolean;
}

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
