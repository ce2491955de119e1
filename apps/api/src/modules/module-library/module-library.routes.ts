import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  associatedProjectPage,
  associatedProjectQuery,
  caseListQuery,
  caseSummaryPage,
  catalogueListQuery,
  cataloguePage,
  copiedCases,
  copyCasesToModuleBody,
  copyCasesToProjectBody,
  idParams,
  moduleBody,
  moduleLibrary,
  moduleListQuery,
  moduleSummaryPage,
  removeModuleCasesQuery,
} from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import type { ModuleLibraryService } from './module-library.service.js';

const tags = ['Module library'];
const superadmin = { access: 'superadmin' as const };

export function registerModuleLibraryRoutes(app: FastifyInstance, service: ModuleLibraryService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Literal segments first, so `/module-library/cases/...` is never read as an id.
  r.post(
    '/module-library/cases/to-project',
    {
      config: superadmin,
      schema: {
        tags,
        summary: 'Copy module cases into a project',
        description:
          'All or nothing. Each case must fit the project: its disease type one of the project’s ' +
          '(WRONG_DISEASE_TYPE) and its question categories the project’s (PROJECT_MISSING_QUESTION_CATEGORIES; ' +
          'both: PROJECT_MISSING_QUESTION_CATEGORIES_AND_DISEASE_TYPES). Copies are drafts that remember their ' +
          'module case (`source_case_id`).',
        body: copyCasesToProjectBody,
        response: { 201: copiedCases },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.copyToProject(caller(request), request.body.case_ids, request.body.project_id)),
  );

  r.post(
    '/module-library/cases/modules',
    {
      config: superadmin,
      schema: {
        tags,
        summary: 'Copy module cases into another module library (the same fit rule as for projects)',
        body: copyCasesToModuleBody,
        response: { 201: copiedCases },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.copyToModule(caller(request), request.body.case_ids, request.body.module_id)),
  );

  r.get(
    '/module-library',
    {
      config: superadmin,
      schema: {
        tags,
        summary: 'Module libraries (paged)',
        description: 'Search: name. Sortable: name, case_count, updated_at, created_at.',
        querystring: moduleListQuery,
        response: { 200: moduleSummaryPage },
      },
    },
    async (request) => service.list(request.query),
  );

  r.post(
    '/module-library',
    {
      config: superadmin,
      schema: {
        tags,
        summary: 'Create a module library',
        description: 'Disease types and question categories are found by name (any case) or created.',
        body: moduleBody,
        response: { 201: moduleLibrary },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.body)),
  );

  r.get(
    '/module-library/:id',
    {
      config: superadmin,
      schema: { tags, summary: 'A module library', params: idParams, response: { 200: moduleLibrary } },
    },
    async (request) => service.get(request.params.id),
  );

  r.put(
    '/module-library/:id',
    {
      config: superadmin,
      schema: {
        tags,
        summary: 'Edit a module library',
        params: idParams,
        body: moduleBody,
        response: { 200: moduleLibrary },
      },
    },
    async (request) => service.update(request.params.id, request.body),
  );

  r.delete(
    '/module-library/:id',
    {
      config: superadmin,
      schema: {
        tags,
        summary: 'Delete an empty module library (one with cases: ASSOCIATED_ITEMS_DELETE_FORBIDDEN)',
        params: idParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.remove(request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/module-library/:id/cases',
    {
      config: superadmin,
      schema: {
        tags,
        summary: 'A module library’s cases (paged)',
        description: 'As `GET /projects/{id}/cases`: search, sort, status filter.',
        params: idParams,
        querystring: caseListQuery,
        response: { 200: caseSummaryPage },
      },
    },
    async (request) => service.cases(caller(request), request.params.id, request.query),
  );

  r.delete(
    '/module-library/:id/remove-cases',
    {
      config: superadmin,
      schema: {
        tags,
        summary: 'Remove a selection of a module library’s cases',
        description:
          '`filter`: `{"ids":[…]}` or `{"all":true,"except":[…],"search":…}`; cases of another module: ' +
          'CASES_FROM_WRONG_PROJECT. Copies already in projects stay.',
        params: idParams,
        querystring: removeModuleCasesQuery,
        response: { 200: copiedCases },
      },
    },
    async (request) => service.removeCases(caller(request), request.params.id, request.query.filter),
  );

  for (const [segment, kind] of [
    ['disease-types', 'disease_types'],
    ['question-categories', 'question_categories'],
  ] as const) {
    r.get(
      `/module-library/:id/${segment}`,
      {
        config: superadmin,
        schema: {
          tags,
          summary: `A module library’s ${segment.replace('-', ' ')} (paged)`,
          params: idParams,
          querystring: catalogueListQuery,
          response: { 200: cataloguePage },
        },
      },
      async (request) => service.catalogue(request.params.id, kind, request.query),
    );
  }

  r.get(
    '/module-library/:id/associated-projects',
    {
      config: superadmin,
      schema: {
        tags,
        summary: 'Projects holding copies of this module’s cases (paged)',
        description: 'Search: project name. Sortable: name, client_name.',
        params: idParams,
        querystring: associatedProjectQuery,
        response: { 200: associatedProjectPage },
      },
    },
    async (request) => service.associatedProjects(request.params.id, request.query),
  );
}
