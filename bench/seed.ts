import { sql } from 'drizzle-orm';
import type { Db } from '../apps/api/src/db/client.js';
import { clients } from '../apps/api/src/db/schema/index.js';
import { hashPassword } from '../apps/api/src/lib/passwords.js';
import { users } from '../apps/api/src/db/schema/index.js';

export const BENCH_SUPERADMIN = { email: 'bench@bench.local', password: 'bench-password' };

export interface BenchFixture {
  clients: number;
  sampleClientId: string;
}

const words = [
  'Health',
  'Medical',
  'Care',
  'Clinic',
  'Physicians',
  'Partners',
  'Family',
  'Community',
  'Valley',
  'Ridge',
];

/** Seeds the database the benchmark reads; later features add their tables here. */
export async function seedBenchData(db: Db, clientCount: number): Promise<BenchFixture> {
  await db.insert(users).values({
    email: BENCH_SUPERADMIN.email,
    passwordHash: await hashPassword(BENCH_SUPERADMIN.password),
    role: 'SUPERADMIN',
    firstName: 'Bench',
    lastName: 'Runner',
  });
  const batch = 1000;
  for (let start = 0; start < clientCount; start += batch) {
    const rows = Array.from({ length: Math.min(batch, clientCount - start) }, (_, i) => {
      const n = start + i;
      return {
        name: `${words[n % words.length]} ${words[(n * 7) % words.length]} ${n}`,
        capId: n % 3 === 0 ? null : `CAP-${100000 + n}`,
        capStatus: n % 3 === 0 ? null : 'Active',
        createdAt: new Date(Date.UTC(2024, 0, 1) + n * 60_000),
      };
    });
    await db.insert(clients).values(rows);
  }
  await db.execute(sql`analyze`);
  const [sample] = await db.select({ id: clients.id }).from(clients).limit(1);
  return { clients: clientCount, sampleClientId: sample!.id };
}
