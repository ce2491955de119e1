import {
  PARTICIPANT_OPTIONAL_COLUMNS,
  type Participant,
  type ParticipantFilter,
  type ParticipantListQuery,
  type Paged,
  type ImportJob,
} from '@pss/contract';
import { AppError, validationError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Cell, Table } from '../../lib/table-writer.js';
import type { StoredUpload } from '../../lib/uploads.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ImportOutcome, ImportRunContext, ImportsService } from '../imports/imports.service.js';
import { assertProjectVisible, type ProjectsService } from '../projects/projects.service.js';
import { visibleClientId, type ClientsService } from '../clients/clients.service.js';
import { importParticipants, type ImportDatabase } from './participant-import.js';
import { PARTICIPANT_ALL_COLUMNS } from './participant-rows.js';
import type { ExportAssignment, ParticipantRow, ParticipantsRepository } from './participants.repository.js';

function toParticipant(row: ParticipantRow): Participant {
  return {
    user_id: row.userId,
    employee_id: row.employeeId,
    salutation: row.salutation,
    first_name: row.firstName,
    last_name: row.lastName,
    email: row.email,
    role: row.role as Participant['role'],
    profession: row.profession as Participant['profession'],
    data_status: row.dataStatus,
    archived: row.archived,
    notes: row.notes,
    added_at: row.createdAt.toISOString(),
    completed_cases: row.completedCases ?? 0,
    email_state: row.emailState ?? null,
  };
}

const EXPORT_PAGE = 1000;
/** The export's columns after the import's: the participant's state in the project. */
const EXPORT_PROJECT_COLUMNS = ['data_status', 'archived', 'notes', 'added_at'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export { PARTICIPANT_EXAMPLE_CSV } from './participant-example.js';

export function createParticipantsService(deps: {
  participants: ParticipantsRepository;
  projects: Pick<ProjectsService, 'requireVisible' | 'importTarget'>;
  imports: Pick<ImportsService, 'enqueue' | 'latest' | 'isRunning' | 'latestBy'>;
  clients: Pick<ClientsService, 'requireVisible'>;
  /** Where imports write (they run their own transactions; see participant-import.ts). */
  importDatabase: ImportDatabase;
  clock: Clock;
}) {
  const { participants } = deps;

  async function refuseWhileImporting(
    projectId: string,
    code: 'USER_ARCHIVE_BLOCKED_BY_IMPORT' | 'USER_UNARCHIVE_BLOCKED_BY_IMPORT' | 'USER_UPDATE_BLOCKED_BY_IMPORT',
  ) {
    if (await deps.imports.isRunning('PARTICIPANTS', projectId)) throw new AppError(code);
  }

  function parseIds(usersIds: string): string[] | 'all' {
    if (usersIds === 'all') return 'all';
    const ids = usersIds
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    const bad = ids.filter((id) => !UUID.test(id));
    if (!ids.length || bad.length)
      throw validationError([{ field: 'params.usersIds', message: 'Give comma-separated user ids, or "all".' }]);
    return ids;
  }

  return {
    async upload(caller: AccessClaims, projectId: string, upload: StoredUpload): Promise<ImportJob> {
      await deps.projects.requireVisible(caller, projectId);
      return deps.imports.enqueue({
        kind: 'PARTICIPANTS',
        scopeId: projectId,
        createdBy: caller.userId,
        fileName: upload.fileName,
        file: { key: upload.key },
      });
    },

    /** The latest import of a kind into a project (participants by default; elements too). */
    async latestImport(
      caller: AccessClaims,
      projectId: string,
      kind: 'PARTICIPANTS' | 'ANSWER_TAGS' | 'SUMMARY' = 'PARTICIPANTS',
    ): Promise<ImportJob | null> {
      await deps.projects.requireVisible(caller, projectId);
      return deps.imports.latest(kind, projectId);
    },

    /** New users of a client, in no project yet (import kind NEW_USERS). */
    async uploadNewUsers(caller: AccessClaims, clientId: string | undefined, upload: StoredUpload): Promise<ImportJob> {
      const target = clientId ?? visibleClientId(caller);
      if (!target)
        throw validationError([{ field: 'querystring.client_id', message: 'Say which client the users belong to.' }]);
      await deps.clients.requireVisible(caller, target);
      return deps.imports.enqueue({
        kind: 'NEW_USERS',
        scopeId: target,
        createdBy: caller.userId,
        fileName: upload.fileName,
        file: { key: upload.key },
      });
    },

    /** The latest import of one project of one client (404 when the project is not the client's). */
    async latestImportOf(caller: AccessClaims, clientId: string, projectId: string): Promise<ImportJob | null> {
      const project = await deps.projects.requireVisible(caller, projectId);
      if (project.clientId !== clientId) throw new AppError('PROJECT_NOT_FOUND');
      return deps.imports.latest('PARTICIPANTS', projectId);
    },

    /** The latest import a staff member started; an administrator may ask only about their own. */
    async latestImportBy(caller: AccessClaims, userId: string): Promise<ImportJob | null> {
      if (caller.role !== 'SUPERADMIN' && caller.userId !== userId) throw new AppError('USER_NOT_FOUND');
      return deps.imports.latestBy(userId);
    },

    /** The NEW_USERS import runner: the participant file without assignments. */
    async runNewUsersImport(context: ImportRunContext): Promise<ImportOutcome> {
      return importParticipants({
        openStream: context.openStream,
        target: { projectId: null, clientId: context.job.scopeId!, seasons: [] },
        database: deps.importDatabase,
        reportProgress: context.reportProgress,
      });
    },

    /** Catches up projects whose participant search lags behind an import. */
    refreshStaleSearch: () => participants.refreshStaleSearch(),

    /** The PARTICIPANTS import runner. */
    async runImport(context: ImportRunContext): Promise<ImportOutcome> {
      const target = await deps.projects.importTarget(context.job.scopeId!);
      const outcome = await importParticipants({
        openStream: context.openStream,
        target,
        database: deps.importDatabase,
        reportProgress: context.reportProgress,
      });
      if (outcome.errors.length === 0) {
        context.afterComplete(async () => {
          // The import left its project's search stale (see db/participant-search.ts).
          await participants.refreshStaleSearch();
          if (outcome.total >= 1000) await participants.tidyAfterImport();
        });
      }
      return outcome;
    },

    async list(caller: AccessClaims, projectId: string, query: ParticipantListQuery): Promise<Paged<Participant>> {
      // The project's client (for the access check) comes with its kept counts, in one
      // statement: the same rule as requireVisible, one round trip fewer per page.
      const head = await participants.listHead(projectId);
      assertProjectVisible(caller, head);
      // Unsearched lists take their total from the project's kept counts.
      let keptTotal: number | null = null;
      const dataStatus = query.filter.data_status;
      // Progress is read from the participants' cases: bring them up to date first.
      if (query.filter.progress) await participants.syncAttempts(projectId);
      const narrowed = query.search || query.filter.progress || query.filter.email_state;
      if (!narrowed && (!dataStatus || !query.filter.archived)) {
        if (query.filter.archived) keptTotal = head.archived;
        else if (dataStatus === 'NOT_READY') keptTotal = head.notReady;
        else if (dataStatus === 'READY') keptTotal = head.active - head.notReady;
        else keptTotal = head.active;
      }
      const page = await participants.list(projectId, query, head, keptTotal);
      return { ...page, items: page.items.map(toParticipant) };
    },

    async ids(
      caller: AccessClaims,
      projectId: string,
      search: string | undefined,
      filter: ParticipantFilter,
    ): Promise<string[]> {
      await deps.projects.requireVisible(caller, projectId);
      return participants.selectIds(projectId, { except: [], search, filter });
    },

    /**
     * The participants a bulk action names, in a project the caller has been checked for:
     * chosen ids (every one must be the project's: USER_NOT_FOUND otherwise), or all that
     * match a search and filter, except some. Archived participants are left out.
     */
    async resolveSelection(
      projectId: string,
      selection: { ids: string[] } | { all: true; except: string[]; search?: string; filter: ParticipantFilter },
    ): Promise<string[]> {
      if ('ids' in selection) {
        const ids = [...new Set(selection.ids)];
        const found = await participants.selectIds(projectId, { ids });
        if (found.length !== ids.length) throw new AppError('USER_NOT_FOUND');
        return found;
      }
      // Progress is read from the participants' cases: bring them up to date first.
      if (selection.filter.progress) await participants.syncAttempts(projectId);
      return participants.selectIds(projectId, {
        except: selection.except,
        search: selection.search,
        filter: { ...selection.filter, archived: false },
      });
    },

    async setArchived(
      caller: AccessClaims,
      usersIds: string,
      projectId: string,
      archived: boolean,
      body: { except: string[]; search?: string; filter: ParticipantFilter } | undefined,
    ): Promise<{ updated: number }> {
      await deps.projects.requireVisible(caller, projectId);
      await refuseWhileImporting(
        projectId,
        archived ? 'USER_ARCHIVE_BLOCKED_BY_IMPORT' : 'USER_UNARCHIVE_BLOCKED_BY_IMPORT',
      );
      const parsed = parseIds(usersIds);
      const ids =
        parsed === 'all'
          ? await participants.selectIds(projectId, {
              except: body?.except ?? [],
              search: body?.search,
              filter: { ...(body?.filter ?? {}), archived: !archived },
            })
          : await participants.selectIds(projectId, { ids: parsed });
      if (parsed !== 'all' && ids.length !== parsed.length) throw new AppError('USER_NOT_FOUND');
      return { updated: await participants.setArchived(projectId, ids, archived, deps.clock.now()) };
    },

    async setNotes(caller: AccessClaims, userId: string, projectId: string, notes: string | null): Promise<void> {
      await deps.projects.requireVisible(caller, projectId);
      await refuseWhileImporting(projectId, 'USER_UPDATE_BLOCKED_BY_IMPORT');
      if (!(await participants.setNotes(projectId, userId, notes?.trim() || null)))
        throw new AppError('USER_NOT_FOUND');
    },

    /**
     * The project's participants as a CSV table, page by page, safe to open in a
     * spreadsheet (`lib/table-writer.ts`). The columns are the import's, under its names (one
     * row per season assignment, as the import takes them), so the file can be edited and
     * imported again; the project's own columns (data status, archived, notes, added)
     * follow, which the import ignores. The caller is checked before anything is sent.
     */
    async exportTable(
      caller: AccessClaims,
      projectId: string,
      search: string | undefined,
      filter: ParticipantFilter,
    ): Promise<Table> {
      await deps.projects.requireVisible(caller, projectId);
      return {
        title: 'Participants',
        fileName: `participants-${projectId}`,
        columns: [...PARTICIPANT_ALL_COLUMNS, ...EXPORT_PROJECT_COLUMNS].map((header) => ({ header })),
        rows: exportRows(projectId, search, filter),
      };
    },
  };

  async function* exportRows(projectId: string, search: string | undefined, filter: ParticipantFilter) {
    if (filter.progress) await participants.syncAttempts(projectId);
    let after: { sortName: string; userId: string } | null = null;
    for (;;) {
      const rows = await participants.exportPage(projectId, search, filter, after, EXPORT_PAGE);
      const assignments = new Map<string, ExportAssignment[]>();
      for (const a of await participants.exportAssignments(
        projectId,
        rows.map((r) => r.userId),
      )) {
        const theirs = assignments.get(a.userId);
        if (theirs) theirs.push(a);
        else assignments.set(a.userId, [a]);
      }
      const page: Cell[][] = [];
      for (const row of rows) {
        const p = toParticipant(row);
        const person = [
          p.employee_id,
          p.salutation,
          p.first_name,
          p.last_name,
          p.email,
          p.role,
          p.profession,
          ...PARTICIPANT_OPTIONAL_COLUMNS.map((name) => row[name]),
        ];
        const project = [p.data_status, p.archived ? 'yes' : 'no', p.notes, p.added_at];
        for (const a of assignments.get(row.userId) ?? [null]) {
          const assignment = a
            ? [a.season, a.firstRound === a.lastRound ? a.firstRound : `${a.firstRound}-${a.lastRound}`, a.startDate]
            : [null, null, null];
          page.push([...person, ...assignment, ...project]);
        }
      }
      yield page;
      const last = rows.at(-1);
      if (!last || rows.length < EXPORT_PAGE) return;
      after = { sortName: last.sortName, userId: last.userId };
    }
  }
}
export type ParticipantsService = ReturnType<typeof createParticipantsService>;
