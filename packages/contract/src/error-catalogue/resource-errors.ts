import type { ErrorDefinition } from './error-definition.js';

/** Errors of resources and the signed links that hand out their files. */
export const resourceErrors = {
  URL_ALREADY_EXISTS: { status: 409, message: 'This URL already exists.', showServerMessage: true },
  RESOURCE_ATTACHED_DELETE_FORBIDDEN: {
    status: 409,
    message: 'This resource is attached and cannot be deleted.',
    showServerMessage: true,
  },
  SIGNED_LINK_INVALID: {
    status: 403,
    message: 'This link is invalid or has expired. Open the resource again to get a new link.',
    showServerMessage: false,
  },
  FILE_MISSING: {
    status: 404,
    message: 'The file could not be found in storage. Upload it again, or ask the administrator to restore it.',
    showServerMessage: false,
  },
  RANGE_NOT_SATISFIABLE: {
    status: 416,
    message: 'The requested part of the file lies outside it.',
    showServerMessage: false,
  },
} as const satisfies Record<string, ErrorDefinition>;
