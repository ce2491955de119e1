import { and, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { ParticipantFilter, ParticipantListQuery } from '@pss/contract';
import { syncAttempts } from '../../db/attempt-sync.js';
import type { Db } from '../../db/client.js';
import { importRows, projectParticipants, projects, users } from '../../db/schema/index.js';
import { countAll, escapeLike, orderByTerms, runPaged } from '../../lib/list-query.js';

/** One checked row of an import file, as it waits in staging. */
export type StagedRow = Omit<typeof importRows.$inferInsert, 'jobId'>;

export interface ConflictRow {
  line: number;
  code: string;
  message: string;
}

export type ParticipantRow = {
  userId: string;
  employeeId: string | null;
  salutation: string | null;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  profession: string | null;
  dataStatus: 'READY' | 'NOT_READY';
  archived: boolean;
  notes: string | null;
  createdAt: Date;
  /** Cases completed in the project (the list reads it; the export does not). */
  completedCases?: number;
};

const sortColumns = {
  name: projectParticipants.sortName,
  email: projectParticipants.email,
  added_at: projectParticipants.createdAt,
};

/** Rows as they are returned from a raw statement on either driver. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** A participant's progress in the project, from their UserSeasonRoundCases (qualified by hand: a raw subquery). */
function progressCondition(progress: 'NOT_STARTED' | 'IN_PROGRESS' | 'COMPLETE'): SQL {
  const mine = sql`u.user_id = "project_participants"."user_id" and u.project_id = "project_participants"."project_id"`;
  const begun = sql`exists (select 1 from user_season_round_cases u where ${mine} and u.status <> 'NOT_STARTED')`;
  const open = sql`exists (select 1 from user_season_round_cases u where ${mine} and u.status <> 'COMPLETE')`;
  const any = sql`exists (select 1 from user_season_round_cases u where ${mine})`;
  if (progress === 'NOT_STARTED') return sql`not ${begun}`;
  if (progress === 'COMPLETE') return sql`(${any} and not ${open})`;
  return sql`(${begun} and ${open})`;
}

export function createParticipantsRepository(db: Db) {
  function listCondition(projectId: string, search: string | undefined, filter: ParticipantFilter): SQL | undefined {
    return and(
      eq(projectParticipants.projectId, projectId),
      eq(projectParticipants.archived, filter.archived ?? false),
      filter.data_status ? eq(projectParticipants.dataStatus, filter.data_status) : undefined,
      filter.progress ? progressCondition(filter.progress) : undefined,
      search
        ? sql`(${projectParticipants.sortName} || ' ' || ${projectParticipants.email}) ilike ${`%${escapeLike(search.toLowerCase())}%`}`
        : undefined,
    );
  }

  /** Recounts a project's kept participant counts (after a change that touched many). */
  async function recount(executor: Pick<Db, 'execute'>, projectId: string): Promise<void> {
    await executor.execute(sql`
      update projects set
        active_participants = (select count(*) from project_participants where project_id = ${projectId} and not archived),
        archived_participants = (select count(*) from project_participants where project_id = ${projectId} and archived),
        not_ready_participants = (select count(*) from project_participants where project_id = ${projectId} and not archived and data_status = 'NOT_READY')
      where id = ${projectId}`);
  }

  return {
    /**
     * Stages a batch with one array per column (unnest), so a batch of any size is one
     * statement with 23 parameters rather than one parameter per value.
     */
    async stage(jobId: string, rows: StagedRow[]): Promise<void> {
      if (!rows.length) return;
      const column = <K extends keyof StagedRow>(key: K) => sql.param(rows.map((r) => r[key] ?? null));
      const text = (key: keyof StagedRow) => sql`${column(key)}::text[]`;
      await db.execute(sql`
        insert into import_rows (job_id, line, email, employee_id, role, profession, salutation, first_name, last_name,
          secondary_email, mobile_number, npi, practice_number, facility, specialty, manager_first_name, manager_last_name,
          manager_email, user_type, season_id, first_round, last_round, start_date)
        select ${jobId}::uuid, * from unnest(${column('line')}::int[], ${text('email')}, ${text('employeeId')}, ${text('role')},
          ${text('profession')}, ${text('salutation')}, ${text('firstName')}, ${text('lastName')}, ${text('secondaryEmail')},
          ${text('mobileNumber')}, ${text('npi')}, ${text('practiceNumber')}, ${text('facility')}, ${text('specialty')},
          ${text('managerFirstName')}, ${text('managerLastName')}, ${text('managerEmail')}, ${text('userType')},
          ${column('seasonId')}::uuid[], ${column('firstRound')}::smallint[], ${column('lastRound')}::smallint[],
          ${column('startDate')}::date[])`);
    },

    async clearStaged(jobId: string): Promise<void> {
      await db.delete(importRows).where(eq(importRows.jobId, jobId));
    },

    /**
     * Staged rows that would change a participant the import may not change, or take an
     * email that belongs to someone else. Set-based: one statement for any file size.
     */
    async conflicts(jobId: string, clientId: string, limit: number): Promise<ConflictRow[]> {
      const result = await db.execute(sql`
        select r.line,
          case
            when u.client_id is distinct from ${clientId} or u.role in ('ADMIN', 'SUPERADMIN') then 'EMAIL_ALREADY_EXISTS'
            when u.employee_id is distinct from r.employee_id then 'EMPLOYEE_ID_CHANGE_NOT_ALLOWED'
            when u.first_name <> r.first_name or u.last_name <> r.last_name then 'NAME_CHANGE_NOT_ALLOWED'
            else 'PROFESSION_CHANGE_NOT_ALLOWED'
          end as code,
          u.employee_id as existing_employee_id, u.first_name, u.last_name, u.profession
        from import_rows r join users u on u.email = r.email
        where r.job_id = ${jobId} and (
          u.client_id is distinct from ${clientId} or u.role in ('ADMIN', 'SUPERADMIN')
          or u.employee_id is distinct from r.employee_id
          or u.first_name <> r.first_name or u.last_name <> r.last_name
          or u.profession is distinct from r.profession)
        union all
        select r.line, 'EMAIL_CHANGE_NOT_ALLOWED', u.employee_id, u.first_name, u.last_name, u.email
        from import_rows r join users u on u.client_id = ${clientId} and u.employee_id = r.employee_id
        where r.job_id = ${jobId} and u.email <> r.email
        order by 1 limit ${limit}`);
      return rowsOf<{
        line: number;
        code: string;
        existing_employee_id: string | null;
        first_name: string;
        last_name: string;
        profession: string | null;
      }>(result).map((r) => ({
        line: Number(r.line),
        code: r.code,
        message: conflictMessage(Number(r.line), r.code, r),
      }));
    },

    /** Applies a checked NEW_USERS import: the client's new users, in no project. */
    async applyStagedUsers(jobId: string, clientId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.execute(sql`
          insert into users (email, role, first_name, last_name, client_id, employee_id, salutation, secondary_email,
            mobile_number, npi, practice_number, facility, specialty, profession, manager_first_name, manager_last_name,
            manager_email, user_type)
          select distinct on (r.email) r.email, r.role, r.first_name, r.last_name, ${clientId}, r.employee_id, r.salutation,
            r.secondary_email, r.mobile_number, r.npi, r.practice_number, r.facility, r.specialty, r.profession,
            r.manager_first_name, r.manager_last_name, r.manager_email, r.user_type
          from import_rows r where r.job_id = ${jobId}
          order by r.email, r.line
          on conflict (email) do nothing`);
        await tx.delete(importRows).where(eq(importRows.jobId, jobId));
      });
    },

    /** Applies a checked import in one transaction: users, assignments, participation, counts. */
    async applyStaged(jobId: string, projectId: string, clientId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.execute(sql`
          insert into users (email, role, first_name, last_name, client_id, employee_id, salutation, secondary_email,
            mobile_number, npi, practice_number, facility, specialty, profession, manager_first_name, manager_last_name,
            manager_email, user_type)
          select distinct on (r.email) r.email, r.role, r.first_name, r.last_name, ${clientId}, r.employee_id, r.salutation,
            r.secondary_email, r.mobile_number, r.npi, r.practice_number, r.facility, r.specialty, r.profession,
            r.manager_first_name, r.manager_last_name, r.manager_email, r.user_type
          from import_rows r where r.job_id = ${jobId}
          order by r.email, r.line
          on conflict (email) do nothing`);
        await tx.execute(sql`
          insert into participant_assignments (user_id, season_id, project_id, first_round, last_round, start_date)
          select u.id, r.season_id, ${projectId}::uuid, r.first_round, r.last_round, r.start_date
          from import_rows r join users u on u.email = r.email
          where r.job_id = ${jobId} and r.season_id is not null
          on conflict (user_id, season_id) do update set first_round = excluded.first_round,
            last_round = excluded.last_round, start_date = excluded.start_date, updated_at = now()`);
        // Data status is decided as each participation is written (READY once assigned), so
        // no second pass over the project's rows is needed.
        await tx.execute(sql`
          insert into project_participants (project_id, user_id, sort_name, email, data_status)
          select ${projectId}::uuid, u.id, lower(u.last_name || ' ' || u.first_name), u.email,
            case when bool_or(r.season_id is not null) then 'READY' else 'NOT_READY' end
          from import_rows r join users u on u.email = r.email
          where r.job_id = ${jobId}
          group by u.id
          on conflict (project_id, user_id) do update set data_status = 'READY'
            where project_participants.data_status = 'NOT_READY' and excluded.data_status = 'READY'`);
        await recount(tx, projectId);
        await tx.delete(importRows).where(eq(importRows.jobId, jobId));
      });
    },

    /**
     * A large import leaves pages the visibility map does not know yet (deep pages then read
     * the table instead of the index) and a GIN pending list to merge, until autovacuum
     * comes by. Run after the import has completed, outside any transaction.
     */
    async tidyAfterImport(): Promise<void> {
      await db.execute(sql`vacuum analyze project_participants`);
    },

    /** Brings the project's UserSeasonRoundCases up to date (before filtering by progress). */
    syncAttempts: (projectId: string) => syncAttempts(db, { projectId }),

    list(projectId: string, query: ParticipantListQuery, keptTotal: number | null) {
      const where = listCondition(projectId, query.search, query.filter);
      const order = orderByTerms(query.sort, sortColumns, projectParticipants.userId);
      return runPaged(
        query,
        (limit, offset) => {
          // Deferred join: page by the project's index, then read this page's users.
          const page = db
            .select({ userId: projectParticipants.userId })
            .from(projectParticipants)
            .where(where)
            .orderBy(...order)
            .limit(limit)
            .offset(offset)
            .as('page');
          return db
            .select({
              userId: users.id,
              employeeId: users.employeeId,
              salutation: users.salutation,
              firstName: users.firstName,
              lastName: users.lastName,
              email: users.email,
              role: users.role,
              profession: users.profession,
              dataStatus: projectParticipants.dataStatus,
              archived: projectParticipants.archived,
              notes: projectParticipants.notes,
              createdAt: projectParticipants.createdAt,
              // Only for this page's rows: cases the participant has completed in the project.
              completedCases: sql<number>`(select cast(count(*) as integer) from user_season_round_cases u
                where u.user_id = "project_participants"."user_id" and u.project_id = "project_participants"."project_id"
                  and u.status = 'COMPLETE')`,
            })
            .from(projectParticipants)
            .innerJoin(page, eq(page.userId, projectParticipants.userId))
            .innerJoin(users, eq(users.id, projectParticipants.userId))
            .where(eq(projectParticipants.projectId, projectId))
            .orderBy(...order) as Promise<ParticipantRow[]>;
        },
        // The kept count answers unsearched lists; a search or data filter counts what it narrows.
        async () => keptTotal ?? (await db.select({ n: countAll }).from(projectParticipants).where(where))[0]?.n ?? 0,
      );
    },

    /**
     * One page of an export in name order, continuing after the last row of the previous
     * page (keyset), so an export of 100,000 rows reads the name index once rather than
     * re-walking it page after page as OFFSET would.
     */
    async exportPage(
      projectId: string,
      search: string | undefined,
      filter: ParticipantFilter,
      after: { sortName: string; userId: string } | null,
      limit: number,
    ): Promise<(ParticipantRow & { sortName: string })[]> {
      return db
        .select({
          userId: users.id,
          employeeId: users.employeeId,
          salutation: users.salutation,
          firstName: users.firstName,
          lastName: users.lastName,
          email: users.email,
          role: users.role,
          profession: users.profession,
          dataStatus: projectParticipants.dataStatus,
          archived: projectParticipants.archived,
          notes: projectParticipants.notes,
          createdAt: projectParticipants.createdAt,
          sortName: projectParticipants.sortName,
        })
        .from(projectParticipants)
        .innerJoin(users, eq(users.id, projectParticipants.userId))
        .where(
          and(
            listCondition(projectId, search, filter),
            after
              ? sql`(${projectParticipants.sortName}, ${projectParticipants.userId}) > (${after.sortName}, ${after.userId}::uuid)`
              : undefined,
          ),
        )
        .orderBy(projectParticipants.sortName, projectParticipants.userId)
        .limit(limit);
    },

    /** Ids of a selection: given ids within the project, or all matching except some. */
    async selectIds(
      projectId: string,
      selection: { ids: string[] } | { except: string[]; search?: string; filter: ParticipantFilter },
    ): Promise<string[]> {
      const where =
        'ids' in selection
          ? and(eq(projectParticipants.projectId, projectId), inArray(projectParticipants.userId, selection.ids))
          : and(
              listCondition(projectId, selection.search, selection.filter),
              selection.except.length ? notInArray(projectParticipants.userId, selection.except) : undefined,
            );
      const rows = await db.select({ id: projectParticipants.userId }).from(projectParticipants).where(where);
      return rows.map((r) => r.id);
    },

    async setArchived(projectId: string, userIds: string[], archived: boolean, at: Date): Promise<number> {
      if (!userIds.length) return 0;
      return db.transaction(async (tx) => {
        let updated = 0;
        for (let i = 0; i < userIds.length; i += 1000) {
          const rows = await tx
            .update(projectParticipants)
            .set({ archived, archivedAt: archived ? at : null })
            .where(
              and(
                eq(projectParticipants.projectId, projectId),
                inArray(projectParticipants.userId, userIds.slice(i, i + 1000)),
                eq(projectParticipants.archived, !archived),
              ),
            )
            .returning({ id: projectParticipants.userId });
          updated += rows.length;
        }
        await recount(tx, projectId);
        return updated;
      });
    },

    async setNotes(projectId: string, userId: string, notes: string | null): Promise<boolean> {
      const rows = await db
        .update(projectParticipants)
        .set({ notes })
        .where(and(eq(projectParticipants.projectId, projectId), eq(projectParticipants.userId, userId)))
        .returning({ id: projectParticipants.userId });
      return rows.length === 1;
    },

    async keptCounts(projectId: string) {
      const [row] = await db
        .select({
          active: projects.activeParticipants,
          archived: projects.archivedParticipants,
          notReady: projects.notReadyParticipants,
        })
        .from(projects)
        .where(eq(projects.id, projectId));
      return row;
    },
  };
}
export type ParticipantsRepository = ReturnType<typeof createParticipantsRepository>;

function conflictMessage(
  line: number,
  code: string,
  existing: { existing_employee_id: string | null; first_name: string; last_name: string },
): string {
  switch (code) {
    case 'EMAIL_ALREADY_EXISTS':
      return `Line ${line}: this email belongs to another account and cannot be imported here.`;
    case 'EMPLOYEE_ID_CHANGE_NOT_ALLOWED':
      return `Line ${line}: this email already belongs to user ID ${existing.existing_employee_id ?? '(none)'}; an import cannot change a user ID.`;
    case 'NAME_CHANGE_NOT_ALLOWED':
      return `Line ${line}: this participant is ${existing.first_name} ${existing.last_name}; an import cannot change a name.`;
    case 'EMAIL_CHANGE_NOT_ALLOWED':
      return `Line ${line}: user ID ${existing.existing_employee_id} already has another email; an import cannot change an email.`;
    default:
      return `Line ${line}: an import cannot change a participant's profession.`;
  }
}
