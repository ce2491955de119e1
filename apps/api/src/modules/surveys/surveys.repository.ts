import { and, asc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type {
  SavedSurveyPage,
  StoredSurveyAnswer,
  SurveyTemplateListQuery,
  SurveyTemplateSelection,
} from '@pss/contract';
import type { Executor } from '../../db/client.js';
import { clients, projects, projectSurveys, surveyResponses, surveyTemplates } from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';

export type SurveyTemplateRow = typeof surveyTemplates.$inferSelect;
export type ProjectSurveyRow = typeof projectSurveys.$inferSelect;
export type SurveyResponseRow = typeof surveyResponses.$inferSelect;
/** A template with what the caller may know of its use. */
export type TemplateWithUse = SurveyTemplateRow & { projectCount: number; answered: boolean };

const sortColumns = {
  name: surveyTemplates.name,
  type: surveyTemplates.type,
  updated_at: surveyTemplates.updatedAt,
  created_at: surveyTemplates.createdAt,
};

/**
 * The outer query's template id, spelt out: inside a subquery, Drizzle may name a column
 * without its table, which a subquery over another table with an `id` would take as its own.
 */
const templateIdRef = sql.raw('"survey_templates"."id"');

/** The project_surveys row (in scope of the statement) uses the template. */
const uses = (templateId: SQL) =>
  sql`${templateId} in (${projectSurveys.startNewTemplateId}, ${projectSurveys.startReturningTemplateId}, ${projectSurveys.reviewTemplateId}, ${projectSurveys.endTemplateId})`;

/** Projects (of the client, when one is named) that use the template of the outer query. */
const usingProjects = (clientId: string | null, projectId?: string) =>
  sql`select 1 from ${projectSurveys} join ${projects} on ${projects.id} = ${projectSurveys.projectId}
      where ${uses(templateIdRef)}
      ${clientId ? sql`and ${projects.clientId} = ${clientId}` : sql``}
      ${projectId ? sql`and ${projectSurveys.projectId} = ${projectId}` : sql``}`;

/** A project (of any client) uses the template of the outer query. */
const usedByAny = sql<boolean>`exists (select 1 from ${projectSurveys} where ${uses(templateIdRef)})`;

/**
 * Client isolation for templates: an administrator sees a template no project uses, or one a
 * project of their own client uses — never one used only by other clients' projects.
 */
export const visibleTo = (clientId: string | null): SQL | undefined =>
  clientId === null ? undefined : sql`(not ${usedByAny} or exists (${usingProjects(clientId)}))`;

const projectCount = (clientId: string | null) =>
  sql<number>`(select cast(count(*) as integer) from (${usingProjects(clientId)}) used)`;
const answered = sql<boolean>`exists (select 1 from ${surveyResponses} where ${surveyResponses.templateId} = ${templateIdRef})`;

function filterCondition(filter: SurveyTemplateListQuery['filter'] | undefined, search: string | undefined) {
  return and(
    filter?.type ? eq(surveyTemplates.type, filter.type) : undefined,
    // One project must meet both: a client and another client's project name nothing.
    filter?.client_id || filter?.project_id
      ? sql`exists (${usingProjects(filter.client_id ?? null, filter.project_id)})`
      : undefined,
    searchCondition(search, [surveyTemplates.name]),
  );
}

/**
 * Survey templates (the list, a template's row and lock, and its use by projects) and each
 * project's choice of templates. Participants' answers: `survey-responses.repository.ts`.
 */
export function createSurveysRepository(db: Executor) {
  const withUse = (clientId: string | null) =>
    db.select({ template: surveyTemplates, projectCount: projectCount(clientId), answered }).from(surveyTemplates);
  const flatten = (row: { template: SurveyTemplateRow; projectCount: number; answered: boolean }): TemplateWithUse => ({
    ...row.template,
    projectCount: row.projectCount,
    answered: row.answered,
  });

  return {
    list(query: SurveyTemplateListQuery, clientId: string | null) {
      const where = and(visibleTo(clientId), filterCondition(query.filter, query.search));
      return runPaged(
        query,
        async (limit, offset) => {
          // Deferred join: the page's ids by index first, then their rows and counts.
          const page = db
            .select({ id: surveyTemplates.id })
            .from(surveyTemplates)
            .where(where)
            .orderBy(...orderByTerms(query.sort, sortColumns, surveyTemplates.id))
            .limit(limit)
            .offset(offset)
            .as('page');
          const rows = await withUse(clientId)
            .innerJoin(page, eq(page.id, surveyTemplates.id))
            .orderBy(...orderByTerms(query.sort, sortColumns, surveyTemplates.id));
          return rows.map(flatten);
        },
        async () => (await db.select({ n: countAll }).from(surveyTemplates).where(where))[0]?.n ?? 0,
      );
    },

    /** The template, if the caller's client may see it (null: a superadmin). */
    async findVisible(id: string, clientId: string | null): Promise<TemplateWithUse | undefined> {
      const [row] = await withUse(clientId).where(and(eq(surveyTemplates.id, id), visibleTo(clientId)));
      return row && flatten(row);
    },

    async findByIds(ids: string[]): Promise<SurveyTemplateRow[]> {
      if (!ids.length) return [];
      return db.select().from(surveyTemplates).where(inArray(surveyTemplates.id, ids));
    },

    async insert(values: typeof surveyTemplates.$inferInsert): Promise<string> {
      const [row] = await db.insert(surveyTemplates).values(values).returning({ id: surveyTemplates.id });
      return row!.id;
    },

    /**
     * Writes only while no project uses the template and nobody has answered it (false: nothing
     * written). The service says which first; this condition holds whatever it missed.
     */
    async updateUnused(id: string, values: Partial<typeof surveyTemplates.$inferInsert>): Promise<boolean> {
      const rows = await db
        .update(surveyTemplates)
        .set(values)
        .where(and(eq(surveyTemplates.id, id), sql`not ${answered}`, sql`not ${usedByAny}`))
        .returning({ id: surveyTemplates.id });
      return rows.length > 0;
    },

    /** The row, locked until the transaction ends (an answer or an attachment must wait for the edit). */
    async lock(id: string, mode: 'update' | 'share' = 'update'): Promise<SurveyTemplateRow | undefined> {
      const [row] = await db.select().from(surveyTemplates).where(eq(surveyTemplates.id, id)).for(mode);
      return row;
    },

    /** The ids a selection names, among those the caller may see. */
    async selected(selection: SurveyTemplateSelection, clientId: string | null): Promise<string[]> {
      const where =
        'ids' in selection
          ? inArray(surveyTemplates.id, selection.ids)
          : and(
              filterCondition(selection.filter, selection.search),
              selection.except.length ? notInArray(surveyTemplates.id, selection.except) : undefined,
            );
      const rows = await db
        .select({ id: surveyTemplates.id })
        .from(surveyTemplates)
        .where(and(where, visibleTo(clientId)));
      return rows.map((r) => r.id);
    },

    /** Of these templates, those a project uses or a participant answered (locked: nothing attaches meanwhile). */
    async inUse(ids: string[]): Promise<{ id: string; name: string }[]> {
      if (!ids.length) return [];
      await db
        .select({ id: surveyTemplates.id })
        .from(surveyTemplates)
        .where(inArray(surveyTemplates.id, ids))
        .for('update');
      return db
        .select({ id: surveyTemplates.id, name: surveyTemplates.name })
        .from(surveyTemplates)
        .where(and(inArray(surveyTemplates.id, ids), sql`(${usedByAny} or ${answered})`))
        .orderBy(asc(surveyTemplates.name));
    },

    async deleteMany(ids: string[]): Promise<string[]> {
      if (!ids.length) return [];
      const rows = await db
        .delete(surveyTemplates)
        .where(inArray(surveyTemplates.id, ids))
        .returning({ id: surveyTemplates.id });
      return rows.map((r) => r.id);
    },

    /** The projects (of the client, when one is named) that use the template, and for which type. */
    async linkedProjects(templateId: string, clientId: string | null) {
      return db
        .select({
          projectId: projects.id,
          projectName: projects.name,
          clientId: clients.id,
          clientName: clients.name,
          type: surveyTemplates.type,
        })
        .from(projectSurveys)
        .innerJoin(projects, eq(projects.id, projectSurveys.projectId))
        .innerJoin(clients, eq(clients.id, projects.clientId))
        .innerJoin(surveyTemplates, eq(surveyTemplates.id, templateId))
        .where(and(uses(sql`${templateId}`), clientId ? eq(projects.clientId, clientId) : undefined))
        .orderBy(asc(clients.name), asc(projects.name));
    },

    async projectSurvey(projectId: string): Promise<ProjectSurveyRow | undefined> {
      const [row] = await db.select().from(projectSurveys).where(eq(projectSurveys.projectId, projectId));
      return row;
    },

    async saveProjectSurvey(
      projectId: string,
      values: Pick<
        ProjectSurveyRow,
        'startNewTemplateId' | 'startReturningTemplateId' | 'reviewTemplateId' | 'endTemplateId'
      >,
      now: Date,
    ): Promise<void> {
      await db
        .insert(projectSurveys)
        .values({ projectId, ...values, updatedAt: now })
        .onConflictDoUpdate({ target: projectSurveys.projectId, set: { ...values, updatedAt: now } });
    },
  };
}

export type SurveysRepository = ReturnType<typeof createSurveysRepository>;
export type { SavedSurveyPage, StoredSurveyAnswer };
