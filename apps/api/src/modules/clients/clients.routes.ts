import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { client, clientListQuery, clientPage, idParams } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import type { ClientsService } from './clients.service.js';

export function registerClientsRoutes(app: FastifyInstance, service: ClientsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/clients',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Clients'],
        summary: 'List clients',
        description:
          'Paged, searched (name, CAP ID) and sorted in SQL. Sortable: name, cap_id, cap_status, updated_at, created_at ' +
          '(default created_at:DESC). A client administrator sees only their own client.',
        querystring: clientListQuery,
        response: { 200: clientPage },
      },
    },
    async (request) => service.list(caller(request), request.query),
  );
  r.get(
    '/clients/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Clients'],
        summary: 'One client',
        description: "Another client's id answers 404 NOT_FOUND to a client administrator.",
        params: idParams,
        response: { 200: client },
      },
    },
    async (request) => service.get(caller(request), request.params.id),
  );
}
