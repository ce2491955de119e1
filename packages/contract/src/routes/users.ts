import { z } from 'zod';
import { currentUser } from '../auth.js';
import { idParams } from '../clients.js';
import { createStaffUserBody, staffUser } from '../staff-users.js';
import {
  assignment,
  displayNameBody,
  mobileNumberBody,
  professionsResponse,
  updateUserBody,
  userDetails,
  userListQuery,
  userPage,
} from '../users.js';
import { route } from '../route.js';

const userIdParams = z.object({ userId: z.string().uuid() });

export const userRoutes = {
  me: route({ method: 'GET', path: '/users/me', access: 'admin', reply: currentUser }),
  createStaff: route({
    method: 'POST',
    path: '/users',
    access: 'superadmin',
    audit: { kind: 'change', name: 'users.createStaff' },
    body: createStaffUserBody,
    status: 201,
    reply: staffUser,
  }),
  list: route({ method: 'GET', path: '/users', access: 'admin', query: userListQuery, reply: userPage }),
  professions: route({ method: 'GET', path: '/users/professions', access: 'admin', reply: professionsResponse }),
  get: route({ method: 'GET', path: '/users/:id', access: 'admin', params: idParams, reply: userDetails }),
  update: route({
    method: 'PUT',
    path: '/users/:id',
    access: 'admin',
    audit: { kind: 'change', name: 'users.update' },
    params: idParams,
    body: updateUserBody,
    reply: userDetails,
  }),
  setDisplayName: route({
    method: 'PUT',
    path: '/users/:userId/display-name',
    access: 'user',
    audit: { kind: 'change', name: 'users.setDisplayName' },
    params: userIdParams,
    body: displayNameBody,
    status: 204,
    reply: z.null(),
  }),
  setMobileNumber: route({
    method: 'PUT',
    path: '/users/:userId/mobile-number',
    access: 'user',
    audit: { kind: 'change', name: 'users.setMobileNumber' },
    params: userIdParams,
    body: mobileNumberBody,
    status: 204,
    reply: z.null(),
  }),
  /** A superadmin clears a staff member's second factors (app, passkeys, recovery codes); they are told by email. */
  resetSecondFactor: route({
    method: 'POST',
    path: '/users/:id/mfa/reset',
    access: 'superadmin',
    audit: { kind: 'change', name: 'users.resetSecondFactor' },
    params: idParams,
    status: 204,
    reply: z.null(),
  }),
  assignments: route({
    method: 'GET',
    path: '/users/:id/assignments',
    access: 'admin',
    params: idParams,
    reply: z.array(assignment),
  }),
};
