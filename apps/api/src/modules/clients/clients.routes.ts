import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  capIdParams,
  capStatus,
  client,
  clientBody,
  clientListQuery,
  clientPage,
  idParams,
  importJob,
} from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import type { FileStorage } from '../../lib/storage.js';
import { receiveUpload, withUpload } from '../../lib/uploads.js';
import type { ImportsService } from '../imports/imports.service.js';
import type { ClientsService } from './clients.service.js';

export function registerClientsRoutes(
  app: FastifyInstance,
  deps: { clients: ClientsService; imports: ImportsService; storage: FileStorage },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { clients, imports } = deps;

  r.get(
    '/clients',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Clients'],
        summary: 'List clients',
        description:
          'Paged, searched (name, CAP ID) and sorted in SQL. Sortable: name, cap_id, cap_status, updated_at, ' +
          'created_at (default created_at:DESC). Filter: `{"cap_status": "Active"}`. A client administrator sees only their own client.',
        querystring: clientListQuery,
        response: { 200: clientPage },
      },
    },
    async (request) => clients.list(caller(request), request.query),
  );

  r.post(
    '/clients',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['Clients'],
        summary: 'Create a client',
        description: 'The CAP ID, when given, must be unique among clients (409 CLIENT_CAP_ID_ALREADY_EXISTS).',
        body: clientBody,
        response: { 201: client },
      },
    },
    async (request, reply) => reply.status(201).send(await clients.create(request.body)),
  );

  r.get(
    '/clients/cap/import',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['Clients'],
        summary: 'The latest CAP roster import',
        response: { 200: importJob.nullable() },
      },
    },
    async () => imports.latest('CAP', null),
  );

  r.post(
    '/clients/cap/import',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['Clients'],
        summary: 'Import the CAP roster (CSV, multipart field `file`)',
        description:
          'Columns `cap_id`, `name`, `status` (any order and case; comma or semicolon). Runs in the background: ' +
          'answers 202 with the job. All or nothing: any invalid row leaves the roster as it was and is listed with its line.',
        consumes: ['multipart/form-data'],
        response: { 202: importJob },
      },
    },
    async (request, reply) => {
      const upload = await receiveUpload(request, deps.storage);
      const job = await withUpload(deps.storage, upload, () =>
        imports.enqueue({
          kind: 'CAP',
          scopeId: null,
          createdBy: caller(request).userId,
          fileName: upload.fileName,
          file: { key: upload.key },
        }),
      );
      return reply.status(202).send(job);
    },
  );

  r.get(
    '/clients/cap/:id/status',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Clients'],
        summary: 'A CAP member number on the imported CAP roster',
        description:
          '404 CAP_CLIENT_NOT_FOUND when the roster has no such CAP ID. A client administrator finds only the entry ' +
          'of their own client (by its CAP ID); any other answers the same 404.',
        params: capIdParams,
        response: { 200: capStatus },
      },
    },
    async (request) => clients.capStatus(caller(request), request.params.id),
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
    async (request) => clients.get(caller(request), request.params.id),
  );

  r.put(
    '/clients/:id',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['Clients'],
        summary: 'Edit a client',
        params: idParams,
        body: clientBody,
        response: { 200: client },
      },
    },
    async (request) => clients.update(caller(request), request.params.id, request.body),
  );

  r.delete(
    '/clients/:id',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['Clients'],
        summary: 'Delete a client',
        description: 'A client with projects cannot be deleted (409 CLIENT_HAS_PROJECTS).',
        params: idParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await clients.remove(request.params.id);
      return reply.status(204).send(null);
    },
  );
}
