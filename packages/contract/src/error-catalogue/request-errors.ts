import type { ErrorDefinition } from './error-definition.js';

/**
 * Errors of any request: the server or database failing, a request refused as a whole, and
 * the checks of single fields that many forms share.
 */
export const requestErrors = {
  NOT_FOUND: { status: 404, message: 'The requested item could not be found.', showServerMessage: false },
  VALIDATION_ERROR: {
    status: 400,
    message: 'Some fields have incorrect values. Please check them and try again.',
    showServerMessage: false,
  },
  REQUIRED_PARAMETER_MISSING: {
    status: 400,
    message: 'A required parameter is missing for this operation.',
    showServerMessage: false,
  },
  FORBIDDEN: { status: 403, message: 'You do not have permission to do this.', showServerMessage: false },
  CHANGES_FORBIDDEN: { status: 403, message: 'Changes to this item are not allowed.', showServerMessage: false },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The upload is larger than allowed.', showServerMessage: true },
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
  UNKNOWN_ERROR: {
    status: 500,
    message: 'An unexpected error has occurred. Please try again later.',
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
  EMAIL_REQUIRED: { status: 400, message: 'An email address is required.', showServerMessage: false },
} as const satisfies Record<string, ErrorDefinition>;
