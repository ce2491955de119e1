import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { ActiveSeason, CatalogueListQuery, ProjectListQuery, SeasonInput } from '@pss/contract';
import { ensureCatalogueEntries, type CatalogueKind } from '../../db/catalogues.js';
import { rowsOf, type Db, type Tx } from '../../db/client.js';
import {
  cases,
  clients,
  diseaseTypes,
  moduleDiseaseTypes,
  moduleQuestionCategories,
  projectDiseaseTypes,
  projectQuestionCategories,
  projects,
  questionCategories,
  rounds,
  seasons,
} from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';

export type ProjectRow = typeof projects.$inferSelect & { clientName: string; seasonCount: number };
export type { CatalogueKind };
/** A season an edit would remove (whole, or some of its rounds) that holds participants' work. */
export interface SeasonWork {
  id: string;
  name: string;
  /** The round numbers with work the edit would remove. */
  rounds: number[];
}
export interface SeasonWithRounds {
  id: string;
  name: string;
  rounds: { id: string; number: number; startDate: string; endDate: string }[];
}

const catalogueTables = {
  disease_types: { table: diseaseTypes, link: projectDiseaseTypes, linkColumn: projectDiseaseTypes.diseaseTypeId },
  question_categories: {
    table: questionCategories,
    link: projectQuestionCategories,
    linkColumn: projectQuestionCategories.questionCategoryId,
  },
} as const;

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

/** A season runs from its first round's start to its last round's end. */
function seasonSpan(season: SeasonInput): { startDate: string; endDate: string } {
  const starts = season.rounds.map((r) => r.start_date).sort();
  const ends = season.rounds.map((r) => r.end_date).sort();
  return { startDate: starts[0]!, endDate: ends.at(-1)! };
}

function flatten(row: { project: typeof projects.$inferSelect; clientName: string; seasonCount: number }): ProjectRow {
  return { ...row.project, clientName: row.clientName, seasonCount: row.seasonCount };
}

export function createProjectsRepository(db: Db) {
  async function linkCatalogue(tx: Tx, kind: CatalogueKind, projectId: string, names: string[]): Promise<void> {
    const { link } = catalogueTables[kind];
    const ids = await ensureCatalogueEntries(tx, kind, names);
    await tx.delete(link).where(eq(link.projectId, projectId));
    if (kind === 'disease_types') {
      await tx.insert(projectDiseaseTypes).values(ids.map((diseaseTypeId) => ({ projectId, diseaseTypeId })));
    } else {
      await tx
        .insert(projectQuestionCategories)
        .values(ids.map((questionCategoryId) => ({ projectId, questionCategoryId })));
    }
  }

  /**
   * The seasons and rounds this save would remove that hold participants' work: an
   * assignment covering the round, or an attempt (with its answers and score) in it. Reads
   * after locking the project's seasons, so nothing is assigned or attempted in them until
   * the save commits (those writes take a key-share lock on the season).
   */
  async function workInRemoved(tx: Tx, projectId: string, input: SeasonInput[]): Promise<SeasonWork[]> {
    const existing = rowsOf<{ id: string; name: string }>(
      await tx.execute(sql`select id, name from seasons where project_id = ${projectId} order by position for update`),
    );
    const blocked: SeasonWork[] = [];
    for (const season of existing) {
      const sent = input.find((s) => s.id === season.id);
      const kept = sql`array[${sql.join(
        (sent?.rounds ?? []).map((r) => sql`${r.number}`),
        sql`, `,
      )}]::smallint[]`;
      const work = sql`(exists (select 1 from participant_assignments pa
            where pa.season_id = ${season.id} and r.number between pa.first_round and pa.last_round)
          or exists (select 1 from user_season_round_cases u
            where u.season_id = ${season.id} and u.round_number = r.number))`;
      const [found] = rowsOf<{ rounds: number[]; any_work: boolean }>(
        await tx.execute(sql`
          select
            coalesce((select array_agg(r.number order by r.number) from rounds r
              where r.season_id = ${season.id} and not (r.number = any(${kept})) and ${work}), '{}') as rounds,
            (exists (select 1 from participant_assignments pa where pa.season_id = ${season.id})
              or exists (select 1 from user_season_round_cases u where u.season_id = ${season.id})) as any_work`),
      );
      const rounds = (found?.rounds ?? []).map(Number);
      // A season left out goes whole: any assignment or attempt in it holds it.
      if (rounds.length || (!sent && found?.any_work)) blocked.push({ id: season.id, name: season.name, rounds });
    }
    return blocked;
  }

  /**
   * Makes the project's seasons exactly these: kept (by id), changed, added or removed; a
   * kept season's rounds are updated in place by number (their ids stay), others added or
   * removed. Callers check `workInRemoved` first.
   */
  async function replaceSeasons(tx: Tx, projectId: string, input: SeasonInput[]): Promise<void> {
    const existing = await tx.select({ id: seasons.id }).from(seasons).where(eq(seasons.projectId, projectId));
    const keep = new Set(input.map((s) => s.id).filter((id): id is string => Boolean(id)));
    const removed = existing.map((s) => s.id).filter((id) => !keep.has(id));
    if (removed.length) await tx.delete(seasons).where(inArray(seasons.id, removed));
    // Names are unique per project: park kept seasons under temporary names first, so two
    // seasons may swap names in one save.
    for (const season of input) {
      if (season.id) {
        await tx
          .update(seasons)
          .set({ name: `~renaming~${season.id}` })
          .where(and(eq(seasons.id, season.id), eq(seasons.projectId, projectId)));
      }
    }
    for (const [position, season] of input.entries()) {
      let seasonId = season.id;
      const span = seasonSpan(season);
      if (seasonId && existing.some((s) => s.id === seasonId)) {
        await tx
          .update(seasons)
          .set({ name: season.name, position, ...span })
          .where(eq(seasons.id, seasonId));
      } else {
        const [created] = await tx
          .insert(seasons)
          .values({ projectId, name: season.name, position, ...span })
          .returning({ id: seasons.id });
        seasonId = created!.id;
      }
      await tx.delete(rounds).where(
        and(
          eq(rounds.seasonId, seasonId),
          notInArray(
            rounds.number,
            season.rounds.map((r) => r.number),
          ),
        ),
      );
      await tx
        .insert(rounds)
        .values(
          season.rounds.map((r) => ({
            seasonId: seasonId!,
            number: r.number,
            startDate: r.start_date,
            endDate: r.end_date,
          })),
        )
        .onConflictDoUpdate({
          target: [rounds.seasonId, rounds.number],
          set: { startDate: sql`excluded.start_date`, endDate: sql`excluded.end_date` },
        });
    }
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

    async catalogueOf(kind: CatalogueKind, projectId: string): Promise<{ id: string; name: string }[]> {
      const { table, link, linkColumn } = catalogueTables[kind];
      return db
        .select({ id: table.id, name: table.name })
        .from(link)
        .innerJoin(table, eq(table.id, linkColumn))
        .where(eq(link.projectId, projectId))
        .orderBy(sql`lower(${table.name})`);
    },

    /** A page of a catalogue: all of it, a project's part of it, or the part a client's projects use. */
    pageCatalogue(
      kind: CatalogueKind,
      query: CatalogueListQuery,
      within?: { projectId: string } | { clientId: string },
    ) {
      const { table, link, linkColumn } = catalogueTables[kind];
      const linked = db.select({ id: linkColumn }).from(link);
      const where = and(
        searchCondition(query.search, [table.name]),
        within && 'projectId' in within
          ? inArray(table.id, linked.where(eq(link.projectId, within.projectId)))
          : undefined,
        within && 'clientId' in within
          ? inArray(
              table.id,
              linked.innerJoin(projects, eq(projects.id, link.projectId)).where(eq(projects.clientId, within.clientId)),
            )
          : undefined,
      );
      return runPaged(
        query,
        (limit, offset) =>
          db
            .select({ id: table.id, name: table.name })
            .from(table)
            .where(where)
            .orderBy(...orderByTerms(query.sort, { name: sql`lower(${table.name})` }, table.id))
            .limit(limit)
            .offset(offset),
        async () => (await db.select({ n: countAll }).from(table).where(where))[0]?.n ?? 0,
      );
    },

    /** How many projects, module libraries and cases use a catalogue entry (in use: not deletable). */
    async catalogueEntryUse(kind: CatalogueKind, id: string): Promise<{ exists: boolean; projects: number }> {
      const { table, link, linkColumn } = catalogueTables[kind];
      const [entry] = await db.select({ id: table.id }).from(table).where(eq(table.id, id));
      if (!entry) return { exists: false, projects: 0 };
      const [row] = await db.select({ n: countAll }).from(link).where(eq(linkColumn, id));
      const moduleLinks =
        kind === 'disease_types'
          ? db.select({ n: countAll }).from(moduleDiseaseTypes).where(eq(moduleDiseaseTypes.diseaseTypeId, id))
          : db
              .select({ n: countAll })
              .from(moduleQuestionCategories)
              .where(eq(moduleQuestionCategories.questionCategoryId, id));
      const [inModules] = await moduleLinks;
      // Cases name disease types by column and question categories inside their questions.
      const caseUse =
        kind === 'disease_types'
          ? sql`${cases.diseaseTypeId} = ${id}`
          : sql`${cases.body}->'questions' @> ${JSON.stringify([{ category_id: id }])}::jsonb`;
      const [inCases] = await db.select({ n: countAll }).from(cases).where(caseUse);
      return { exists: true, projects: (row?.n ?? 0) + (inModules?.n ?? 0) + (inCases?.n ?? 0) };
    },

    async deleteCatalogueEntry(kind: CatalogueKind, id: string): Promise<void> {
      const { table } = catalogueTables[kind];
      await db.delete(table).where(eq(table.id, id));
    },

    async seasonsOf(projectId: string): Promise<SeasonWithRounds[]> {
      const rows = await db
        .select({ season: seasons, round: rounds })
        .from(seasons)
        .leftJoin(rounds, eq(rounds.seasonId, seasons.id))
        .where(eq(seasons.projectId, projectId))
        .orderBy(asc(seasons.position), asc(rounds.number));
      const bySeason = new Map<string, SeasonWithRounds>();
      for (const { season, round } of rows) {
        const entry = bySeason.get(season.id) ?? { id: season.id, name: season.name, rounds: [] };
        if (round)
          entry.rounds.push({ id: round.id, number: round.number, startDate: round.startDate, endDate: round.endDate });
        bySeason.set(season.id, entry);
      }
      return [...bySeason.values()];
    },

    async create(input: {
      clientId: string;
      name: string;
      status: 'ACTIVE' | 'ARCHIVED';
      notes: string | null;
      diseaseTypes: string[];
      questionCategories: string[];
      seasons: SeasonInput[];
    }): Promise<string> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(projects)
          .values({ clientId: input.clientId, name: input.name, status: input.status, notes: input.notes })
          .returning({ id: projects.id });
        const id = row!.id;
        await linkCatalogue(tx, 'disease_types', id, input.diseaseTypes);
        await linkCatalogue(tx, 'question_categories', id, input.questionCategories);
        await replaceSeasons(tx, id, input.seasons);
        return id;
      });
    },

    async update(
      id: string,
      input: {
        name: string;
        status: 'ACTIVE' | 'ARCHIVED';
        notes: string | null;
        diseaseTypes: string[];
        questionCategories: string[];
        seasons: SeasonInput[];
      },
      at: Date,
    ): Promise<{ blocked: SeasonWork[] }> {
      return db.transaction(async (tx) => {
        // Checked before anything is written: a refused save changes nothing.
        const blocked = await workInRemoved(tx, id, input.seasons);
        if (blocked.length) return { blocked };
        await tx
          .update(projects)
          .set({ name: input.name, status: input.status, notes: input.notes, updatedAt: at })
          .where(eq(projects.id, id));
        await linkCatalogue(tx, 'disease_types', id, input.diseaseTypes);
        await linkCatalogue(tx, 'question_categories', id, input.questionCategories);
        await replaceSeasons(tx, id, input.seasons);
        return { blocked: [] };
      });
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
      return db.transaction(async (tx) => {
        await tx.execute(sql`select id from projects where id = ${id} for update`);
        const [use] = rowsOf<{ used: boolean }>(
          await tx.execute(sql`select
            exists (select 1 from cases where project_id = ${id})
            or exists (select 1 from project_participants where project_id = ${id})
            or exists (select 1 from participant_assignments where project_id = ${id})
            or exists (select 1 from user_season_round_cases where project_id = ${id}) as used`),
        );
        if (use?.used) return 'in-use';
        await tx.delete(seasons).where(eq(seasons.projectId, id));
        await tx.delete(projects).where(eq(projects.id, id));
        return 'deleted';
      });
    },

    /** Seasons running on `today` (from the first round's start to the last round's end). */
    activeSeasons(
      today: string,
      query: { page: number; limit: number; sort: { field: string; direction: 'ASC' | 'DESC' }[] },
      scope: { clientId: string | null },
    ) {
      const where = and(
        sql`${seasons.startDate} <= ${today}`,
        sql`${seasons.endDate} >= ${today}`,
        scope.clientId ? eq(projects.clientId, scope.clientId) : undefined,
      );
      const sortable = {
        client_name: sql`lower(${clients.name})`,
        project_name: sql`lower(${projects.name})`,
        season_name: sql`lower(${seasons.name})`,
        start_date: seasons.startDate,
        end_date: seasons.endDate,
      };
      // Qualified by hand: inside a subquery drizzle writes columns without their table.
      const currentRound = sql<
        number | null
      >`(select r.number from ${rounds} r where r.season_id = "seasons"."id" and r.start_date <= ${today} and r.end_date >= ${today} limit 1)`;
      return runPaged(
        query,
        (limit, offset) =>
          db
            .select({
              client_id: clients.id,
              client_name: clients.name,
              project_id: projects.id,
              project_name: projects.name,
              season_id: seasons.id,
              season_name: seasons.name,
              start_date: seasons.startDate,
              end_date: seasons.endDate,
              current_round: currentRound,
            })
            .from(seasons)
            .innerJoin(projects, eq(projects.id, seasons.projectId))
            .innerJoin(clients, eq(clients.id, projects.clientId))
            .where(where)
            .orderBy(
              ...orderByTerms(
                query.sort as { field: keyof typeof sortable; direction: 'ASC' | 'DESC' }[],
                sortable,
                seasons.id,
              ),
            )
            .limit(limit)
            .offset(offset)
            .then((rows) =>
              rows.map((r): ActiveSeason => ({
                ...r,
                start_date: r.start_date ?? '',
                end_date: r.end_date ?? '',
                current_round: r.current_round === null ? null : Number(r.current_round),
              })),
            ),
        async () =>
          (
            await db
              .select({ n: countAll })
              .from(seasons)
              .innerJoin(projects, eq(projects.id, seasons.projectId))
              .where(where)
          )[0]?.n ?? 0,
      );
    },
  };
}
export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
