import type { FastifyInstance } from 'fastify';
import { clientRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { caller } from '../../lib/access-control.js';
import type { FileStorage } from '../../lib/storage.js';
import { importUpload } from '../../lib/import-uploads.js';
import type { ImportsService } from '../imports/imports.service.js';
import type { ClientsService } from './clients.service.js';

export function registerClientsRoutes(
  app: FastifyInstance,
  deps: { clients: ClientsService; imports: ImportsService; storage: FileStorage },
): void {
  const implement = contractRoutes(app);
  const { clients, imports } = deps;

  implement(
    clientRoutes.list,
    {
      tags: ['Clients'],
      summary: 'List clients',
      description:
        'Paged, searched (name, CAP ID) and sorted in SQL. Sortable: name, cap_id, cap_status, updated_at, ' +
        'created_at (default created_at:DESC). Filter: `{"cap_status": "Active"}`. A client administrator sees only their own client.',
    },
    async (request) => clients.list(caller(request), request.query),
  );

  implement(
    clientRoutes.create,
    {
      tags: ['Clients'],
      summary: 'Create a client',
      description: 'The CAP ID, when given, must be unique among clients (409 CLIENT_CAP_ID_ALREADY_EXISTS).',
    },
    async (request) => await clients.create(request.body),
  );

  implement(clientRoutes.latestCapImport, { tags: ['Clients'], summary: 'The latest CAP roster import' }, async () =>
    imports.latest('CAP', null),
  );

  implement(
    clientRoutes.importCapRoster,
    {
      tags: ['Clients'],
      summary: 'Import the CAP roster (CSV, multipart field `file`)',
      description:
        'Columns `cap_id`, `name`, `status` (any order and case; comma or semicolon). Runs in the background: ' +
        'answers 202 with the job. All or nothing: any invalid row leaves the roster as it was and is listed with its line.',
    },
    importUpload(deps.storage, (request, upload) =>
      imports.enqueue({
        kind: 'CAP',
        scopeId: null,
        createdBy: caller(request).userId,
        fileName: upload.fileName,
        file: { key: upload.key },
      }),
    ),
  );

  implement(
    clientRoutes.capStatus,
    {
      tags: ['Clients'],
      summary: 'A CAP member number on the imported CAP roster',
      description:
        '404 CAP_CLIENT_NOT_FOUND when the roster has no such CAP ID. A client administrator finds only the entry ' +
        'of their own client (by its CAP ID); any other answers the same 404.',
    },
    async (request) => clients.capStatus(caller(request), request.params.id),
  );

  implement(
    clientRoutes.get,
    {
      tags: ['Clients'],
      summary: 'One client',
      description: "Another client's id answers 404 NOT_FOUND to a client administrator.",
    },
    async (request) => clients.get(caller(request), request.params.id),
  );

  implement(clientRoutes.update, { tags: ['Clients'], summary: 'Edit a client' }, async (request) =>
    clients.update(caller(request), request.params.id, request.body),
  );

  implement(
    clientRoutes.remove,
    {
      tags: ['Clients'],
      summary: 'Delete a client',
      description: 'A client with projects cannot be deleted (409 CLIENT_HAS_PROJECTS).',
    },
    async (request) => {
      await clients.remove(request.params.id);
      return null;
    },
  );
}
