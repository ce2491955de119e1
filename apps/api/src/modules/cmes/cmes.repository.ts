import { and, eq } from 'drizzle-orm';
import type { CmeListQuery } from '@pss/contract';
import { issueCertificatesOfCme } from '../../db/certificates.js';
import type { Db } from '../../db/client.js';
import { cmes } from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged } from '../../lib/list-query.js';

export type CmeRow = typeof cmes.$inferSelect;

const sortColumns = {
  min_cases: cmes.minCases,
  credits: cmes.credits,
  updated_at: cmes.updatedAt,
  created_at: cmes.createdAt,
};

export function createCmesRepository(db: Db) {
  return {
    listForProject(projectId: string, query: CmeListQuery) {
      const where = and(
        eq(cmes.projectId, projectId),
        query.filter.moc === undefined ? undefined : eq(cmes.moc, query.filter.moc),
      );
      return runPaged(
        query,
        (limit, offset) =>
          db
            .select()
            .from(cmes)
            .where(where)
            .orderBy(...orderByTerms(query.sort, sortColumns, cmes.id))
            .limit(limit)
            .offset(offset),
        async () => (await db.select({ n: countAll }).from(cmes).where(where))[0]?.n ?? 0,
      );
    },
    async findById(id: string): Promise<CmeRow | undefined> {
      const [row] = await db.select().from(cmes).where(eq(cmes.id, id));
      return row;
    },
    async insert(values: typeof cmes.$inferInsert): Promise<CmeRow> {
      const [row] = await db.insert(cmes).values(values).returning();
      return row!;
    },
    async update(id: string, values: Partial<typeof cmes.$inferInsert>, at: Date): Promise<CmeRow> {
      const [row] = await db
        .update(cmes)
        .set({ ...values, updatedAt: at })
        .where(eq(cmes.id, id))
        .returning();
      return row!;
    },
    /** Certificates of the CME for everyone who already reaches its minimum (db/certificates.ts). */
    issueCertificates: (id: string, at: Date) => issueCertificatesOfCme(db, id, at),
    async delete(id: string): Promise<void> {
      await db.delete(cmes).where(eq(cmes.id, id));
    },
  };
}
export type CmesRepository = ReturnType<typeof createCmesRepository>;
