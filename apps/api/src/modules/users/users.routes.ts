import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createStaffUserBody, currentUser, staffUser } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import type { UsersService } from './users.service.js';

export function registerUsersRoutes(app: FastifyInstance, service: UsersService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/users/me',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Users'],
        summary: 'The signed-in staff member',
        response: { 200: currentUser },
      },
    },
    async (request) => service.getCurrentStaffUser(caller(request).userId),
  );
  r.post(
    '/users',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['Users'],
        summary: 'Create a staff account',
        description:
          'A client administrator (`role: "ADMIN"`, with the `client_id` they belong to) or a superadmin. Password at least ' +
          '6 characters (PASSWORD_TOO_SHORT); an email already in use answers 409 EMAIL_ALREADY_EXISTS.',
        body: createStaffUserBody,
        response: { 201: staffUser },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createStaffUser(request.body)),
  );
}
