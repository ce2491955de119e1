import { z } from 'zod';
import { activeSeasonListQuery, activeSeasonPage, idParams } from '../clients.js';
import {
  catalogueListQuery,
  cataloguePage,
  createProjectBody,
  project,
  projectListQuery,
  projectPage,
  seasonsResponse,
  updateProjectBody,
} from '../projects.js';
import { route } from '../route.js';

export const projectRoutes = {
  list: route({ method: 'GET', path: '/projects', access: 'admin', query: projectListQuery, reply: projectPage }),
  activeSeasons: route({
    method: 'GET',
    path: '/clients/active-seasons',
    access: 'admin',
    query: activeSeasonListQuery,
    reply: activeSeasonPage,
  }),
  listForClient: route({
    method: 'GET',
    path: '/clients/:id/projects',
    access: 'admin',
    params: idParams,
    query: projectListQuery,
    reply: projectPage,
  }),
  create: route({
    method: 'POST',
    path: '/projects',
    access: 'admin',
    audit: { kind: 'change', name: 'projects.create' },
    body: createProjectBody,
    status: 201,
    reply: project,
  }),
  get: route({ method: 'GET', path: '/projects/:id', access: 'admin', params: idParams, reply: project }),
  update: route({
    method: 'PUT',
    path: '/projects/:id',
    access: 'admin',
    audit: { kind: 'change', name: 'projects.update' },
    params: idParams,
    body: updateProjectBody,
    reply: project,
  }),
  archive: route({
    method: 'POST',
    path: '/projects/:id/archive',
    access: 'admin',
    audit: { kind: 'change', name: 'projects.archive' },
    params: idParams,
    reply: project,
  }),
  restore: route({
    method: 'POST',
    path: '/projects/:id/restore',
    access: 'admin',
    audit: { kind: 'change', name: 'projects.restore' },
    params: idParams,
    reply: project,
  }),
  remove: route({
    method: 'DELETE',
    path: '/projects/:id',
    access: 'admin',
    audit: { kind: 'change', name: 'projects.remove' },
    params: idParams,
    status: 204,
    reply: z.null(),
  }),
  seasons: route({
    method: 'GET',
    path: '/projects/:id/seasons',
    access: 'admin',
    params: idParams,
    reply: seasonsResponse,
  }),
};

/** A shared catalogue: each project's entries, the whole list for pickers, and deleting an unused entry. */
export const diseaseTypeRoutes = {
  ofProject: route({
    method: 'GET',
    path: '/projects/:id/disease-types',
    access: 'admin',
    params: idParams,
    query: catalogueListQuery,
    reply: cataloguePage,
  }),
  list: route({
    method: 'GET',
    path: '/disease-types',
    access: 'admin',
    query: catalogueListQuery,
    reply: cataloguePage,
  }),
  remove: route({
    method: 'DELETE',
    path: '/disease-types/:id',
    access: 'superadmin',
    audit: { kind: 'change', name: 'diseaseTypes.remove' },
    params: idParams,
    status: 204,
    reply: z.null(),
  }),
};

export const questionCategoryRoutes = {
  ofProject: route({
    method: 'GET',
    path: '/projects/:id/question-categories',
    access: 'admin',
    params: idParams,
    query: catalogueListQuery,
    reply: cataloguePage,
  }),
  list: route({
    method: 'GET',
    path: '/question-categories',
    access: 'admin',
    query: catalogueListQuery,
    reply: cataloguePage,
  }),
  remove: route({
    method: 'DELETE',
    path: '/question-categories/:id',
    access: 'superadmin',
    audit: { kind: 'change', name: 'questionCategories.remove' },
    params: idParams,
    status: 204,
    reply: z.null(),
  }),
};
