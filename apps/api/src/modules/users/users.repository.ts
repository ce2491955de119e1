import { and, eq, inArray, sql } from 'drizzle-orm';
import { participantRoles, type UserListQuery } from '@pss/contract';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';
import type { Db } from '../../db/client.js';
import { updateParticipantSearchOfUser } from '../../db/participant-search.js';
import {
  clients,
  importJobs,
  participantAssignments,
  projectParticipants,
  projects,
  seasons,
  users,
} from '../../db/schema/index.js';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
/** The columns the signed-in staff member's description is made of. */
export type CurrentUserRow = Pick<UserRow, 'id' | 'email' | 'firstName' | 'lastName' | 'role' | 'clientId'>;

export function createUsersRepository(db: Db) {
  return {
    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
      return row;
    },
    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },
    async findFirstByRole(role: UserRow['role']): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.role, role)).orderBy(users.createdAt).limit(1);
      return row;
    },
    /** A participant's own password; one who came in by link (HALFUSER) becomes a USER. */
    async setParticipantPassword(id: string, passwordHash: string): Promise<void> {
      await db
        .update(users)
        .set({
          passwordHash,
          role: sql`case when ${users.role} = 'HALFUSER' then 'USER' else ${users.role} end`,
          updatedAt: new Date(),
        })
        .where(eq(users.id, id));
    },
    async insert(user: NewUserRow): Promise<UserRow> {
      const [row] = await db
        .insert(users)
        .values({ ...user, email: user.email.toLowerCase() })
        .returning();
      if (!row) throw new Error('insert returned no row');
      return row;
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;

export type UserWithClient = UserRow & { clientName: string | null };

const userSortColumns = {
  last_name: sql`lower(${users.lastName})`,
  first_name: sql`lower(${users.firstName})`,
  email: users.email,
  role: users.role,
  created_at: users.createdAt,
};

/** Reads and writes for User Management. */
export function createUserManagementRepository(db: Db) {
  return {
    list(query: UserListQuery, scope: { clientId: string | null; participantsOnly: boolean }) {
      const roles =
        query.filter.role === undefined
          ? undefined
          : Array.isArray(query.filter.role)
            ? query.filter.role
            : [query.filter.role];
      const projectId = query.filter.project_id;
      const where = and(
        searchCondition(query.search, [users.firstName, users.lastName, users.email, users.employeeId]),
        scope.clientId ? eq(users.clientId, scope.clientId) : undefined,
        scope.participantsOnly ? inArray(users.role, [...participantRoles]) : undefined,
        roles ? inArray(users.role, roles) : undefined,
        query.filter.client_id ? eq(users.clientId, query.filter.client_id) : undefined,
        projectId
          ? sql`exists (select 1 from ${projectParticipants} pp where pp.user_id = "users"."id" and pp.project_id = ${projectId}
              ${query.filter.status ? sql`and pp.archived = ${query.filter.status === 'archived'}` : sql``})`
          : undefined,
      );
      const order = orderByTerms(query.sort, userSortColumns, users.id);
      return runPaged(
        query,
        (limit, offset) => {
          const page = db
            .select({ id: users.id })
            .from(users)
            .where(where)
            .orderBy(...order)
            .limit(limit)
            .offset(offset)
            .as('page');
          return db
            .select({ user: users, clientName: clients.name })
            .from(users)
            .innerJoin(page, eq(page.id, users.id))
            .leftJoin(clients, eq(clients.id, users.clientId))
            .orderBy(...order)
            .then((rows) => rows.map((r): UserWithClient => ({ ...r.user, clientName: r.clientName })));
        },
        async () => (await db.select({ n: countAll }).from(users).where(where))[0]?.n ?? 0,
      );
    },

    async findWithClient(id: string): Promise<UserWithClient | undefined> {
      const [row] = await db
        .select({ user: users, clientName: clients.name })
        .from(users)
        .leftJoin(clients, eq(clients.id, users.clientId))
        .where(eq(users.id, id));
      return row ? { ...row.user, clientName: row.clientName } : undefined;
    },

    async projectsOf(userId: string) {
      return db
        .select({
          projectId: projects.id,
          projectName: projects.name,
          archived: projectParticipants.archived,
          notes: projectParticipants.notes,
          dataStatus: projectParticipants.dataStatus,
        })
        .from(projectParticipants)
        .innerJoin(projects, eq(projects.id, projectParticipants.projectId))
        .where(eq(projectParticipants.userId, userId))
        .orderBy(sql`lower(${projects.name})`);
    },

    async assignmentsOf(userId: string) {
      return db
        .select({
          projectId: projects.id,
          projectName: projects.name,
          seasonId: seasons.id,
          seasonName: seasons.name,
          firstRound: participantAssignments.firstRound,
          lastRound: participantAssignments.lastRound,
          startDate: participantAssignments.startDate,
        })
        .from(participantAssignments)
        .innerJoin(seasons, eq(seasons.id, participantAssignments.seasonId))
        .innerJoin(projects, eq(projects.id, participantAssignments.projectId))
        .where(eq(participantAssignments.userId, userId))
        .orderBy(sql`lower(${projects.name})`, seasons.position);
    },

    /** Whether an import is waiting or running for any project the user takes part in. */
    async importRunningFor(userId: string): Promise<boolean> {
      const rows = await db
        .select({ id: importJobs.id })
        .from(importJobs)
        .innerJoin(projectParticipants, eq(projectParticipants.projectId, importJobs.scopeId))
        .where(
          and(
            eq(projectParticipants.userId, userId),
            eq(importJobs.kind, 'PARTICIPANTS'),
            inArray(importJobs.state, ['NOT_STARTED', 'RUNNING']),
          ),
        )
        .limit(1);
      return rows.length > 0;
    },

    /** Updates a user and the copies of their sort keys in their projects, together. */
    async update(id: string, values: Partial<typeof users.$inferInsert>, at: Date): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ ...values, updatedAt: at })
          .where(eq(users.id, id))
          .returning();
        if (row) {
          await tx
            .update(projectParticipants)
            .set({ sortName: `${row.lastName} ${row.firstName}`.toLowerCase(), email: row.email })
            .where(eq(projectParticipants.userId, id));
          await updateParticipantSearchOfUser(tx, id);
        }
      });
    },
  };
}
export type UserManagementRepository = ReturnType<typeof createUserManagementRepository>;
