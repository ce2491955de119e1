import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { ClientListQuery } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { capRoster, clients, projects, users } from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';
import { clientFieldSortColumns, clientSearchColumns } from './client-columns.js';

export type ClientRow = typeof clients.$inferSelect;
export type ClientWithCount = ClientRow & { projectCount: number };
export type CapRosterRow = typeof capRoster.$inferSelect;

const sortColumns = {
  ...clientFieldSortColumns,
  // By its index on lower(name): the names' case does not split the list.
  name: sql`lower(${clients.name})`,
  updated_at: clients.updatedAt,
  created_at: clients.createdAt,
};

// Read-only: the number of projects is shown with each client and guards deletion.
// Qualified by hand: inside a subquery drizzle writes columns without their table.
const projectCount = sql<number>`(select cast(count(*) as integer) from ${projects} p where p.client_id = "clients"."id")`;

export function createClientsRepository(db: Db) {
  return {
    /** A page of clients; `onlyClientId` narrows it to one client (an administrator's own). */
    list(query: ClientListQuery, onlyClientId: string | null) {
      const conditions: (SQL | undefined)[] = [
        searchCondition(query.search, clientSearchColumns),
        onlyClientId ? eq(clients.id, onlyClientId) : undefined,
        query.filter.cap_status ? eq(clients.capStatus, query.filter.cap_status) : undefined,
      ];
      const where = and(...conditions);
      const order = orderByTerms(query.sort, sortColumns, clients.id);
      return runPaged(
        query,
        (limit, offset) => {
          // Deferred join: page the ids by index first, then read the rows and their project
          // counts for this page only (OFFSET would otherwise compute them for every row it skips).
          const page = db
            .select({ id: clients.id })
            .from(clients)
            .where(where)
            .orderBy(...order)
            .limit(limit)
            .offset(offset)
            .as('page');
          return db
            .select({ client: clients, projectCount })
            .from(clients)
            .innerJoin(page, eq(page.id, clients.id))
            .orderBy(...order)
            .then((rows) => rows.map((r): ClientWithCount => ({ ...r.client, projectCount: r.projectCount })));
        },
        async () => (await db.select({ n: countAll }).from(clients).where(where))[0]?.n ?? 0,
      );
    },
    async findById(id: string): Promise<ClientWithCount | undefined> {
      const [row] = await db.select({ client: clients, projectCount }).from(clients).where(eq(clients.id, id));
      return row ? { ...row.client, projectCount: row.projectCount } : undefined;
    },
    async capIdTaken(capId: string, exceptId?: string): Promise<boolean> {
      const rows = await db
        .select({ id: clients.id })
        .from(clients)
        .where(and(sql`lower(${clients.capId}) = lower(${capId})`, exceptId ? ne(clients.id, exceptId) : undefined))
        .limit(1);
      return rows.length > 0;
    },
    async insert(values: typeof clients.$inferInsert): Promise<ClientRow> {
      const [row] = await db.insert(clients).values(values).returning();
      if (!row) throw new Error('client not created');
      return row;
    },
    async update(id: string, values: Partial<typeof clients.$inferInsert>, at: Date): Promise<void> {
      await db
        .update(clients)
        .set({ ...values, updatedAt: at })
        .where(eq(clients.id, id));
    },
    /** Deletes a client with its administrators' accounts (their sessions go with them). */
    async delete(id: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(users).where(and(eq(users.clientId, id), eq(users.role, 'ADMIN')));
        await tx.delete(clients).where(eq(clients.id, id));
      });
    },
    async findCap(capId: string): Promise<(CapRosterRow & { clientId: string | null }) | undefined> {
      const [row] = await db
        .select({ entry: capRoster, clientId: clients.id })
        .from(capRoster)
        .leftJoin(clients, sql`lower(${clients.capId}) = lower(${capRoster.capId})`)
        .where(sql`lower(${capRoster.capId}) = lower(${capId})`)
        .limit(1);
      return row ? { ...row.entry, clientId: row.clientId } : undefined;
    },
    /** Replaces the whole roster and brings clients' CAP status in line with it, in one transaction. */
    async replaceCapRoster(entries: { capId: string; name: string; status: string }[], at: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(capRoster);
        for (let i = 0; i < entries.length; i += 500) {
          await tx.insert(capRoster).values(entries.slice(i, i + 500).map((e) => ({ ...e, importedAt: at })));
        }
        await tx.execute(sql`
          update clients set cap_status = cap_roster.status, updated_at = ${at.toISOString()}
          from cap_roster where lower(clients.cap_id) = lower(cap_roster.cap_id)
            and clients.cap_status is distinct from cap_roster.status`);
      });
    },
  };
}
export type ClientsRepository = ReturnType<typeof createClientsRepository>;
