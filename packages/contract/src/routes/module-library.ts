import { z } from 'zod';
import { caseListQuery, caseSummaryPage } from '../cases.js';
import { catalogueListQuery, cataloguePage } from '../projects.js';
import { idParams } from '../clients.js';
import {
  associatedProjectPage,
  associatedProjectQuery,
  copiedCases,
  copyCasesToModuleBody,
  copyCasesToProjectBody,
  moduleBody,
  moduleLibrary,
  moduleListQuery,
  moduleSummaryPage,
  removeModuleCasesQuery,
} from '../module-library.js';
import { route } from '../route.js';

export const moduleLibraryRoutes = {
  copyToProject: route({
    method: 'POST',
    path: '/module-library/cases/to-project',
    access: 'superadmin',
    body: copyCasesToProjectBody,
    status: 201,
    reply: copiedCases,
  }),
  copyToModule: route({
    method: 'POST',
    path: '/module-library/cases/modules',
    access: 'superadmin',
    body: copyCasesToModuleBody,
    status: 201,
    reply: copiedCases,
  }),
  list: route({
    method: 'GET',
    path: '/module-library',
    access: 'superadmin',
    query: moduleListQuery,
    reply: moduleSummaryPage,
  }),
  create: route({
    method: 'POST',
    path: '/module-library',
    access: 'superadmin',
    body: moduleBody,
    status: 201,
    reply: moduleLibrary,
  }),
  get: route({
    method: 'GET',
    path: '/module-library/:id',
    access: 'superadmin',
    params: idParams,
    reply: moduleLibrary,
  }),
  update: route({
    method: 'PUT',
    path: '/module-library/:id',
    access: 'superadmin',
    params: idParams,
    body: moduleBody,
    reply: moduleLibrary,
  }),
  remove: route({
    method: 'DELETE',
    path: '/module-library/:id',
    access: 'superadmin',
    params: idParams,
    status: 204,
    reply: z.null(),
  }),
  cases: route({
    method: 'GET',
    path: '/module-library/:id/cases',
    access: 'superadmin',
    params: idParams,
    query: caseListQuery,
    reply: caseSummaryPage,
  }),
  removeCases: route({
    method: 'DELETE',
    path: '/module-library/:id/remove-cases',
    access: 'superadmin',
    params: idParams,
    query: removeModuleCasesQuery,
    reply: copiedCases,
  }),
  associatedProjects: route({
    method: 'GET',
    path: '/module-library/:id/associated-projects',
    access: 'superadmin',
    params: idParams,
    query: associatedProjectQuery,
    reply: associatedProjectPage,
  }),
  diseaseTypes: route({
    method: 'GET',
    path: '/module-library/:id/disease-types',
    access: 'superadmin',
    params: idParams,
    query: catalogueListQuery,
    reply: cataloguePage,
  }),
  questionCategories: route({
    method: 'GET',
    path: '/module-library/:id/question-categories',
    access: 'superadmin',
    params: idParams,
    query: catalogueListQuery,
    reply: cataloguePage,
  }),
};
