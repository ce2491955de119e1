import { z } from 'zod';
import { capIdParams, capStatus, client, clientBody, idParams } from '../clients.js';
import { importJob } from '../import-jobs.js';
import { route } from '../route.js';
import { clientListRoute } from './first-screens.js';

export const clientRoutes = {
  list: clientListRoute,
  create: route({
    method: 'POST',
    path: '/clients',
    access: 'superadmin',
    audit: { kind: 'change', name: 'clients.create' },
    body: clientBody,
    status: 201,
    reply: client,
  }),
  latestCapImport: route({
    method: 'GET',
    path: '/clients/cap/import',
    access: 'superadmin',
    reply: importJob.nullable(),
  }),
  importCapRoster: route({
    method: 'POST',
    path: '/clients/cap/import',
    access: 'superadmin',
    audit: { kind: 'change', name: 'clients.importCapRoster' },
    upload: true,
    status: 202,
    reply: importJob,
  }),
  capStatus: route({
    method: 'GET',
    path: '/clients/cap/:id/status',
    access: 'admin',
    params: capIdParams,
    reply: capStatus,
  }),
  get: route({ method: 'GET', path: '/clients/:id', access: 'admin', params: idParams, reply: client }),
  update: route({
    method: 'PUT',
    path: '/clients/:id',
    access: 'superadmin',
    audit: { kind: 'change', name: 'clients.update' },
    params: idParams,
    body: clientBody,
    reply: client,
  }),
  remove: route({
    method: 'DELETE',
    path: '/clients/:id',
    access: 'superadmin',
    audit: { kind: 'change', name: 'clients.remove' },
    params: idParams,
    status: 204,
    reply: z.null(),
  }),
};
