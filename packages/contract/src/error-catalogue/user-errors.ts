import type { ErrorDefinition } from './error-definition.js';

/** Errors of managing users. */
export const userErrors = {
  USER_NOT_FOUND: { status: 404, message: 'The user could not be found.', showServerMessage: false },
  EMAIL_ALREADY_EXISTS: {
    status: 409,
    message: 'A user with this email address already exists.',
    showServerMessage: false,
  },
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
} as const satisfies Record<string, ErrorDefinition>;
