import type { FastifyInstance } from 'fastify';
import { userRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { signedInUser } from '../../lib/access-control.js';
import { toCurrentUser, type UsersService } from './users.service.js';

export function registerUsersRoutes(app: FastifyInstance, service: UsersService): void {
  const implement = contractRoutes(app);
  // The account as the access check read it with the session: this call reads nothing more.
  implement(userRoutes.me, { tags: ['Users'], summary: 'The signed-in staff member' }, async (request) =>
    toCurrentUser(signedInUser(request)),
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
