import { and, eq, sql } from 'drizzle-orm';
import type { ProjectListQuery, SeasonInput } from '@pss/contract';
import { rowsOf, type Executor } from '../../db/client.js';
import { clients, projects, seasons } from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';
import { createProjectCataloguesRepository } from './project-catalogues.repository.js';
import { createProjectSeasonsRepository, type SeasonWork } from './project-seasons.repository.js';

export type ProjectRow = typeof projects.$inferSelect & { clientName: string; seasonCount: number };
export type { CatalogueKind } from './project-catalogues.repository.js';
export type { SeasonWithRounds, SeasonWork } from './project-seasons.repository.js';

/** A project as an edit writes it: its row, its catalogue entries by name, its seasons. */
export interface ProjectInput {
  name: string;
  status: 'ACTIVE' | 'ARCHIVED';
  notes: string | null;
  /** null clears it; undefined (left out of an update) keeps it. */
  supportEmail?: string | null;
  supportPhone?: string | null;
  diseaseTypes: string[];
  questionCategories: string[];
  seasons: SeasonInput[];
}

// Qualified by hand: inside a subquery drizzle writes columns without their table.
const seasonCount = sql<number>`(select cast(count(*) as integer) from ${seasons} s where s.project_id = "projects"."id")`;
const projectColumns = { project: projects, clientName: clients.name, seasonCount };

const sortColumns = {
  name: sql`lower(${projects.name})`,
  status: projects.status,
  client_name: sql`lower(${clients.name})`,
  updated_at: projects.updatedAt,
  created_at: projects.createdAt,
};

function flatten(row: { project: typeof projects.$inferSelect; clientName: string; seasonCount: number }): ProjectRow {
  return { ...row.project, clientName: row.clientName, seasonCount: row.seasonCount };
}

/**
 * Projects, written whole: the row with its catalogue links and seasons (through the seasons
 * and catalogues repositories, bound to the same executor). The writes run in the
 * transaction the projects service opens.
 */
export function createProjectsRepository(db: Executor) {
  const catalogues = createProjectCataloguesRepository(db);
  const projectSeasons = createProjectSeasonsRepository(db);

  async function writeLinks(id: string, input: ProjectInput): Promise<void> {
    await catalogues.link('disease_types', id, input.diseaseTypes);
    await catalogues.link('question_categories', id, input.questionCategories);
    await projectSeasons.replace(id, input.seasons);
  }

  return {
    list(query: ProjectListQuery, scope: { clientId: string | null }) {
      const where = and(
        searchCondition(query.search, [projects.name]),
        scope.clientId ? eq(projects.clientId, scope.clientId) : undefined,
        query.filter.client_id ? eq(projects.clientId, query.filter.client_id) : undefined,
        query.filter.status ? eq(projects.status, query.filter.status) : undefined,
      );
      const order = orderByTerms(query.sort, sortColumns, projects.id);
      const sortsByClient = query.sort.some((t) => t.field === 'client_name');
      return runPaged(
        query,
        (limit, offset) => {
          // Deferred join: page the ids by index first, then read this page's rows only.
          const ids = db.select({ id: projects.id }).from(projects);
          const page = (sortsByClient ? ids.innerJoin(clients, eq(clients.id, projects.clientId)) : ids)
            .where(where)
            .orderBy(...order)
            .limit(limit)
            .offset(offset)
            .as('page');
          return db
            .select(projectColumns)
            .from(projects)
            .innerJoin(page, eq(page.id, projects.id))
            .innerJoin(clients, eq(clients.id, projects.clientId))
            .orderBy(...order)
            .then((rows) => rows.map(flatten));
        },
        async () => (await db.select({ n: countAll }).from(projects).where(where))[0]?.n ?? 0,
      );
    },

    async findById(id: string): Promise<ProjectRow | undefined> {
      const [row] = await db
        .select(projectColumns)
        .from(projects)
        .innerJoin(clients, eq(clients.id, projects.clientId))
        .where(eq(projects.id, id));
      return row ? flatten(row) : undefined;
    },

    async create(input: ProjectInput & { clientId: string }): Promise<string> {
      const [row] = await db
        .insert(projects)
        .values({
          clientId: input.clientId,
          name: input.name,
          status: input.status,
          notes: input.notes,
          supportEmail: input.supportEmail ?? null,
          supportPhone: input.supportPhone ?? null,
        })
        .returning({ id: projects.id });
      await writeLinks(row!.id, input);
      return row!.id;
    },

    /** Saves a project whole, unless it would remove seasons or rounds with participants' work. */
    async update(id: string, input: ProjectInput, at: Date): Promise<{ blocked: SeasonWork[] }> {
      // Checked before anything is written: a refused save changes nothing.
      const blocked = await projectSeasons.workInRemoved(id, input.seasons);
      if (blocked.length) return { blocked };
      await db
        .update(projects)
        .set({
          name: input.name,
          status: input.status,
          notes: input.notes,
          supportEmail: input.supportEmail,
          supportPhone: input.supportPhone,
          updatedAt: at,
        })
        .where(eq(projects.id, id));
      await writeLinks(id, input);
      return { blocked: [] };
    },

    async setStatus(id: string, status: 'ACTIVE' | 'ARCHIVED', at: Date): Promise<void> {
      await db.update(projects).set({ status, updatedAt: at }).where(eq(projects.id, id));
    },

    /**
     * Deletes a project with its seasons (and their rounds), catalogue links and CMEs, unless
     * anything else hangs off it: cases (drafts too: they are an author's work), participants,
     * assignments or attempts. The project row is locked first, so nothing is added under it
     * between the look and the delete.
     */
    async delete(id: string): Promise<'deleted' | 'in-use'> {
      await db.execute(sql`select id from projects where id = ${id} for update`);
      const [use] = rowsOf<{ used: boolean }>(
        await db.execute(sql`select
          exists (select 1 from cases where project_id = ${id})
          or exists (select 1 from project_participants where project_id = ${id})
          or exists (select 1 from participant_assignments where project_id = ${id})
          or exists (select 1 from user_season_round_cases where project_id = ${id}) as used`),
      );
      if (use?.used) return 'in-use';
      await projectSeasons.removeAll(id);
      await db.delete(projects).where(eq(projects.id, id));
      return 'deleted';
    },
  };
}
export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
