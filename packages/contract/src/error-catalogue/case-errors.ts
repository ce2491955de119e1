import type { ErrorDefinition } from './error-definition.js';

/**
 * Errors of cases: editing, publishing and previewing them, moving and copying them between
 * projects and modules, their elements, and working through them.
 */
export const caseErrors = {
  CASE_NOT_FOUND: { status: 404, message: 'The case could not be found.', showServerMessage: true },
  CASE_NOT_SAVED: { status: 500, message: 'The case could not be saved.', showServerMessage: false },
  /** A participant's case of a season past its last round's end date (spec: seasons and rounds). */
  SEASON_CLOSED: {
    status: 409,
    message: 'This season has ended: its cases are closed to new answers.',
    showServerMessage: true,
  },
  /** A case begun before the season's start survey is answered (the screens promise the order). */
  START_SURVEY_REQUIRED: {
    status: 409,
    message: 'Answer the start survey before you begin your cases.',
    showServerMessage: false,
  },
  CASE_IS_ACTIVE: { status: 409, message: 'This case is active and cannot be moved.', showServerMessage: false },
  CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON: {
    status: 409,
    message: 'This case is assigned to a current or future season and cannot be moved.',
    showServerMessage: false,
  },
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
  WRONG_DISEASE_TYPE: {
    status: 422,
    message: "The case's disease type does not match the project's disease type.",
    showServerMessage: false,
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
  CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN: {
    status: 409,
    message: 'This case is associated with participants and cannot be deleted.',
    showServerMessage: false,
  },
  PREVIEW_DELETE_FORBIDDEN: { status: 409, message: 'This preview cannot be deleted.', showServerMessage: false },
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
  CASES_NOT_COMPLETED: {
    status: 409,
    message: 'This action requires all cases to be completed first.',
    showServerMessage: false,
  },
} as const satisfies Record<string, ErrorDefinition>;
