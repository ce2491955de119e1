import type { FastifyInstance } from 'fastify';
import { userRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { caller } from '../../lib/access-control.js';
import type { UsersService } from './users.service.js';

export function registerUsersRoutes(app: FastifyInstance, service: UsersService): void {
  const implement = contractRoutes(app);
  implement(userRoutes.me, { tags: ['Users'], summary: 'The signed-in staff member' }, async (request) =>
    service.getCurrentStaffUser(caller(request).userId),
  );
  implement(
    userRoutes.createStaff,
    {
      tags: ['Users'],
      summary: 'Create a staff account',
      description:
        'A client administrator (`role: "ADMIN"`, with the `client_id` they belong to) or a superadmin. Password at least ' +
        '6 characters (PASSWORD_TOO_SHORT); an email already in use answers 409 EMAIL_ALREADY_EXISTS.',
    },
    async (request) => await service.createStaffUser(request.body),
  );
}
