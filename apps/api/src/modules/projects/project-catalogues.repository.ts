import { and, eq, inArray, sql } from 'drizzle-orm';
import type { CatalogueListQuery } from '@pss/contract';
import { ensureCatalogueEntries, type CatalogueKind } from '../../db/catalogues.js';
import type { Executor } from '../../db/client.js';
import {
  cases,
  diseaseTypes,
  moduleDiseaseTypes,
  moduleQuestionCategories,
  projectDiseaseTypes,
  projectQuestionCategories,
  projects,
  questionCategories,
} from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';

export type { CatalogueKind };

const catalogueTables = {
  disease_types: { table: diseaseTypes, link: projectDiseaseTypes, linkColumn: projectDiseaseTypes.diseaseTypeId },
  question_categories: {
    table: questionCategories,
    link: projectQuestionCategories,
    linkColumn: projectQuestionCategories.questionCategoryId,
  },
} as const;

/** The shared catalogues (disease types, question categories) and the projects' links to them. */
export function createProjectCataloguesRepository(db: Executor) {
  return {
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

    /** Makes a project's entries of a catalogue exactly these names, found or created. */
    async link(kind: CatalogueKind, projectId: string, names: string[]): Promise<void> {
      const { link } = catalogueTables[kind];
      const ids = await ensureCatalogueEntries(db, kind, names);
      await db.delete(link).where(eq(link.projectId, projectId));
      if (kind === 'disease_types') {
        await db.insert(projectDiseaseTypes).values(ids.map((diseaseTypeId) => ({ projectId, diseaseTypeId })));
      } else {
        await db
          .insert(projectQuestionCategories)
          .values(ids.map((questionCategoryId) => ({ projectId, questionCategoryId })));
      }
    },
  };
}
export type ProjectCataloguesRepository = ReturnType<typeof createProjectCataloguesRepository>;
