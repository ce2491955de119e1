import { and, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { ParticipantFilter, ParticipantListQuery, ParticipantSortField } from '@pss/contract';
import { syncAttempts } from '../../db/attempt-sync.js';
import type { Db } from '../../db/client.js';
import {
  isParticipantSearchIndexed,
  participantSearchCondition,
  projectsWithStaleSearch,
  refreshParticipantSearch,
} from '../../db/participant-search.js';
import { participantAssignments, projectParticipants, projects, seasons, users } from '../../db/schema/index.js';
import { recountParticipants } from './import-writes.js';
import { createPageMarks, MARK_EVERY, type MarkableSort, type PageStart } from './page-marks.js';
import { countAll, orderByTerms, pageOffset, runPaged } from '../../lib/list-query.js';

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

/** A participant as the export writes them: every detail the import reads. */
export type ExportRow = ParticipantRow & {
  sortName: string;
  secondaryEmail: string | null;
  mobileNumber: string | null;
  npi: string | null;
  practiceNumber: string | null;
  facility: string | null;
  specialty: string | null;
  managerFirstName: string | null;
  managerLastName: string | null;
  managerEmail: string | null;
  userType: string | null;
};

export interface ExportAssignment {
  userId: string;
  season: string;
  firstRound: number;
  lastRound: number;
  startDate: string;
}

/**
 * What a list page needs of its project, read in one statement before the page: whose
 * project it is (the access check), its kept counts (the total of an unsearched list),
 * whether its search rows may be used, and its participants' version (deep pages' marks).
 * Each was a statement of its own.
 */
export interface ParticipantListHead {
  clientId: string;
  active: number;
  archived: number;
  notReady: number;
  searchIndexed: boolean;
  version: number;
}

const sortColumns = {
  name: projectParticipants.sortName,
  email: projectParticipants.email,
  added_at: projectParticipants.createdAt,
};

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

const markableColumns: Record<ParticipantSortField, Omit<MarkableSort, 'direction'>> = {
  name: { column: 'project_participants.sort_name', type: 'text' },
  email: { column: 'project_participants.email', type: 'text' },
  added_at: { column: 'project_participants.created_at', type: 'timestamptz' },
};

export function createParticipantsRepository(db: Db) {
  const marks = createPageMarks(db);
  /**
   * The list head's statement (see ParticipantListHead), built once and prepared by name:
   * it runs before every page, and PostgreSQL then parses and plans it once per connection.
   */
  let headStatement: ReturnType<typeof prepareHead> | undefined;
  const prepareHead = () =>
    db
      .select({
        clientId: projects.clientId,
        active: projects.activeParticipants,
        archived: projects.archivedParticipants,
        notReady: projects.notReadyParticipants,
        searchStale: projects.participantSearchStale,
        version: projects.participantsVersion,
      })
      .from(projects)
      .where(eq(projects.id, sql.placeholder('projectId')))
      .prepare('participants_list_head');

  /**
   * Where a page of the list starts (page-marks.ts): from a mark for deep pages of the
   * lists that can be long (no search or progress filter, one sort column), else by OFFSET.
   */
  async function pageStart(
    projectId: string,
    query: ParticipantListQuery,
    where: SQL | undefined,
    offset: number,
    version: number,
  ): Promise<PageStart> {
    const plain: PageStart = { after: undefined, offset, version: null };
    const [term, ...more] = query.sort;
    if (offset < MARK_EVERY || !where || !term || more.length || query.search || query.filter.progress) return plain;
    const filter = query.filter;
    return marks.start({
      key: [projectId, filter.archived ?? false, filter.data_status ?? '', term.field, term.direction].join('|'),
      projectId,
      where,
      sort: { ...markableColumns[term.field], direction: term.direction },
      offset,
      version,
    });
  }

  /**
   * The list's rows. A search uses the project's search rows when they are up to date:
   * `searchIndexed` when the caller has read it already (a list page's head), else asked here.
   */
  async function listCondition(
    projectId: string,
    search: string | undefined,
    filter: ParticipantFilter,
    searchIndexed?: boolean,
  ): Promise<SQL | undefined> {
    return and(
      eq(projectParticipants.projectId, projectId),
      eq(projectParticipants.archived, filter.archived ?? false),
      filter.data_status ? eq(projectParticipants.dataStatus, filter.data_status) : undefined,
      filter.progress ? progressCondition(filter.progress) : undefined,
      search
        ? participantSearchCondition(
            projectId,
            search,
            searchIndexed ?? (await isParticipantSearchIndexed(db, projectId)),
          )
        : undefined,
    );
  }

  return {
    /** Brings the search rows of projects whose search is stale up to date (see db/participant-search.ts). */
    async refreshStaleSearch(): Promise<void> {
      // Claimed per project: every process's worker runs this, one of them refreshes each.
      for (const projectId of await projectsWithStaleSearch(db)) {
        await refreshParticipantSearch(db, projectId, { claim: true });
      }
    },

    /**
     * A large import leaves pages the visibility map does not know yet (deep pages then read
     * the table instead of the index) and a GIN pending list to merge, until autovacuum
     * comes by. Run after the import has completed, outside any transaction.
     */
    async tidyAfterImport(): Promise<void> {
      await db.execute(sql`vacuum analyze project_participants`);
      await db.execute(sql`vacuum analyze participant_search`);
      // Fresh statistics for the next import's plans (the embedded database has no autovacuum).
      await db.execute(sql`analyze users`);
      await db.execute(sql`analyze participant_assignments`);
    },

    /** Brings the project's UserSeasonRoundCases up to date (before filtering by progress). */
    syncAttempts: (projectId: string) => syncAttempts(db, { projectId }),

    /** A list page's project (see ParticipantListHead); undefined when there is no such project. */
    async listHead(projectId: string): Promise<ParticipantListHead | undefined> {
      const [row] = await (headStatement ??= prepareHead()).execute({ projectId });
      if (!row) return undefined;
      const { searchStale, ...head } = row;
      return { ...head, searchIndexed: !searchStale };
    },

    /** A page of the list, with its project's head as listHead read it (`keptTotal`: the total when it is known). */
    async list(projectId: string, query: ParticipantListQuery, head: ParticipantListHead, keptTotal: number | null) {
      const where = await listCondition(projectId, query.search, query.filter, head.searchIndexed);
      const order = orderByTerms(query.sort, sortColumns, projectParticipants.userId);
      // A search counts its matches in the page's own statement (a window over the matches
      // the page sorts anyway): the trigram index is read once, one statement instead of two.
      // Searched pages always start by OFFSET (no marks), so the window counts every match.
      const countWithPage = keptTotal === null && Boolean(query.search);
      const readPage = async (limit: number, start: PageStart) => {
        // Deferred join: page by the project's index, then read this page's users.
        const page = db
          .select({
            userId: projectParticipants.userId,
            total: (countWithPage ? sql<number>`cast(count(*) over () as integer)` : sql<null>`null`).as('total'),
          })
          .from(projectParticipants)
          .where(and(where, start.after))
          .orderBy(...order)
          .limit(limit)
          .offset(start.offset)
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
            // Read with the page, to tell whether the participants changed since its mark.
            version: sql<string>`(select participants_version from projects where id = ${projectId})`,
            total: page.total,
          })
          .from(projectParticipants)
          .innerJoin(page, eq(page.userId, projectParticipants.userId))
          .innerJoin(users, eq(users.id, projectParticipants.userId))
          .where(eq(projectParticipants.projectId, projectId))
          .orderBy(...order);
      };
      const countMatches = async () =>
        (await db.select({ n: countAll }).from(projectParticipants).where(where))[0]?.n ?? 0;
      if (countWithPage) {
        const offset = pageOffset(query);
        const rows = await readPage(query.limit, { after: undefined, offset, version: null });
        // A page past the last match has no row to carry the count: counted apart (rare).
        const total = rows.length ? Number(rows[0]!.total) : offset === 0 ? 0 : await countMatches();
        const items = rows.map(({ version: _version, total: _total, ...row }) => row as ParticipantRow);
        return { items, total, page: query.page, limit: query.limit };
      }
      return runPaged(
        query,
        async (limit, offset) => {
          const plain: PageStart = { after: undefined, offset, version: null };
          const start = await pageStart(projectId, query, where, offset, head.version).catch(() => plain);
          let rows = await readPage(limit, start);
          // The participants changed between the mark and the page (or the page is past the end): by OFFSET.
          if (start.version !== null && (rows.length === 0 || Number(rows[0]!.version) !== start.version)) {
            rows = await readPage(limit, plain);
          }
          return rows.map(({ version: _version, total: _total, ...row }) => row as ParticipantRow);
        },
        // The kept count answers unsearched lists; a data filter counts what it narrows.
        async () => keptTotal ?? (await countMatches()),
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
    ): Promise<ExportRow[]> {
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
          secondaryEmail: users.secondaryEmail,
          mobileNumber: users.mobileNumber,
          npi: users.npi,
          practiceNumber: users.practiceNumber,
          facility: users.facility,
          specialty: users.specialty,
          managerFirstName: users.managerFirstName,
          managerLastName: users.managerLastName,
          managerEmail: users.managerEmail,
          userType: users.userType,
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
            await listCondition(projectId, search, filter),
            after
              ? sql`(${projectParticipants.sortName}, ${projectParticipants.userId}) > (${after.sortName}, ${after.userId}::uuid)`
              : undefined,
          ),
        )
        .orderBy(projectParticipants.sortName, projectParticipants.userId)
        .limit(limit);
    },

    /** The assignments of some of a project's participants (an export page's), in season order. */
    async exportAssignments(projectId: string, userIds: string[]): Promise<ExportAssignment[]> {
      if (!userIds.length) return [];
      return db
        .select({
          userId: participantAssignments.userId,
          season: seasons.name,
          firstRound: participantAssignments.firstRound,
          lastRound: participantAssignments.lastRound,
          startDate: participantAssignments.startDate,
        })
        .from(participantAssignments)
        .innerJoin(seasons, eq(seasons.id, participantAssignments.seasonId))
        .where(and(eq(participantAssignments.projectId, projectId), inArray(participantAssignments.userId, userIds)))
        .orderBy(participantAssignments.userId, seasons.position);
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
              await listCondition(projectId, selection.search, selection.filter),
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
        await recountParticipants(tx, projectId);
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
  };
}
export type ParticipantsRepository = ReturnType<typeof createParticipantsRepository>;
