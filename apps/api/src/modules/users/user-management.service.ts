import {
  fieldNames,
  participantFields,
  isParticipantRole,
  professionLabels,
  professions,
  type Assignment,
  type Paged,
  type UpdateUserBody,
  type UserDetails,
  type UserListQuery,
  type UserSummary,
} from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import { hashPassword } from '../../lib/passwords.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { AuthService } from '../auth/auth.service.js';
import type { UserManagementRepository, UserWithClient, UsersRepository } from './users.repository.js';
import { auditChanges, auditClient, auditPasswordChanged } from '../audit/audit-scope.service.js';
import { rowFields, wireFields } from '../../lib/field-columns.js';

/** A participant's details (participant-fields.ts), each in the users table's column of its name in camelCase. */
const detailNames = fieldNames(participantFields);

function toSummary(user: UserWithClient): UserSummary {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    role: user.role,
    client_id: user.clientId,
    client_name: user.clientName,
    employee_id: user.employeeId,
    profession: user.profession,
    created_at: user.createdAt.toISOString(),
  };
}

/**
 * User Management: superadmins see and edit everyone (and reset staff passwords); a
 * client administrator sees and edits only participants of their own client. Anyone else
 * is "not found" to them.
 */
export function createUserManagementService(deps: {
  repository: UserManagementRepository;
  users: Pick<UsersRepository, 'findByEmail'>;
  /** Ends a user's sessions and tells their old address when their email or password changes. */
  sessions: Pick<AuthService, 'endOtherSessions' | 'notifyEmailChanged'>;
  clock: Clock;
}) {
  const { repository } = deps;

  async function requireVisible(caller: AccessClaims, id: string): Promise<UserWithClient> {
    const user = await repository.findWithClient(id);
    if (!user) throw new AppError('USER_NOT_FOUND');
    if (caller.role !== 'SUPERADMIN' && (!isParticipantRole(user.role) || user.clientId !== caller.clientId)) {
      throw new AppError('USER_NOT_FOUND');
    }
    if (user.clientId) auditClient(user.clientId);
    return user;
  }

  async function refuseWhileImporting(userId: string): Promise<void> {
    if (await repository.importRunningFor(userId)) throw new AppError('USER_UPDATE_BLOCKED_BY_IMPORT');
  }

  async function details(user: UserWithClient): Promise<UserDetails> {
    const projects = await repository.projectsOf(user.id);
    return {
      ...toSummary(user),
      salutation: user.salutation,
      ...wireFields(detailNames, user),
      projects: projects.map((p) => ({
        project_id: p.projectId,
        project_name: p.projectName,
        archived: p.archived,
        notes: p.notes,
        data_status: p.dataStatus,
      })),
    };
  }

  return {
    async list(caller: AccessClaims, query: UserListQuery): Promise<Paged<UserSummary>> {
      const isSuperadmin = caller.role === 'SUPERADMIN';
      const page = await repository.list(query, {
        clientId: isSuperadmin ? null : caller.clientId,
        participantsOnly: !isSuperadmin,
      });
      return { ...page, items: page.items.map(toSummary) };
    },

    async get(caller: AccessClaims, id: string): Promise<UserDetails> {
      return details(await requireVisible(caller, id));
    },

    async update(caller: AccessClaims, id: string, input: UpdateUserBody & { email: string }): Promise<UserDetails> {
      const user = await requireVisible(caller, id);
      if (input.password !== undefined && (caller.role !== 'SUPERADMIN' || isParticipantRole(user.role))) {
        throw new AppError('FORBIDDEN', {
          message: 'Only a superadmin can set a password, and only for staff accounts.',
        });
      }
      await refuseWhileImporting(id);
      const owner = await deps.users.findByEmail(input.email);
      if (owner && owner.id !== id) throw new AppError('EMAIL_ALREADY_EXISTS');
      await repository.update(
        id,
        {
          email: input.email,
          firstName: input.first_name,
          lastName: input.last_name,
          salutation: input.salutation ?? null,
          profession: input.profession ?? null,
          ...rowFields(detailNames, input),
          ...(input.password ? { passwordHash: await hashPassword(input.password) } : {}),
        },
        deps.clock.now(),
      );
      const emailChanged = user.email !== input.email.toLowerCase();
      if (emailChanged || input.password) {
        // Whoever held the account's sessions may no longer own it; the editor keeps their own.
        await deps.sessions.endOtherSessions(id, caller.userId === id ? (caller.sessionId ?? null) : null);
      }
      if (emailChanged) deps.sessions.notifyEmailChanged(user, user.email, input.email.toLowerCase());
      const after = await details((await repository.findWithClient(id))!);
      auditChanges(await details(user), after);
      if (input.password) auditPasswordChanged(Boolean(user.passwordHash));
      return after;
    },

    async setField(
      caller: AccessClaims,
      id: string,
      field: 'displayName' | 'mobileNumber',
      value: string | null,
    ): Promise<void> {
      // A participant corrects only their own (a survey's info review); staff as for every edit.
      if (isParticipantRole(caller.role)) {
        if (caller.userId !== id) throw new AppError('USER_NOT_FOUND');
      } else await requireVisible(caller, id);
      await refuseWhileImporting(id);
      await repository.update(id, { [field]: value?.trim() || null }, deps.clock.now());
    },

    async assignments(caller: AccessClaims, id: string): Promise<Assignment[]> {
      await requireVisible(caller, id);
      const rows = await repository.assignmentsOf(id);
      return rows.map((r) => ({
        project_id: r.projectId,
        project_name: r.projectName,
        season_id: r.seasonId,
        season_name: r.seasonName,
        rounds: Array.from({ length: r.lastRound - r.firstRound + 1 }, (_, i) => r.firstRound + i),
        start_date: r.startDate,
      }));
    },

    professions: () => professions.map((code) => ({ code, label: professionLabels[code] })),
  };
}
export type UserManagementService = ReturnType<typeof createUserManagementService>;
