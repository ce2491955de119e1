import type {
  ActiveSeason,
  CatalogueEntry,
  CatalogueListQuery,
  Paged,
  Project,
  ProjectListQuery,
  ProjectSummary,
  Season,
} from '@pss/contract';
import { type z } from 'zod';
import { type createProjectBody, type updateProjectBody } from '@pss/contract';
import type { Db, Executor } from '../../db/client.js';
import { ensureEmailTemplates } from '../../db/email-templates.js';
import { AppError, validationError } from '../../lib/errors.js';
import { dayIn, type Clock } from '../../lib/clock.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { visibleClientId, type ClientsService } from '../clients/clients.service.js';
import { createProjectCataloguesRepository, type CatalogueKind } from './project-catalogues.repository.js';
import { createProjectSeasonsRepository, type SeasonWithRounds } from './project-seasons.repository.js';
import { createProjectsRepository, type ProjectInput, type ProjectRow } from './projects.repository.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/constraint-violations.js';
import { auditChanges, auditProject } from '../audit/audit-scope.service.js';

type CreateInput = z.output<typeof createProjectBody>;
type UpdateInput = z.output<typeof updateProjectBody>;

/** A project's data status, from the participant counts kept on its row. */
function dataStatusOf(row: ProjectRow): ProjectSummary['data_status'] {
  if (row.activeParticipants === 0) return 'NO_USERS';
  return row.notReadyParticipants > 0 ? 'NOT_READY' : 'READY';
}

function toSummary(row: ProjectRow): ProjectSummary {
  return {
    id: row.id,
    client_id: row.clientId,
    client_name: row.clientName,
    name: row.name,
    status: row.status,
    season_count: row.seasonCount,
    data_status: dataStatusOf(row),
    participant_counts: {
      active: row.activeParticipants,
      archived: row.archivedParticipants,
      not_ready: row.notReadyParticipants,
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toSeason(season: SeasonWithRounds): Season {
  return {
    id: season.id,
    name: season.name,
    rounds: season.rounds.map((r) => ({ id: r.id, number: r.number, start_date: r.startDate, end_date: r.endDate })),
  };
}

/** A unique-name violation of a project within its client, as a field error. */
function duplicateProjectName(error: unknown): never {
  if (isUniqueViolation(error, 'projects_client_name*')) {
    throw validationError([{ field: 'body.name', message: 'This client already has a project with this name.' }]);
  }
  throw error;
}

/**
 * A save that reached a foreign key of participants' work (an assignment made between the
 * check and the write): the keys are RESTRICT, so nothing was lost; say why.
 */
function workStillThere(error: unknown): never {
  if (isForeignKeyViolation(error)) throw new AppError('SEASON_HAS_PARTICIPANT_WORK');
  throw error;
}

/** What a create or update body says of the project, as the repository writes it. */
function projectInput(input: CreateInput | UpdateInput): ProjectInput {
  return {
    name: input.name,
    status: input.status,
    notes: input.notes ?? null,
    supportEmail: input.support_email,
    supportPhone: input.support_phone,
    diseaseTypes: input.disease_types,
    questionCategories: input.question_categories,
    seasons: input.seasons,
  };
}

/**
 * The project access rule, for a project read with what the caller asked for (a list page
 * reads its project's client with its kept counts, in one statement): a missing project,
 * and another client's project to a client administrator, are both PROJECT_NOT_FOUND.
 */
export function assertProjectVisible<T extends { clientId: string }>(
  caller: AccessClaims,
  row: T | undefined,
): asserts row is T {
  if (!row) throw new AppError('PROJECT_NOT_FOUND');
  const scope = visibleClientId(caller);
  if (scope && row.clientId !== scope) throw new AppError('PROJECT_NOT_FOUND');
}

export function createProjectsService(deps: {
  db: Db;
  clients: Pick<ClientsService, 'requireVisible'>;
  clock: Clock;
  /** The schedule's time zone (SCHEDULE_TIME_ZONE): which seasons run "today" is decided there. */
  timeZone: string;
}) {
  const projects = createProjectsRepository(deps.db);
  const seasons = createProjectSeasonsRepository(deps.db);
  const catalogues = createProjectCataloguesRepository(deps.db);
  /** A project is written whole (row, catalogue links, seasons) in one transaction. */
  const inTransaction = <T>(work: (repository: typeof projects, tx: Executor) => Promise<T>) =>
    deps.db.transaction((tx) => work(createProjectsRepository(tx), tx));

  async function requireVisible(caller: AccessClaims, id: string): Promise<ProjectRow> {
    const row = await projects.findById(id);
    assertProjectVisible(caller, row);
    auditProject(row.id, row.clientId);
    return row;
  }

  async function toProject(row: ProjectRow): Promise<Project> {
    const [diseaseTypes, questionCategories, projectSeasons] = await Promise.all([
      catalogues.catalogueOf('disease_types', row.id),
      catalogues.catalogueOf('question_categories', row.id),
      seasons.seasonsOf(row.id),
    ]);
    return {
      ...toSummary(row),
      notes: row.notes,
      support_email: row.supportEmail,
      support_phone: row.supportPhone,
      disease_types: diseaseTypes,
      question_categories: questionCategories,
      seasons: projectSeasons.map(toSeason),
    };
  }

  return {
    requireVisible,

    async list(caller: AccessClaims, query: ProjectListQuery): Promise<Paged<ProjectSummary>> {
      const page = await projects.list(query, { clientId: visibleClientId(caller) });
      return { ...page, items: page.items.map(toSummary) };
    },

    async listForClient(
      caller: AccessClaims,
      clientId: string,
      query: ProjectListQuery,
    ): Promise<Paged<ProjectSummary>> {
      await deps.clients.requireVisible(caller, clientId);
      const page = await projects.list({ ...query, filter: { ...query.filter, client_id: clientId } }, { clientId });
      return { ...page, items: page.items.map(toSummary) };
    },

    async get(caller: AccessClaims, id: string): Promise<Project> {
      return toProject(await requireVisible(caller, id));
    },

    async create(caller: AccessClaims, input: CreateInput): Promise<Project> {
      // Another client's id is "not found" to an administrator, like everything of theirs.
      await deps.clients.requireVisible(caller, input.client_id);
      const id = await inTransaction(async (repository, tx) => {
        const created = await repository.create({ ...projectInput(input), clientId: input.client_id });
        // Its emails (and each season's) from the written defaults, with the project.
        await ensureEmailTemplates(tx, created);
        return created;
      }).catch(duplicateProjectName);
      return toProject((await projects.findById(id))!);
    },

    async update(caller: AccessClaims, id: string, input: UpdateInput): Promise<Project> {
      const before = await toProject(await requireVisible(caller, id));
      const current = await seasons.seasonsOf(id);
      const unknown = input.seasons.filter((s) => s.id && !current.some((c) => c.id === s.id));
      if (unknown.length) {
        throw validationError(
          unknown.map((s) => ({
            field: `body.seasons.${input.seasons.indexOf(s)}.id`,
            message: 'No such season in this project',
          })),
        );
      }
      // The seasons with work are read after locking them, in the save's transaction.
      const { blocked } = await inTransaction(async (repository, tx) => {
        const saved = await repository.update(id, projectInput(input), deps.clock.now());
        // A season added by this save gets its emails in the same transaction.
        if (!saved.blocked.length) await ensureEmailTemplates(tx, id);
        return saved;
      })
        .catch(duplicateProjectName)
        .catch(workStillThere);
      if (blocked.length) {
        const names = blocked.map((b) => `"${b.name}"`).join(', ');
        throw new AppError('SEASON_HAS_PARTICIPANT_WORK', {
          message: `Participants are assigned to or have worked in ${names}: the save would remove their assignments, answers or scores, so it was not made. Keep the season and its rounds.`,
          details: { seasons: blocked },
        });
      }
      const after = await toProject((await projects.findById(id))!);
      auditChanges(before, after);
      return after;
    },

    async setStatus(caller: AccessClaims, id: string, status: 'ACTIVE' | 'ARCHIVED'): Promise<Project> {
      await requireVisible(caller, id);
      await projects.setStatus(id, status, deps.clock.now());
      return toProject((await projects.findById(id))!);
    },

    /**
     * Deletes a project with its seasons and CMEs. A project with cases (drafts included:
     * they are an author's work, deleted one by one under the case rules) or participants is
     * refused with ASSOCIATED_ITEMS_DELETE_FORBIDDEN.
     */
    async remove(caller: AccessClaims, id: string): Promise<void> {
      await requireVisible(caller, id);
      const outcome = await inTransaction((repository) => repository.delete(id)).catch((error: unknown) => {
        // Something added under the project as it was deleted: the foreign keys refuse.
        if (isForeignKeyViolation(error)) return 'in-use' as const;
        throw error;
      });
      if (outcome === 'in-use') throw new AppError('ASSOCIATED_ITEMS_DELETE_FORBIDDEN');
    },

    /** What a participant import into this project checks rows against. */
    async importTarget(id: string) {
      const row = await projects.findById(id);
      if (!row) throw new AppError('PROJECT_NOT_FOUND');
      const projectSeasons = await seasons.seasonsOf(id);
      return {
        projectId: row.id,
        clientId: row.clientId,
        seasons: projectSeasons.map((s) => ({
          id: s.id,
          name: s.name,
          startDate: s.rounds.map((r) => r.startDate).sort()[0] ?? null,
          endDate:
            s.rounds
              .map((r) => r.endDate)
              .sort()
              .at(-1) ?? null,
          rounds: s.rounds.map((r) => ({ number: r.number, startDate: r.startDate })),
        })),
      };
    },

    async seasons(caller: AccessClaims, id: string): Promise<Season[]> {
      await requireVisible(caller, id);
      return (await seasons.seasonsOf(id)).map(toSeason);
    },

    async projectCatalogue(
      caller: AccessClaims,
      id: string,
      kind: CatalogueKind,
      query: CatalogueListQuery,
    ): Promise<Paged<CatalogueEntry>> {
      await requireVisible(caller, id);
      return catalogues.pageCatalogue(kind, query, { projectId: id });
    },

    /**
     * A catalogue for a picker. Entry names may be confidential to the client that typed
     * them (a trial's disease, say): a client administrator sees only the entries their own
     * client's projects use; a superadmin sees all. Nothing is shared across clients on
     * purpose: module libraries, which reuse entries, are the provider's (superadmins only).
     */
    catalogue(caller: AccessClaims, kind: CatalogueKind, query: CatalogueListQuery): Promise<Paged<CatalogueEntry>> {
      const clientId = visibleClientId(caller);
      return catalogues.pageCatalogue(kind, query, clientId ? { clientId } : undefined);
    },

    async deleteCatalogueEntry(kind: CatalogueKind, id: string): Promise<void> {
      const use = await catalogues.catalogueEntryUse(kind, id);
      if (!use.exists) throw new AppError('NOT_FOUND');
      if (use.projects > 0) {
        throw new AppError(
          kind === 'disease_types' ? 'DISEASE_TYPE_DELETE_FORBIDDEN' : 'ASSOCIATED_ITEMS_DELETE_FORBIDDEN',
        );
      }
      await catalogues.deleteCatalogueEntry(kind, id);
    },

    async activeSeasons(
      caller: AccessClaims,
      query: { page: number; limit: number; sort: { field: string; direction: 'ASC' | 'DESC' }[] },
    ): Promise<Paged<ActiveSeason>> {
      const today = dayIn(deps.timeZone, deps.clock.now());
      return seasons.activeSeasons(today, query, { clientId: visibleClientId(caller) });
    },
  };
}
export type ProjectsService = ReturnType<typeof createProjectsService>;
