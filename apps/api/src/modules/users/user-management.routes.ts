import type { FastifyInstance } from 'fastify';
import { userRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { caller } from '../../lib/access-control.js';
import type { UserManagementService } from './user-management.service.js';

export function registerUserManagementRoutes(app: FastifyInstance, service: UserManagementService): void {
  const implement = contractRoutes(app);

  implement(
    userRoutes.list,
    {
      tags: ['Users'],
      summary: 'List users',
      description:
        'Paged, searched (name, email, user ID) and sorted in SQL. Sortable: last_name, first_name, email, role, created_at. ' +
        'Filter: `{"role": "USER" | [...], "client_id", "project_id", "status": "active"|"archived"}` (status is within ' +
        'project_id). A client administrator sees only participants of their own client.',
    },
    async (request) => service.list(caller(request), request.query),
  );

  implement(userRoutes.professions, { tags: ['Users'], summary: 'The professions a participant may have' }, async () =>
    service.professions(),
  );

  implement(
    userRoutes.get,
    {
      tags: ['Users'],
      summary: 'One user with every detail and their projects',
      description:
        'USER_NOT_FOUND for a user the caller may not see (another client’s, or staff to a client administrator).',
    },
    async (request) => service.get(caller(request), request.params.id),
  );

  implement(
    userRoutes.update,
    {
      tags: ['Users'],
      summary: 'Edit a user',
      description:
        'All details at once. `password` (superadmins only, staff accounts only) sets a new password. Refused with ' +
        'USER_UPDATE_BLOCKED_BY_IMPORT while an import into one of the user’s projects runs; EMAIL_ALREADY_EXISTS when ' +
        'the email belongs to someone else.',
    },
    async (request) => service.update(caller(request), request.params.id, request.body),
  );

  implement(
    userRoutes.setDisplayName,
    {
      tags: ['Users'],
      summary: 'Set the name shown for a user',
      description:
        'Staff: a participant of their client (superadmins: anyone). A participant: only themselves (a survey’s ' +
        'info review); anyone else answers 404 USER_NOT_FOUND.',
    },
    async (request) => {
      await service.setField(caller(request), request.params.userId, 'displayName', request.body.display_name);
      return null;
    },
  );

  implement(
    userRoutes.setMobileNumber,
    {
      tags: ['Users'],
      summary: 'Set a user’s mobile number',
      description:
        'Staff: a participant of their client (superadmins: anyone). A participant: only themselves (a survey’s ' +
        'info review); anyone else answers 404 USER_NOT_FOUND.',
    },
    async (request) => {
      await service.setField(caller(request), request.params.userId, 'mobileNumber', request.body.mobile_number);
      return null;
    },
  );

  implement(
    userRoutes.assignments,
    { tags: ['Users'], summary: 'Which seasons and rounds a participant takes, in which projects, from when' },
    async (request) => service.assignments(caller(request), request.params.id),
  );
}
