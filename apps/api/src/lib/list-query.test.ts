import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, sql } from 'drizzle-orm';
import { z } from 'zod';
import { listQuerySchema } from '@pss/contract';
import { clients } from '../db/schema/index.js';
import { openTestDatabase } from '../../test/test-app.js';
import type { Db } from '../db/client.js';
import { countAll, escapeLike, orderByTerms, runPaged, searchCondition } from './list-query.js';

let db: Db;
let drop: () => Promise<void>;

const clientList = listQuerySchema({
  sortable: ['name', 'created_at'] as const,
  defaultSort: [{ field: 'created_at', direction: 'DESC' }],
  filter: z.strictObject({}),
});

async function listClients(raw: Record<string, string>) {
  const query = clientList.parse(raw);
  const where = and(searchCondition(query.search, [clients.name]));
  return runPaged(
    query,
    (limit, offset) =>
      db
        .select({ name: clients.name })
        .from(clients)
        .where(where)
        .orderBy(
          ...orderByTerms(query.sort, { name: sql`lower(${clients.name})`, created_at: clients.createdAt }, clients.id),
        )
        .limit(limit)
        .offset(offset),
    async () => (await db.select({ n: countAll }).from(clients).where(where))[0]?.n ?? 0,
  );
}

beforeAll(async () => {
  const handle = await openTestDatabase();
  db = handle.database.db;
  drop = handle.drop;
  const names = ['alpha', 'Bravo', 'charlie', 'delta', 'echo', '50% Health', '5000 Care'];
  for (const [i, name] of names.entries()) {
    await db.insert(clients).values({ name, createdAt: new Date(Date.UTC(2026, 0, i + 1)) });
  }
});
afterAll(() => drop());

describe('lists in SQL', () => {
  it('pages with a 1-based page and a total', async () => {
    const first = await listClients({ limit: '3', sort: 'name:ASC' });
    expect(first).toEqual({
      items: [{ name: '50% Health' }, { name: '5000 Care' }, { name: 'alpha' }],
      total: 7,
      page: 1,
      limit: 3,
    });
    const third = await listClients({ limit: '3', page: '3', sort: 'name:ASC' });
    expect(third.items).toEqual([{ name: 'echo' }]);
    const beyond = await listClients({ limit: '3', page: '9' });
    expect(beyond).toMatchObject({ items: [], total: 7 });
  });

  it('sorts descending and by the default', async () => {
    expect((await listClients({ sort: 'name:DESC', limit: '2' })).items).toEqual([{ name: 'echo' }, { name: 'delta' }]);
    expect((await listClients({ limit: '1' })).items).toEqual([{ name: '5000 Care' }]);
  });

  it('searches case-insensitively and treats wildcards literally', async () => {
    expect((await listClients({ search: 'BRAV' })).items).toEqual([{ name: 'Bravo' }]);
    const percent = await listClients({ search: '50%' });
    expect(percent.items).toEqual([{ name: '50% Health' }]);
    expect(percent.total).toBe(1);
    expect(escapeLike('a_b\\c%')).toBe('a\\_b\\\\c\\%');
  });
});
