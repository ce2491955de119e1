import type { ErrorDefinition } from './error-definition.js';

/** Errors of clients, projects, their seasons and catalogues (disease types, question categories). */
export const clientProjectErrors = {
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
  /** Ours: a support phone (a client's or a project's) longer than 60 characters or with control characters. */
  INVALID_PHONE: {
    status: 400,
    message: 'Please enter a phone number of at most 60 characters, without line breaks or control characters.',
    showServerMessage: false,
  },
  PROJECT_NOT_FOUND: { status: 404, message: 'The project does not exist.', showServerMessage: false },
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
  SEASON_HAS_PARTICIPANT_WORK: {
    status: 409,
    message:
      'A season or round that participants are assigned to or have worked on cannot be removed: their assignments, answers and scores would be lost.',
    showServerMessage: true,
  },
} as const satisfies Record<string, ErrorDefinition>;
