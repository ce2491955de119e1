import {
  isParticipantRole,
  isStaffUserRole,
  type CreateStaffUserBody,
  type CurrentUser,
  type ParticipantUser,
  type StaffUser,
} from '@pss/contract';
import { hashPassword } from '../../lib/passwords.js';
import { validationError } from '../../lib/errors.js';
import { AppError } from '../../lib/errors.js';
import type { CurrentUserRow, UserRow, UsersRepository } from './users.repository.js';
import { isUniqueViolation } from '../../db/constraint-violations.js';
import { auditChanges, auditPasswordChanged } from '../audit/audit-scope.service.js';

export type { UserRow } from './users.repository.js';

/** The staff view of a user row: what `GET /users/me` and sign-in answer. */
export function toCurrentUser(user: CurrentUserRow): CurrentUser {
  if (!isStaffUserRole(user.role)) {
    throw new Error(`toCurrentUser called for a ${user.role}`);
  }
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    role: user.role === 'SUPERADMIN' ? 'superadmin' : 'admin',
    client_id: user.clientId,
  };
}

export function toStaffUser(user: UserRow): StaffUser {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    role: user.role === 'SUPERADMIN' ? 'SUPERADMIN' : 'ADMIN',
    client_id: user.clientId,
    created_at: user.createdAt.toISOString(),
  };
}

/** A signed-in participant, as their session answers. */
export function toParticipantUser(user: UserRow): ParticipantUser {
  if (!isParticipantRole(user.role)) throw new AppError('USER_NOT_FOUND');
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    role: user.role,
    has_password: Boolean(user.passwordHash),
  };
}

export function createUsersService(deps: {
  users: UsersRepository;
  /** Whether a client exists; a client administrator must belong to one. */
  clientExists: (clientId: string) => Promise<boolean>;
}) {
  return {
    /** A superadmin creates staff: client administrators (of one client) and superadmins. */
    async createStaffUser(input: CreateStaffUserBody & { email: string }): Promise<StaffUser> {
      if (await deps.users.findByEmail(input.email)) throw new AppError('EMAIL_ALREADY_EXISTS');
      if (input.role === 'ADMIN' && !(await deps.clientExists(input.client_id!))) {
        throw validationError([{ field: 'body.client_id', message: 'No client has this id.' }]);
      }
      const user = await deps.users
        .insert({
          email: input.email,
          passwordHash: await hashPassword(input.password),
          role: input.role,
          firstName: input.first_name,
          lastName: input.last_name,
          clientId: input.role === 'ADMIN' ? input.client_id! : null,
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new AppError('EMAIL_ALREADY_EXISTS');
          throw error;
        });
      const created = toStaffUser(user);
      auditChanges(null, created);
      auditPasswordChanged(false);
      return created;
    },

    /** For sign-in: the account behind an email, whatever its role. */
    findByEmail: (email: string) => deps.users.findByEmail(email),
    findById: (id: string) => deps.users.findById(id),
    findFirstByRole: (role: UserRow['role']) => deps.users.findFirstByRole(role),

    async setParticipantPassword(userId: string, password: string): Promise<void> {
      await deps.users.setParticipantPassword(userId, await hashPassword(password));
    },

    async getParticipant(userId: string): Promise<ParticipantUser> {
      const user = await deps.users.findById(userId);
      if (!user || !isParticipantRole(user.role)) throw new AppError('USER_NOT_FOUND');
      return toParticipantUser(user);
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
