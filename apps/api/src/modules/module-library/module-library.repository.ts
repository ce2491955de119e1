import { and, asc, eq, sql } from 'drizzle-orm';
import type { AssociatedProjectQuery, CatalogueListQuery, ModuleListQuery } from '@pss/contract';
import { ensureCatalogueEntries, type CatalogueKind } from '../../db/catalogues.js';
import type { Executor } from '../../db/client.js';
import {
  cases,
  clients,
  diseaseTypes,
  moduleDiseaseTypes,
  moduleQuestionCategories,
  modules,
  projects,
  questionCategories,
} from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';

export type ModuleRecord = typeof modules.$inferSelect;
export type ModuleRow = ModuleRecord & { caseCount: number };

// Qualified by hand: inside a subquery Drizzle writes columns without their table.
const caseCount = sql<number>`(select cast(count(*) as integer) from ${cases} c where c.module_id = "modules"."id")`;

const links = {
  disease_types: { link: moduleDiseaseTypes, column: moduleDiseaseTypes.diseaseTypeId, table: diseaseTypes },
  question_categories: {
    link: moduleQuestionCategories,
    column: moduleQuestionCategories.questionCategoryId,
    table: questionCategories,
  },
} as const;

export function createModuleLibraryRepository(db: Executor) {
  async function linkCatalogue(kind: CatalogueKind, moduleId: string, names: string[]): Promise<void> {
    const ids = await ensureCatalogueEntries(db, kind, names);
    if (kind === 'disease_types') {
      await db.delete(moduleDiseaseTypes).where(eq(moduleDiseaseTypes.moduleId, moduleId));
      await db.insert(moduleDiseaseTypes).values(ids.map((diseaseTypeId) => ({ moduleId, diseaseTypeId })));
    } else {
      await db.delete(moduleQuestionCategories).where(eq(moduleQuestionCategories.moduleId, moduleId));
      await db
        .insert(moduleQuestionCategories)
        .values(ids.map((questionCategoryId) => ({ moduleId, questionCategoryId })));
    }
  }

  return {
    list(query: ModuleListQuery) {
      const where = searchCondition(query.search, [modules.name]);
      const sortColumns = {
        name: sql`lower(${modules.name})`,
        case_count: caseCount,
        updated_at: modules.updatedAt,
        created_at: modules.createdAt,
      };
      return runPaged(
        query,
        (limit, offset) =>
          db
            .select({ module: modules, caseCount })
            .from(modules)
            .where(where)
            .orderBy(...orderByTerms(query.sort, sortColumns, modules.id))
            .limit(limit)
            .offset(offset)
            .then((rows) => rows.map((r) => ({ ...r.module, caseCount: r.caseCount }))),
        async () => (await db.select({ n: countAll }).from(modules).where(where))[0]?.n ?? 0,
      );
    },

    async findById(id: string): Promise<ModuleRow | undefined> {
      const [row] = await db.select({ module: modules, caseCount }).from(modules).where(eq(modules.id, id));
      return row && { ...row.module, caseCount: row.caseCount };
    },

    async findByName(name: string): Promise<ModuleRecord | undefined> {
      const [row] = await db
        .select()
        .from(modules)
        .where(sql`lower(${modules.name}) = lower(${name})`);
      return row;
    },

    async catalogueOf(kind: CatalogueKind, moduleId: string) {
      const { link, column, table } = links[kind];
      return db
        .select({ id: table.id, name: table.name })
        .from(link)
        .innerJoin(table, eq(table.id, column))
        .where(eq(link.moduleId, moduleId))
        .orderBy(sql`lower(${table.name})`);
    },

    /** A page of a module's disease types or question categories, by name. */
    pageCatalogue(kind: CatalogueKind, moduleId: string, query: CatalogueListQuery) {
      const { link, column, table } = links[kind];
      const where = and(eq(link.moduleId, moduleId), searchCondition(query.search, [table.name]));
      return runPaged(
        query,
        (limit, offset) =>
          db
            .select({ id: table.id, name: table.name })
            .from(link)
            .innerJoin(table, eq(table.id, column))
            .where(where)
            .orderBy(...orderByTerms(query.sort, { name: sql`lower(${table.name})` }, table.id))
            .limit(limit)
            .offset(offset),
        async () =>
          (await db.select({ n: countAll }).from(link).innerJoin(table, eq(table.id, column)).where(where))[0]?.n ?? 0,
      );
    },

    /** Creates a module with its catalogue links (entries found or created by name); run in a transaction. */
    async create(input: {
      name: string;
      description: string | null;
      diseaseTypes: string[];
      questionCategories: string[];
    }) {
      const [row] = await db
        .insert(modules)
        .values({ name: input.name, description: input.description })
        .returning({ id: modules.id });
      await linkCatalogue('disease_types', row!.id, input.diseaseTypes);
      await linkCatalogue('question_categories', row!.id, input.questionCategories);
      return row!.id;
    },

    /** Changes a module and replaces its catalogue links; run in a transaction. */
    async update(
      id: string,
      input: { name: string; description: string | null; diseaseTypes: string[]; questionCategories: string[] },
      at: Date,
    ): Promise<void> {
      await db
        .update(modules)
        .set({ name: input.name, description: input.description, updatedAt: at })
        .where(eq(modules.id, id));
      await linkCatalogue('disease_types', id, input.diseaseTypes);
      await linkCatalogue('question_categories', id, input.questionCategories);
    },

    async delete(id: string): Promise<void> {
      await db.delete(modules).where(eq(modules.id, id));
    },

    /** Projects holding copies of this module's cases, with how many. */
    associatedProjects(moduleId: string, query: AssociatedProjectQuery) {
      const copies = sql`exists (select 1 from ${cases} src where src.id = "cases"."source_case_id" and src.module_id = ${moduleId})`;
      const where = and(sql`${cases.projectId} is not null`, copies, searchCondition(query.search, [projects.name]));
      const sortColumns = { name: sql`lower(${projects.name})`, client_name: sql`lower(${clients.name})` };
      return runPaged(
        query,
        (limit, offset) =>
          db
            .select({
              id: projects.id,
              name: projects.name,
              client_id: clients.id,
              client_name: clients.name,
              copied_cases: countAll,
            })
            .from(cases)
            .innerJoin(projects, eq(projects.id, cases.projectId))
            .innerJoin(clients, eq(clients.id, projects.clientId))
            .where(where)
            .groupBy(projects.id, clients.id)
            .orderBy(...orderByTerms(query.sort, sortColumns, projects.id), asc(projects.id))
            .limit(limit)
            .offset(offset),
        async () =>
          (
            await db
              .select({ n: sql<number>`cast(count(distinct ${projects.id}) as integer)` })
              .from(cases)
              .innerJoin(projects, eq(projects.id, cases.projectId))
              .where(where)
          )[0]?.n ?? 0,
      );
    },
  };
}
export type ModuleLibraryRepository = ReturnType<typeof createModuleLibraryRepository>;
