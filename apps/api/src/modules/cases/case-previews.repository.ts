import { and, eq, ilike, or, sql } from 'drizzle-orm';
import type { CaseFeedbackQuery, CasePreviewListQuery } from '@pss/contract';
import { rowsOf, type Executor } from '../../db/client.js';
import { casePreviews, users } from '../../db/schema/index.js';
import { countAll, escapeLike, orderByTerms, runPaged } from '../../lib/list-query.js';
import type { CaseRecord } from './cases.repository.js';

/** Previews taken of cases, and the answer key they are scored against. */
export function createCasePreviewsRepository(db: Executor) {
  return {
    /** The answer key of a case's scored questions, paged in SQL over the stored document. */
    async feedbackPage(id: string, query: CaseFeedbackQuery) {
      const typeFilter = query.filter.type
        ? sql`and q.value->>'type' = ${query.filter.type}`
        : sql`and q.value->>'type' in ('MULTI_ONE', 'MULTI_MANY', 'DROPDOWN')`;
      const direction = query.sort[0]?.direction === 'DESC' ? sql`desc` : sql`asc`;
      const from = sql`from cases c, jsonb_array_elements(c.body->'questions') with ordinality as q(value, position)
        where c.id = ${id} ${typeFilter}`;
      const [items, total] = await Promise.all([
        db.execute(sql`select q.value as question, cast(q.position as integer) as position ${from}
          order by q.position ${direction} limit ${query.limit} offset ${(query.page - 1) * query.limit}`),
        db.execute(sql`select cast(count(*) as integer) as n ${from}`),
      ]);
      return {
        items: rowsOf<{ question: CaseRecord['body']['questions'][number]; position: number }>(items),
        total: rowsOf<{ n: number }>(total)[0]?.n ?? 0,
      };
    },

    async insertPreview(values: typeof casePreviews.$inferInsert): Promise<string> {
      const [row] = await db.insert(casePreviews).values(values).returning({ id: casePreviews.id });
      return row!.id;
    },

    async findPreview(id: string) {
      const [row] = await db
        .select({
          preview: casePreviews,
          takerFirst: users.firstName,
          takerLast: users.lastName,
          takerEmail: users.email,
        })
        .from(casePreviews)
        .innerJoin(users, eq(users.id, casePreviews.takenBy))
        .where(eq(casePreviews.id, id));
      return row;
    },

    async deletePreview(id: string): Promise<void> {
      await db.delete(casePreviews).where(eq(casePreviews.id, id));
    },

    listPreviews(caseId: string, query: CasePreviewListQuery, takenBy: string | undefined) {
      const takerName = sql<string>`trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, ''))`;
      const pattern = query.search ? `%${escapeLike(query.search)}%` : undefined;
      const where = and(
        eq(casePreviews.caseId, caseId),
        takenBy ? eq(casePreviews.takenBy, takenBy) : undefined,
        pattern ? or(ilike(takerName, pattern), ilike(users.email, pattern)) : undefined,
      );
      const sortColumns = {
        completed_at: casePreviews.completedAt,
        score: casePreviews.score,
        name: sql`lower(${takerName})`,
      };
      return runPaged(
        query,
        (limit, offset) =>
          db
            .select({
              id: casePreviews.id,
              name: takerName,
              email: users.email,
              completedAt: casePreviews.completedAt,
              score: casePreviews.score,
            })
            .from(casePreviews)
            .innerJoin(users, eq(users.id, casePreviews.takenBy))
            .where(where)
            .orderBy(...orderByTerms(query.sort, sortColumns, casePreviews.id))
            .limit(limit)
            .offset(offset),
        async () =>
          (
            await db
              .select({ n: countAll })
              .from(casePreviews)
              .innerJoin(users, eq(users.id, casePreviews.takenBy))
              .where(where)
          )[0]?.n ?? 0,
      );
    },
  };
}
export type CasePreviewsRepository = ReturnType<typeof createCasePreviewsRepository>;
