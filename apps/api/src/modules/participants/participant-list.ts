import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { EmailSuppressionReason, ParticipantListQuery, ParticipantSortField } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { projectParticipants, projects, users } from '../../db/schema/index.js';
import { countAll, orderByTerms, pageOffset, runPaged } from '../../lib/list-query.js';
import { createPageMarks, MARK_EVERY, type MarkableSort, type PageStart } from './page-marks.js';
import { participantListCondition } from './participant-list-condition.js';

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
  /** Why no email (or no reminder of this project) goes to them; null when emails go (the list reads it). */
  emailState?: EmailSuppressionReason | null;
};

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

const markableColumns: Record<ParticipantSortField, Omit<MarkableSort, 'direction'>> = {
  name: { column: 'project_participants.sort_name', type: 'text' },
  email: { column: 'project_participants.email', type: 'text' },
  added_at: { column: 'project_participants.created_at', type: 'timestamptz' },
};

/** The participants list of a project: its head, then its pages. */
export function createParticipantList(db: Db) {
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
    const { progress, email_state: emailState } = query.filter;
    if (offset < MARK_EVERY || !where || !term || more.length || query.search || progress || emailState) return plain;
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

  return {
    /** A list page's project (see ParticipantListHead); undefined when there is no such project. */
    async listHead(projectId: string): Promise<ParticipantListHead | undefined> {
      const [row] = await (headStatement ??= prepareHead()).execute({ projectId });
      if (!row) return undefined;
      const { searchStale, ...head } = row;
      return { ...head, searchIndexed: !searchStale };
    },

    /** A page of the list, with its project's head as listHead read it (`keptTotal`: the total when it is known). */
    async list(projectId: string, query: ParticipantListQuery, head: ParticipantListHead, keptTotal: number | null) {
      const where = await participantListCondition(db, projectId, query.search, query.filter, head.searchIndexed);
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
            // Only for this page's rows: the address's suppression, for good first, else this project's unsubscribe.
            emailState: sql<EmailSuppressionReason | null>`(select s.reason from email_suppressions s
              where s.email = lower(${users.email})
                and (s.project_id is null or s.project_id = "project_participants"."project_id")
              order by s.project_id nulls first limit 1)`,
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
  };
}
