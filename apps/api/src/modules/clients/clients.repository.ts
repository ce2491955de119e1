import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { ClientListQuery } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { clients } from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';

export type ClientRow = typeof clients.$inferSelect;
const sortColumns = {
  name: sql`lower(${clients.name})`,
  cap_id: clients.capId,
  cap_status: clients.capStatus,
  updated_at: clients.updatedAt,
  created_at: clients.createdAt,
};

export function createClientsRepository(db: Db) {
  return {
    /** A page of clients; `onlyClientId` narrows it to one client (an administrator's own). */
    list(query: ClientListQuery, onlyClientId: string | null) {
      const conditions: (SQL | undefined)[] = [
        searchCondition(query.search, [clients.name, clients.capId]),
        onlyClientId ? eq(clients.id, onlyClientId) : undefined,
      ];
      const where = and(...conditions);
      return runPaged(
        query,
        (limit, offset) =>
          db
            .select()
            .from(clients)
            .where(where)
            .orderBy(...orderByTerms(query.sort, sortColumns, clients.id))
            .limit(limit)
            .offset(offset),
        async () => (await db.select({ n: countAll }).from(clients).where(where))[0]?.n ?? 0,
      );
    },
    async findById(id: string): Promise<ClientRow | undefined> {
      const [row] = await db.select().from(clients).where(eq(clients.id, id)).limit(1);
      return row;
    },
  };
}
export type ClientsRepository = ReturnType<typeof createClientsRepository>;
