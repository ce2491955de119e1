import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '@pss/contract';
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
}
