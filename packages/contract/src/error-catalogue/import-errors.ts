import type { ErrorDefinition } from './error-definition.js';

/** Errors of uploaded files (participants, assignments, case elements): the file as a whole and its rows. */
export const importErrors = {
  CSV_HEADERS_OR_DELIMITER_INVALID: {
    status: 422,
    message: 'The file has incorrect column headers or an incorrect CSV delimiter.',
    showServerMessage: false,
  },
  EMPTY_USER_FILE: { status: 422, message: 'The uploaded user file is empty.', showServerMessage: false },
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
  ASSIGNMENTS_FORMAT_INVALID: {
    status: 422,
    message: 'The assignments in the import file are in an incorrect format.',
    showServerMessage: true,
  },
  ASSIGNMENTS_DATE_INVALID: {
    status: 422,
    message: 'The assignment dates in the import file are invalid.',
    showServerMessage: true,
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
} as const satisfies Record<string, ErrorDefinition>;
