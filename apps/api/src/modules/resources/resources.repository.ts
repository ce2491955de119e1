import { and, asc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type {
  ResourceAttachmentStatusValue,
  ResourceCaseUse,
  ResourceFilter,
  ResourceListQuery,
  SortTerm,
} from '@pss/contract';
import { rowsOf, type Executor } from '../../db/client.js';
import {
  caseResources,
  resourceCategories,
  resourceCategoryLinks,
  resources,
  type StoredResourceFile,
} from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';
import { normalLinkKey } from './resource-names.js';

export type ResourceRecord = typeof resources.$inferSelect;
export type NewResource = typeof resources.$inferInsert;
/** A resource with what a list shows beside it: its categories and where it is attached. */
export type ResourceRow = ResourceRecord & {
  categories: { id: string; name: string }[];
  attachmentStatus: ResourceAttachmentStatusValue;
  attachedCaseCount: number;
};

/**
 * Whose cases count for a resource's attachment: every client's (superadmins), or one
 * client's (a client administrator sees nothing of other clients' cases).
 */
export interface AttachmentScope {
  clientId: string | null;
}

// Qualified by hand: inside a subquery Drizzle writes columns without their table.
const attachedCases = (scope: AttachmentScope, activeOnly: boolean): SQL => sql`
  from case_resources cr
  join cases c on c.id = cr.case_id
  left join projects p on p.id = c.project_id
  where cr.resource_id = "resources"."id"
  ${scope.clientId ? sql`and p.client_id = ${scope.clientId}` : sql``}
  ${activeOnly ? sql`and c.status = 'PUBLISHED' and p.status = 'ACTIVE'` : sql``}`;

const attachmentStatus = (scope: AttachmentScope): SQL<ResourceAttachmentStatusValue> => sql`(case
  when exists (select 1 ${attachedCases(scope, true)}) then 'ATTACHED_ACTIVE'
  when exists (select 1 ${attachedCases(scope, false)}) then 'ATTACHED_INACTIVE'
  else 'NOT_ATTACHED' end)`;
const attachedCount = (scope: AttachmentScope): SQL<number> =>
  sql`(select cast(count(*) as integer) ${attachedCases(scope, false)})`;

/** The conditions of the library's search and filter (shared by the list, the export, the picker and bulk delete). */
export function resourceConditions(search: string | undefined, filter: ResourceFilter, scope: AttachmentScope): SQL[] {
  const where: SQL[] = [];
  const searched = searchCondition(search, [resources.name, resources.link]);
  if (searched) where.push(searched);
  if (filter.source_type?.length) where.push(inArray(resources.sourceType, filter.source_type));
  if (filter.category_id) {
    where.push(
      sql`exists (select 1 from resource_category_links l where l.resource_id = "resources"."id" and l.category_id = ${filter.category_id})`,
    );
  }
  if (filter.client_id) {
    where.push(sql`exists (select 1 ${attachedCases({ clientId: filter.client_id }, false)})`);
  }
  if (filter.attachment_status) where.push(sql`${attachmentStatus(scope)} = ${filter.attachment_status}`);
  return where;
}

export function createResourcesRepository(db: Executor) {
  async function withDetails(
    rows: { resource: ResourceRecord; attachmentStatus: ResourceAttachmentStatusValue; attachedCaseCount: number }[],
  ): Promise<ResourceRow[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.resource.id);
    const links = await db
      .select({
        resourceId: resourceCategoryLinks.resourceId,
        id: resourceCategories.id,
        name: resourceCategories.name,
      })
      .from(resourceCategoryLinks)
      .innerJoin(resourceCategories, eq(resourceCategories.id, resourceCategoryLinks.categoryId))
      .where(inArray(resourceCategoryLinks.resourceId, ids))
      .orderBy(sql`lower(${resourceCategories.name})`);
    return rows.map((r) => ({
      ...r.resource,
      attachmentStatus: r.attachmentStatus,
      attachedCaseCount: r.attachedCaseCount,
      categories: links.filter((l) => l.resourceId === r.resource.id).map((l) => ({ id: l.id, name: l.name })),
    }));
  }

  const selection = (scope: AttachmentScope) => ({
    resource: resources,
    attachmentStatus: attachmentStatus(scope),
    attachedCaseCount: attachedCount(scope),
  });

  const sortColumns = {
    name: sql`lower(${resources.name})`,
    source_type: resources.sourceType,
    created_at: resources.createdAt,
    updated_at: resources.updatedAt,
  };

  return {
    list(query: Pick<ResourceListQuery, 'page' | 'limit' | 'search' | 'sort' | 'filter'>, scope: AttachmentScope) {
      const where = and(...resourceConditions(query.search, query.filter, scope));
      return runPaged(
        query,
        async (limit, offset) => {
          // The page's ids by index first; its details and counts for those rows only.
          const page = db
            .select({ id: resources.id })
            .from(resources)
            .where(where)
            .orderBy(...orderByTerms(query.sort, sortColumns, resources.id))
            .limit(limit)
            .offset(offset)
            .as('page');
          const rows = await db
            .select(selection(scope))
            .from(resources)
            .innerJoin(page, eq(page.id, resources.id))
            .orderBy(...orderByTerms(query.sort, sortColumns, resources.id));
          return withDetails(rows);
        },
        async () => (await db.select({ n: countAll }).from(resources).where(where))[0]?.n ?? 0,
      );
    },

    /** Every resource matching, a page at a time in sort order (the export). */
    async *pages(
      search: string | undefined,
      filter: ResourceFilter,
      sort: SortTerm<keyof typeof sortColumns>[],
      pageSize = 500,
    ): AsyncGenerator<ResourceRow[]> {
      const where = and(...resourceConditions(search, filter, { clientId: null }));
      for (let offset = 0; ; offset += pageSize) {
        const rows = await db
          .select(selection({ clientId: null }))
          .from(resources)
          .where(where)
          .orderBy(...orderByTerms(sort, sortColumns, resources.id))
          .limit(pageSize)
          .offset(offset);
        if (!rows.length) return;
        yield withDetails(rows);
        if (rows.length < pageSize) return;
      }
    },

    async findById(id: string, scope: AttachmentScope = { clientId: null }): Promise<ResourceRow | undefined> {
      const rows = await db.select(selection(scope)).from(resources).where(eq(resources.id, id));
      return (await withDetails(rows))[0];
    },

    /** The resource holding a link of this normal form (`normalLinkKey`). */
    async findByLinkKey(linkKey: string): Promise<ResourceRecord | undefined> {
      const [row] = await db.select().from(resources).where(eq(resources.linkKey, linkKey));
      return row;
    },

    /** A new resource; a link's normal form is taken from the link unless given. */
    async insert(values: NewResource): Promise<ResourceRecord> {
      const linkKey = values.linkKey !== undefined ? values.linkKey : values.link ? normalLinkKey(values.link) : null;
      const [row] = await db
        .insert(resources)
        .values({ ...values, linkKey })
        .returning();
      return row!;
    },

    /** An edit; `linkKey` is given with a link whose normal form changed (else the stored key stays). */
    async update(
      id: string,
      values: Partial<Pick<NewResource, 'name' | 'details' | 'link' | 'linkKey' | 'updatedAt'>>,
    ): Promise<boolean> {
      const rows = await db.update(resources).set(values).where(eq(resources.id, id)).returning({ id: resources.id });
      return rows.length > 0;
    },

    async setCategories(resourceId: string, categoryIds: string[]): Promise<void> {
      await db.delete(resourceCategoryLinks).where(eq(resourceCategoryLinks.resourceId, resourceId));
      if (categoryIds.length) {
        await db.insert(resourceCategoryLinks).values(categoryIds.map((categoryId) => ({ resourceId, categoryId })));
      }
    },

    async categories(): Promise<{ id: string; name: string }[]> {
      return db
        .select({ id: resourceCategories.id, name: resourceCategories.name })
        .from(resourceCategories)
        .orderBy(sql`lower(${resourceCategories.name})`, asc(resourceCategories.id));
    },

    async existingCategoryIds(ids: string[]): Promise<string[]> {
      if (!ids.length) return [];
      const rows = await db
        .select({ id: resourceCategories.id })
        .from(resourceCategories)
        .where(inArray(resourceCategories.id, ids));
      return rows.map((r) => r.id);
    },

    /** Finds the category of that name (regardless of case) or makes it. */
    async ensureCategory(name: string): Promise<{ id: string; name: string; created: boolean }> {
      const inserted = await db
        .insert(resourceCategories)
        .values({ name })
        .onConflictDoNothing()
        .returning({ id: resourceCategories.id, name: resourceCategories.name });
      if (inserted[0]) return { ...inserted[0], created: true };
      const [found] = await db
        .select({ id: resourceCategories.id, name: resourceCategories.name })
        .from(resourceCategories)
        .where(sql`lower(${resourceCategories.name}) = lower(${name})`);
      return { ...found!, created: false };
    },

    /** The ids a selection names, locked for a delete (`FOR UPDATE`): attaching waits for it. */
    async lockSelected(
      where: SQL | undefined,
    ): Promise<{ id: string; name: string; file: StoredResourceFile | null; thumbnailKey: string | null }[]> {
      return db
        .select({ id: resources.id, name: resources.name, file: resources.file, thumbnailKey: resources.thumbnailKey })
        .from(resources)
        .where(where)
        .orderBy(resources.id)
        .for('update');
    },

    /** The cases each of these resources is attached to (every client's). */
    async usesOf(ids: string[], today: string): Promise<(ResourceCaseUse & { resource_id: string })[]> {
      if (!ids.length) return [];
      const result = await db.execute(sql`
        select cr.resource_id, c.id as case_id, c.name as case_name,
          case when c.status = 'PUBLISHED' and exists (
            select 1 from rounds r
            where r.season_id = c.season_id and r.number = c.round_number
              and r.start_date <= ${today}::date and r.end_date >= ${today}::date
          ) then 'ACTIVE' else c.status end as case_status,
          p.id as project_id, p.name as project_name, p.status as project_status,
          m.id as module_id, m.name as module_name, cl.id as client_id, cl.name as client_name
        from case_resources cr
        join cases c on c.id = cr.case_id
        left join projects p on p.id = c.project_id
        left join modules m on m.id = c.module_id
        left join clients cl on cl.id = p.client_id
        where cr.resource_id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})
        order by lower(c.name), c.id`);
      return rowsOf<ResourceCaseUse & { resource_id: string }>(result);
    },

    async clientsOf(id: string): Promise<{ id: string; name: string }[]> {
      const result = await db.execute(sql`
        select distinct cl.id, cl.name, lower(cl.name) as sort_name
        from case_resources cr
        join cases c on c.id = cr.case_id
        join projects p on p.id = c.project_id
        join clients cl on cl.id = p.client_id
        where cr.resource_id = ${id}
        order by sort_name, cl.id`);
      return rowsOf<{ id: string; name: string }>(result).map(({ id: clientId, name }) => ({ id: clientId, name }));
    },

    async deleteIds(ids: string[]): Promise<void> {
      if (ids.length) await db.delete(resources).where(inArray(resources.id, ids));
    },

    /** A case's resources in their order. */
    async ofCase(caseId: string, scope: AttachmentScope): Promise<ResourceRow[]> {
      const rows = await db
        .select(selection(scope))
        .from(resources)
        .innerJoin(caseResources, eq(caseResources.resourceId, resources.id))
        .where(eq(caseResources.caseId, caseId))
        .orderBy(asc(caseResources.position));
      return withDetails(rows);
    },

    async existingIds(ids: string[]): Promise<string[]> {
      if (!ids.length) return [];
      const rows = await db.select({ id: resources.id }).from(resources).where(inArray(resources.id, ids)).for('share');
      return rows.map((r) => r.id);
    },

    async setOfCase(caseId: string, resourceIds: string[]): Promise<void> {
      await db
        .delete(caseResources)
        .where(
          resourceIds.length
            ? and(eq(caseResources.caseId, caseId), notInArray(caseResources.resourceId, resourceIds))
            : eq(caseResources.caseId, caseId),
        );
      if (resourceIds.length) {
        await db
          .insert(caseResources)
          .values(resourceIds.map((resourceId, position) => ({ caseId, resourceId, position })))
          .onConflictDoUpdate({
            target: [caseResources.caseId, caseResources.resourceId],
            set: { position: sql`excluded.position` },
          });
      }
    },

    /** Gives each copy of a case the resources of its original, in the same order. */
    async copyAttachments(pairs: { from: string; to: string }[]): Promise<void> {
      for (const { from, to } of pairs) {
        await db.execute(sql`
          insert into case_resources (case_id, resource_id, position)
          select ${to}, resource_id, position from case_resources where case_id = ${from}`);
      }
    },
  };
}

export type ResourcesRepository = ReturnType<typeof createResourcesRepository>;
