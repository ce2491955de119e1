import type { FastifyInstance } from 'fastify';
import { cmeRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { caller } from '../../lib/access-control.js';
import type { CmesService } from './cmes.service.js';

export function registerCmesRoutes(app: FastifyInstance, service: CmesService): void {
  const implement = contractRoutes(app);

  implement(
    cmeRoutes.create,
    {
      tags: ['CMEs'],
      summary: 'Add a CME credit to a project',
      description:
        'Minimum completed cases, credits (in quarters), whether it counts for MOC, the Totera course id and custom text.',
    },
    async (request) => {
      const { project_id, ...fields } = request.body;
      return await service.create(caller(request), project_id, fields);
    },
  );

  // The specification's `/cmes/{projectId}`: the same path as a CME's own `/cmes/{id}`, so
  // the parameter has one name here too (a path with two names is ambiguous to OpenAPI tools).
  implement(
    cmeRoutes.list,
    {
      tags: ['CMEs'],
      summary: 'A project’s CME credits (paged)',
      description:
        '`id` is the project’s id. Sortable: min_cases, credits, updated_at, created_at. Filter: `{"moc": true}`.',
    },
    async (request) => service.list(caller(request), request.params.id, request.query),
  );

  implement(cmeRoutes.update, { tags: ['CMEs'], summary: 'Edit a CME credit' }, async (request) =>
    service.update(caller(request), request.params.id, request.body),
  );

  implement(cmeRoutes.remove, { tags: ['CMEs'], summary: 'Delete a CME credit' }, async (request) => {
    await service.remove(caller(request), request.params.id);
    return null;
  });
}
