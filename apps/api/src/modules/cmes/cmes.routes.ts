import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cme, cmeListQuery, cmePage, createCmeBody, idParams, updateCmeBody } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import type { CmesService } from './cmes.service.js';

export function registerCmesRoutes(app: FastifyInstance, service: CmesService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/cmes',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['CMEs'],
        summary: 'Add a CME credit to a project',
        description:
          'Minimum completed cases, credits (in quarters), whether it counts for MOC, the Totera course id and custom text.',
        body: createCmeBody,
        response: { 201: cme },
      },
    },
    async (request, reply) => {
      const { project_id, ...fields } = request.body;
      return reply.status(201).send(await service.create(caller(request), project_id, fields));
    },
  );

  // The specification's `/cmes/{projectId}`: the same path as a CME's own `/cmes/{id}`, so
  // the parameter has one name here too (a path with two names is ambiguous to OpenAPI tools).
  r.get(
    '/cmes/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['CMEs'],
        summary: 'A project’s CME credits (paged)',
        description:
          '`id` is the project’s id. Sortable: min_cases, credits, updated_at, created_at. Filter: `{"moc": true}`.',
        params: z.object({ id: idParams.shape.id.describe('The project’s id.') }),
        querystring: cmeListQuery,
        response: { 200: cmePage },
      },
    },
    async (request) => service.list(caller(request), request.params.id, request.query),
  );

  r.put(
    '/cmes/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['CMEs'],
        summary: 'Edit a CME credit',
        params: idParams,
        body: updateCmeBody,
        response: { 200: cme },
      },
    },
    async (request) => service.update(caller(request), request.params.id, request.body),
  );

  r.delete(
    '/cmes/:id',
    {
      config: { access: 'admin' },
      schema: { tags: ['CMEs'], summary: 'Delete a CME credit', params: idParams, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await service.remove(caller(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
