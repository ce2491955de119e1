import { idParams } from '../clients.js';
import { reportContentTypes } from '../reports.js';
import {
  caseResources,
  createResourceBody,
  createResourceCategoryBody,
  deletedResources,
  duplicateResourceBody,
  participantResources,
  resource,
  resourceAttemptParams,
  resourceCaseUses,
  resourceCategory,
  resourceCategoryList,
  resourceClients,
  resourceDeleteQuery,
  resourceExportQuery,
  resourceFileDetails,
  resourceFileTypes,
  resourceListQuery,
  resourceModalQuery,
  resourcePage,
  setCaseResourcesBody,
  signedFileParams,
  signedLink,
  thumbnailLink,
  updateResourceBody,
} from '../resources.js';
import { route } from '../route.js';

/**
 * The Resource Library: the specification's sixteen calls (the library is the provider's,
 * managed by superadmins; the picker and the file links also serve client administrators
 * attaching resources to their cases), plus what attaching and reading need and the
 * specification does not name: a case's resources (`/cases/{id}/resources`), a participant's
 * (`/users/{userSeasonRoundCaseId}/resources`), and the signed file links themselves
 * (`/resource-files/{token}`, public: the token is the credential, and it expires).
 */
export const resourceRoutes = {
  list: route({
    method: 'GET',
    path: '/resource-library',
    access: 'superadmin',
    query: resourceListQuery,
    reply: resourcePage,
  }),
  create: route({
    method: 'POST',
    path: '/resource-library',
    access: 'superadmin',
    audit: { kind: 'change', name: 'resources.create' },
    body: createResourceBody,
    status: 201,
    reply: resource,
  }),
  remove: route({
    method: 'DELETE',
    path: '/resource-library',
    access: 'superadmin',
    audit: { kind: 'change', name: 'resources.remove' },
    query: resourceDeleteQuery,
    reply: deletedResources,
  }),
  categories: route({
    method: 'GET',
    path: '/resource-library/categories',
    access: 'admin',
    reply: resourceCategoryList,
  }),
  createCategory: route({
    method: 'POST',
    path: '/resource-library/categories',
    access: 'superadmin',
    audit: { kind: 'change', name: 'resources.createCategory' },
    body: createResourceCategoryBody,
    status: 201,
    reply: resourceCategory,
  }),
  export: route({
    method: 'GET',
    path: '/resource-library/export',
    access: 'superadmin',
    audit: { kind: 'download', name: 'resources.export' },
    query: resourceExportQuery,
    produces: [reportContentTypes.csv, reportContentTypes.xlsx],
  }),
  modal: route({
    method: 'GET',
    path: '/resource-library/modal',
    access: 'admin',
    query: resourceModalQuery,
    reply: resourcePage,
  }),
  upload: route({
    method: 'POST',
    path: '/resource-library/upload',
    access: 'superadmin',
    audit: { kind: 'change', name: 'resources.upload' },
    upload: true,
    status: 201,
    reply: resource,
  }),
  fileDetails: route({
    method: 'GET',
    path: '/resource-library/file/:id/details',
    access: 'admin',
    params: idParams,
    reply: resourceFileDetails,
  }),
  fileLink: route({
    method: 'GET',
    path: '/resource-library/file/:id/link',
    access: 'admin',
    params: idParams,
    reply: signedLink,
  }),
  thumbnailLink: route({
    method: 'GET',
    path: '/resource-library/file/:id/thumbnail-link',
    access: 'admin',
    params: idParams,
    reply: thumbnailLink,
  }),
  cases: route({
    method: 'GET',
    path: '/resource-library/:id/cases',
    access: 'superadmin',
    params: idParams,
    reply: resourceCaseUses,
  }),
  clients: route({
    method: 'GET',
    path: '/resource-library/:id/clients',
    access: 'superadmin',
    params: idParams,
    reply: resourceClients,
  }),
  duplicate: route({
    method: 'POST',
    path: '/resource-library/:id/duplicate',
    access: 'superadmin',
    audit: { kind: 'change', name: 'resources.duplicate' },
    params: idParams,
    body: duplicateResourceBody,
    status: 201,
    reply: resource,
  }),
  get: route({ method: 'GET', path: '/resource-library/:id', access: 'superadmin', params: idParams, reply: resource }),
  update: route({
    method: 'PUT',
    path: '/resource-library/:id',
    access: 'superadmin',
    audit: { kind: 'change', name: 'resources.update' },
    params: idParams,
    body: updateResourceBody,
    reply: resource,
  }),
  /** A case's resources, for Case Setup (whoever may see the case). */
  ofCase: route({
    method: 'GET',
    path: '/cases/:id/resources',
    access: 'admin',
    params: idParams,
    reply: caseResources,
  }),
  /** Replaces a draft case's resources (in the order given). */
  setOfCase: route({
    method: 'PUT',
    path: '/cases/:id/resources',
    access: 'admin',
    audit: { kind: 'change', name: 'resources.setOfCase' },
    params: idParams,
    body: setCaseResourcesBody,
    reply: caseResources,
  }),
  /** A participant's own case's resources, with signed links. */
  ofAttempt: route({
    method: 'GET',
    path: '/users/:userSeasonRoundCaseId/resources',
    access: 'participant',
    params: resourceAttemptParams,
    reply: participantResources,
  }),
  /** A file or thumbnail behind a signed link. */
  signedFile: route({
    method: 'GET',
    path: '/resource-files/:token',
    access: 'public',
    params: signedFileParams,
    produces: [...resourceFileTypes, 'image/webp'],
  }),
};
