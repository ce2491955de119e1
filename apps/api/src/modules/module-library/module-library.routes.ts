import type { FastifyInstance } from 'fastify';
import { moduleLibraryRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { caller } from '../../lib/access-control.js';
import type { ModuleLibraryService } from './module-library.service.js';

const tags = ['Module library'];

export function registerModuleLibraryRoutes(app: FastifyInstance, service: ModuleLibraryService): void {
  const implement = contractRoutes(app);

  // Literal segments first, so `/module-library/cases/...` is never read as an id.
  implement(
    moduleLibraryRoutes.copyToProject,
    {
      tags,
      summary: 'Copy module cases into a project',
      description:
        'All or nothing. Each case must fit the project: its disease type one of the project’s ' +
        '(PROJECT_MISSING_DISEASE_TYPES) and its question categories the project’s (PROJECT_MISSING_QUESTION_CATEGORIES; ' +
        'both: PROJECT_MISSING_QUESTION_CATEGORIES_AND_DISEASE_TYPES). Copies are drafts that remember their ' +
        'module case (`source_case_id`).',
    },
    async (request) => service.copyToProject(caller(request), request.body.case_ids, request.body.project_id),
  );

  implement(
    moduleLibraryRoutes.copyToModule,
    { tags, summary: 'Copy module cases into another module library (the same fit rule as for projects)' },
    async (request) => service.copyToModule(caller(request), request.body.case_ids, request.body.module_id),
  );

  implement(
    moduleLibraryRoutes.list,
    {
      tags,
      summary: 'Module libraries (paged)',
      description: 'Search: name. Sortable: name, case_count, updated_at, created_at.',
    },
    async (request) => service.list(request.query),
  );

  implement(
    moduleLibraryRoutes.create,
    {
      tags,
      summary: 'Create a module library',
      description: 'Disease types and question categories are found by name (any case) or created.',
    },
    async (request) => await service.create(request.body),
  );

  implement(moduleLibraryRoutes.get, { tags, summary: 'A module library' }, async (request) =>
    service.get(request.params.id),
  );

  implement(moduleLibraryRoutes.update, { tags, summary: 'Edit a module library' }, async (request) =>
    service.update(request.params.id, request.body),
  );

  implement(
    moduleLibraryRoutes.remove,
    { tags, summary: 'Delete an empty module library (one with cases: ASSOCIATED_ITEMS_DELETE_FORBIDDEN)' },
    async (request) => {
      await service.remove(request.params.id);
      return null;
    },
  );

  implement(
    moduleLibraryRoutes.cases,
    {
      tags,
      summary: 'A module library’s cases (paged)',
      description: 'As `GET /projects/{id}/cases`: search, sort, status filter.',
    },
    async (request) => service.cases(caller(request), request.params.id, request.query),
  );

  implement(
    moduleLibraryRoutes.removeCases,
    {
      tags,
      summary: 'Remove a selection of a module library’s cases',
      description:
        '`filter`: `{"ids":[…]}` or `{"all":true,"except":[…],"search":…}`; cases of another module: ' +
        'CASES_FROM_WRONG_PROJECT. Copies already in projects stay.',
    },
    async (request) => service.removeCases(caller(request), request.params.id, request.query.filter),
  );

  for (const [route, segment, kind] of [
    [moduleLibraryRoutes.diseaseTypes, 'disease types', 'disease_types'],
    [moduleLibraryRoutes.questionCategories, 'question categories', 'question_categories'],
  ] as const) {
    implement(route, { tags, summary: `A module library’s ${segment} (paged)` }, async (request) =>
      service.catalogue(request.params.id, kind, request.query),
    );
  }

  implement(
    moduleLibraryRoutes.associatedProjects,
    {
      tags,
      summary: 'Projects holding copies of this module’s cases (paged)',
      description: 'Search: project name. Sortable: name, client_name.',
    },
    async (request) => service.associatedProjects(request.params.id, request.query),
  );
}
