import { z } from 'zod';
import { idParams } from '../clients.js';
import { cme, cmeListQuery, cmePage, createCmeBody, updateCmeBody } from '../cmes.js';
import { route } from '../route.js';

export const cmeRoutes = {
  create: route({
    method: 'POST',
    path: '/cmes',
    access: 'admin',
    audit: { kind: 'change', name: 'cmes.create' },
    body: createCmeBody,
    status: 201,
    reply: cme,
  }),
  list: route({
    method: 'GET',
    path: '/cmes/:id',
    access: 'admin',
    params: z.object({ id: idParams.shape.id.describe('The project’s id.') }),
    query: cmeListQuery,
    reply: cmePage,
  }),
  update: route({
    method: 'PUT',
    path: '/cmes/:id',
    access: 'admin',
    audit: { kind: 'change', name: 'cmes.update' },
    params: idParams,
    body: updateCmeBody,
    reply: cme,
  }),
  remove: route({
    method: 'DELETE',
    path: '/cmes/:id',
    access: 'admin',
    audit: { kind: 'change', name: 'cmes.remove' },
    params: idParams,
    status: 204,
    reply: z.null(),
  }),
};
