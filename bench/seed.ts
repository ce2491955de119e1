import { sql } from 'drizzle-orm';
import type { Db } from '../apps/api/src/db/client.js';
import {
  clients,
  diseaseTypes,
  projectDiseaseTypes,
  projectQuestionCategories,
  projects,
  questionCategories,
  rounds,
  seasons,
  users,
} from '../apps/api/src/db/schema/index.js';
import { hashPassword } from '../apps/api/src/lib/passwords.js';

export const BENCH_SUPERADMIN = { email: 'bench@bench.local', password: 'bench-password' };

export interface BenchFixture {
  clients: number;
  projects: number;
  sampleClientId: string;
  sampleProjectId: string;
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
const topics = ['Heart Failure', 'Diabetes', 'Asthma', 'COPD', 'Sepsis', 'Stroke', 'Hypertension', 'Depression'];
const BATCH = 1000;

async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

function isoDay(base: Date, offset: number): string {
  return new Date(base.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Seeds the database the benchmark reads: clients, `projectsPerClient` projects for each
 * with catalogues and one season of four rounds (a third of them running today).
 * Later features add their tables here.
 */
export async function seedBenchData(db: Db, clientCount: number, projectsPerClient: number): Promise<BenchFixture> {
  await db.insert(users).values({
    email: BENCH_SUPERADMIN.email,
    passwordHash: await hashPassword(BENCH_SUPERADMIN.password),
    role: 'SUPERADMIN',
    firstName: 'Bench',
    lastName: 'Runner',
  });
  const clientRows = Array.from({ length: clientCount }, (_, n) => ({
    name: `${words[n % words.length]} ${words[(n * 7) % words.length]} ${n}`,
    capId: n % 3 === 0 ? null : `CAP-${100000 + n}`,
    capStatus: n % 3 === 0 ? null : 'Active',
    createdAt: new Date(Date.UTC(2024, 0, 1) + n * 60_000),
  }));
  const clientIds: string[] = [];
  await insertInBatches(clientRows, async (batch) => {
    const inserted = await db.insert(clients).values(batch).returning({ id: clients.id });
    clientIds.push(...inserted.map((r) => r.id));
  });

  const [diseaseType] = await db.insert(diseaseTypes).values({ name: 'Bench Disease' }).returning();
  const [category] = await db.insert(questionCategories).values({ name: 'Bench Category' }).returning();
  const projectRows = clientIds.flatMap((clientId, c) =>
    Array.from({ length: projectsPerClient }, (_, p) => ({
      clientId,
      name: `${topics[(c + p) % topics.length]} Programme ${c}-${p}`,
      status: (p % 4 === 3 ? 'ARCHIVED' : 'ACTIVE') as 'ACTIVE' | 'ARCHIVED',
      createdAt: new Date(Date.UTC(2024, 0, 1) + (c * projectsPerClient + p) * 60_000),
    })),
  );
  const projectIds: string[] = [];
  await insertInBatches(projectRows, async (batch) => {
    const inserted = await db.insert(projects).values(batch).returning({ id: projects.id });
    projectIds.push(...inserted.map((r) => r.id));
  });
  await insertInBatches(projectIds, (batch) =>
    db.insert(projectDiseaseTypes).values(batch.map((projectId) => ({ projectId, diseaseTypeId: diseaseType!.id }))),
  );
  await insertInBatches(projectIds, (batch) =>
    db
      .insert(projectQuestionCategories)
      .values(batch.map((projectId) => ({ projectId, questionCategoryId: category!.id }))),
  );

  const today = new Date();
  const seasonIds: string[] = [];
  await insertInBatches(
    projectIds.map((projectId, i) => {
      // A third of the seasons run today, the rest are past.
      const start = i % 3 === 0 ? -20 : -200;
      return {
        projectId,
        name: 'Season 1',
        position: 0,
        startDate: isoDay(today, start),
        endDate: isoDay(today, start + 55),
      };
    }),
    async (batch) => {
      const inserted = await db
        .insert(seasons)
        .values(batch)
        .returning({ id: seasons.id, startDate: seasons.startDate });
      seasonIds.push(...inserted.map((r) => `${r.id}|${r.startDate}`));
    },
  );
  await insertInBatches(
    seasonIds.flatMap((entry) => {
      const [seasonId, startDate] = entry.split('|') as [string, string];
      const start = new Date(`${startDate}T00:00:00Z`);
      return [1, 2, 3, 4].map((number) => ({
        seasonId,
        number,
        startDate: isoDay(start, (number - 1) * 14),
        endDate: isoDay(start, (number - 1) * 14 + 13),
      }));
    }),
    (batch) => db.insert(rounds).values(batch),
  );
  await db.execute(sql`analyze`);
  return {
    clients: clientCount,
    projects: projectIds.length,
    sampleClientId: clientIds[Math.floor(clientIds.length / 2)]!,
    sampleProjectId: projectIds[Math.floor(projectIds.length / 2)]!,
  };
}
