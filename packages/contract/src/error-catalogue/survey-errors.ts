import type { ErrorDefinition } from './error-definition.js';

/** Errors of surveys and their templates. */
export const surveyErrors = {
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
  SURVEY_ATTACHED_DELETE_FORBIDDEN: {
    status: 409,
    message: 'This survey is attached to a project and cannot be deleted.',
    showServerMessage: false,
  },
  START_NEW_SURVEY_INFO_REVIEW_NOT_ALLOWED: {
    status: 422,
    message: 'A Start New Participant survey cannot include Info Review components.',
    showServerMessage: false,
  },
  PAGE_NAME_NOT_UNIQUE: { status: 409, message: 'A page with this name already exists.', showServerMessage: false },
  /** Ours: a survey without a page, or a page without a question or info review, would show participants an empty page. */
  SURVEY_EMPTY: {
    status: 422,
    message: 'A survey needs at least one page, and every page at least one question or info review.',
    showServerMessage: false,
  },
} as const satisfies Record<string, ErrorDefinition>;
