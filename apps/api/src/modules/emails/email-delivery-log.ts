import { and, eq } from 'drizzle-orm';
import type { EmailDeliveryKindValue, EmailDeliveryStatusValue, EmailTypeValue, ListQuery, Paged } from '@pss/contract';
import type { Executor } from '../../db/client.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';
import { emailOutbox, emailTemplates, seasons, users } from '../../db/schema/index.js';

export type DeliveryRow = typeof emailOutbox.$inferSelect & {
  templateType: EmailTypeValue;
  seasonName: string | null;
  firstName: string | null;
  lastName: string | null;
};

const deliverySort = {
  queued_at: emailOutbox.createdAt,
  scheduled_for: emailOutbox.ruleDay,
  status: emailOutbox.status,
} as const;

/** A page of the delivery log: sorted by one of `deliverySort`, filtered by status, kind or email. */
export type DeliveryLogQuery = ListQuery<
  keyof typeof deliverySort,
  { status?: EmailDeliveryStatusValue; kind?: EmailDeliveryKindValue; email_id?: string }
>;

/** The delivery log of a project, paged and sorted in SQL (newest first by the project's own index). */
export async function readDeliveryLog(
  db: Executor,
  projectId: string,
  query: DeliveryLogQuery,
): Promise<Paged<DeliveryRow>> {
  const where = and(
    eq(emailOutbox.projectId, projectId),
    query.filter.status ? eq(emailOutbox.status, query.filter.status) : undefined,
    query.filter.kind ? eq(emailOutbox.kind, query.filter.kind) : undefined,
    query.filter.email_id ? eq(emailOutbox.templateId, query.filter.email_id) : undefined,
    searchCondition(query.search, [emailOutbox.toAddress]),
  );
  return runPaged(
    query,
    async (limit, offset) => {
      const rows = await db
        .select({
          row: emailOutbox,
          templateType: emailTemplates.type,
          seasonName: seasons.name,
          firstName: users.firstName,
          lastName: users.lastName,
        })
        .from(emailOutbox)
        .innerJoin(emailTemplates, eq(emailTemplates.id, emailOutbox.templateId))
        .leftJoin(seasons, eq(seasons.id, emailOutbox.seasonId))
        .leftJoin(users, eq(users.id, emailOutbox.userId))
        .where(where)
        .orderBy(...orderByTerms(query.sort, deliverySort, emailOutbox.id))
        .limit(limit)
        .offset(offset);
      return rows.map((r) => ({
        ...r.row,
        templateType: r.templateType,
        seasonName: r.seasonName,
        firstName: r.firstName,
        lastName: r.lastName,
      }));
    },
    async () => (await db.select({ n: countAll }).from(emailOutbox).where(where))[0]?.n ?? 0,
  );
}
