import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assignment,
  displayNameBody,
  idParams,
  mobileNumberBody,
  professionsResponse,
  updateUserBody,
  userDetails,
  userListQuery,
  userPage,
} from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import type { UserManagementService } from './user-management.service.js';

const userIdParams = z.object({ userId: z.string().uuid() });

export function registerUserManagementRoutes(app: FastifyInstance, service: UserManagementService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/users',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Users'],
        summary: 'List users',
        description:
          'Paged, searched (name, email, user ID) and sorted in SQL. Sortable: last_name, first_name, email, role, created_at. ' +
          'Filter: `{"role": "USER" | [...], "client_id", "project_id", "status": "active"|"archived"}` (status is within ' +
          'project_id). A client administrator sees only participants of their own client.',
        querystring: userListQuery,
        response: { 200: userPage },
      },
    },
    async (request) => service.list(caller(request), request.query),
  );

  r.get(
    '/users/professions',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Users'],
        summary: 'The professions a participant may have',
        response: { 200: professionsResponse },
      },
    },
    async () => service.professions(),
  );

  r.get(
    '/users/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Users'],
        summary: 'One user with every detail and their projects',
        description:
          'USER_NOT_FOUND for a user the caller may not see (another client’s, or staff to a client administrator).',
        params: idParams,
        response: { 200: userDetails },
      },
    },
    async (request) => service.get(caller(request), request.params.id),
  );

  r.put(
    '/users/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Users'],
        summary: 'Edit a user',
        description:
          'All details at once. `password` (superadmins only, staff accounts only) sets a new password. Refused with ' +
          'USER_UPDATE_BLOCKED_BY_IMPORT while an import into one of the user’s projects runs; EMAIL_ALREADY_EXISTS when ' +
          'the email belongs to someone else.',
        params: idParams,
        body: updateUserBody,
        response: { 200: userDetails },
      },
    },
    async (request) => service.update(caller(request), request.params.id, request.body),
  );

  r.put(
    '/users/:userId/display-name',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Users'],
        summary: 'Set the name shown for a user',
        params: userIdParams,
        body: displayNameBody,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.setField(caller(request), request.params.userId, 'displayName', request.body.display_name);
      return reply.status(204).send(null);
    },
  );

  r.put(
    '/users/:userId/mobile-number',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Users'],
        summary: 'Set a user’s mobile number',
        params: userIdParams,
        body: mobileNumberBody,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.setField(caller(request), request.params.userId, 'mobileNumber', request.body.mobile_number);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/users/:id/assignments',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Users'],
        summary: 'Which seasons and rounds a participant takes, in which projects, from when',
        params: idParams,
        response: { 200: z.array(assignment) },
      },
    },
    async (request) => service.assignments(caller(request), request.params.id),
  );
}
