import type { CurrentUser } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { UserRow, UsersRepository } from './users.repository.js';

export type { UserRow } from './users.repository.js';

/** The staff view of a user row: what `GET /users/me` and sign-in answer. */
export function toCurrentUser(user: UserRow): CurrentUser {
  if (user.role !== 'SUPERADMIN' && user.role !== 'ADMIN') {
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

export function createUsersService(deps: { users: UsersRepository }) {
  return {
    /** For sign-in: the account behind an email, whatever its role. */
    findByEmail: (email: string) => deps.users.findByEmail(email),
    findById: (id: string) => deps.users.findById(id),
    findFirstByRole: (role: UserRow['role']) => deps.users.findFirstByRole(role),

    async getCurrentStaffUser(userId: string): Promise<CurrentUser> {
      const user = await deps.users.findById(userId);
      if (!user) throw new AppError('USER_NOT_FOUND');
      return toCurrentUser(user);
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
