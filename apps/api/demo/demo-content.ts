import { refreshParticipantSearch } from '../src/db/participant-search.js';
import { randomBytes } from 'node:crypto';
import type { Db } from '../src/db/client.js';
import { rebuildKeptCounts, seasonsToCount } from '../src/db/kept-counts.js';
import { recountParticipants } from '../src/db/participant-counts.js';
import { sql } from 'drizzle-orm';
import {
  clients,
  cmes,
  participantAssignments,
  projectParticipants,
  rounds,
  seasons,
  users,
} from '../src/db/schema/index.js';
import { hashPassword } from '../src/lib/passwords.js';
import { seedDemoPilot } from './demo-pilot.js';
import type { FileStorage } from '../src/lib/storage.js';
import { seedDemoCases } from './demo-cases.js';
import { seedDemoFeatures } from './demo-features.js';
import { DEMO_NEW_PARTICIPANT } from './demo-participants.js';
import { seedDemoResults } from './demo-results.js';
import { seedDemoSpringProgress } from './demo-spring-progress.js';
import { createProjectsRepository } from '../src/modules/projects/projects.repository.js';
import { createUsersRepository } from '../src/modules/users/users.repository.js';

export interface DemoSignIn {
  role: 'superadmin' | 'admin';
  label: string;
  email: string;
  password: string;
}

const demoClientNames = [
  'Northwind Health',
  'Riverside Medical Group',
  'Summit Family Practice',
  'Lakeside Community Clinics',
  'Harborview Physicians',
  'Maple Valley Health Partners',
  'Cedar Ridge Medical Center',
  'Bluebonnet Primary Care',
  'Granite State Health',
  'Pinecrest Pediatrics',
  'Oak Hollow Family Medicine',
  'Seaside Internal Medicine',
  'Prairie Wind Health System',
  'Silver Creek Clinics',
  'Redwood Coast Medical',
  'Highland Park Physicians',
  'Meadowbrook Health',
  'Golden Gate Primary Care',
  'Evergreen Valley Medical',
  'Sunrise Medical Associates',
  'Willow Bend Health',
  'Stonebridge Clinic',
  'Clearwater Family Health',
  'Aspen Grove Medical',
  'Kingsport Health Network',
  'Bayside Care Partners',
  'Fox River Physicians',
  'Hillcrest Medical Group',
];

/** Demo clients: enough to page through; most are CAP members. */
function demoClients(today: Date): (typeof clients.$inferInsert)[] {
  // Distinct creation times, newest first in the list: Northwind Health on top.
  return demoClientNames.map((name, index) => ({
    name,
    createdAt: new Date(today.getTime() - index * 3_600_000),
    updatedAt: new Date(today.getTime() - index * 3_600_000),
    capId: index % 5 === 2 ? null : `CAP-${10001 + index}`,
    capStatus: index % 5 === 2 ? null : index % 7 === 3 ? 'Inactive' : 'Active',
  }));
}

/** A password that is easy to type from the console but not guessable. */
function demoPassword(): string {
  return `demo-${randomBytes(6).toString('base64url')}`;
}

/**
 * What a newcomer meets on an empty database. Each feature adds its own demo content
 * here, so the app is never empty on first sight.
 */
/** `storage`: where the demo case's patient image is written (none: the demo has no image). */
export async function seedDemoContent(db: Db, today: Date = new Date(), storage?: FileStorage): Promise<DemoSignIn[]> {
  const repository = createUsersRepository(db);
  const insertedClients = await db.insert(clients).values(demoClients(today)).returning();
  const northwind = insertedClients[0];
  if (!northwind) throw new Error('demo clients were not created');

  const demoProjects = await seedDemoProjects(
    db,
    insertedClients.slice(0, 3).map((c) => c.id),
    today,
    storage,
  );

  const superadminPassword = demoPassword();
  const adminPassword = demoPassword();
  const superadmin = await repository.insert({
    email: 'superadmin@demo.local',
    passwordHash: await hashPassword(superadminPassword),
    role: 'SUPERADMIN',
    firstName: 'Dana',
    lastName: 'Provider',
  });
  const admin = await repository.insert({
    email: 'admin@northwind.demo.local',
    passwordHash: await hashPassword(adminPassword),
    role: 'ADMIN',
    firstName: 'Alex',
    lastName: 'Northwind',
    clientId: northwind.id,
  });
  await seedDemoFeatures(db, {
    ...demoProjects,
    superadmin: { userId: superadmin.id, role: 'SUPERADMIN', clientId: null },
    admin: { userId: admin.id, role: 'ADMIN', clientId: northwind.id },
    storage,
    today,
  });
  // The demo's past work was written as rows (attempts before their answers), not through
  // the calls: the dashboard's kept counts are recomputed from it once, as a restore would.
  for (const season of await seasonsToCount(db)) await rebuildKeptCounts(db, season.id);
  return [
    {
      role: 'superadmin',
      label: 'Provider employee (superadmin)',
      email: 'superadmin@demo.local',
      password: superadminPassword,
    },
    {
      role: 'admin',
      label: 'Client administrator (Northwind Health)',
      email: 'admin@northwind.demo.local',
      password: adminPassword,
    },
  ];
}

function isoDay(from: Date, offsetDays: number): string {
  const day = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + offsetDays));
  return day.toISOString().slice(0, 10);
}

/** Four two-week rounds starting `startOffset` days from today. */
function fourRounds(today: Date, startOffset: number) {
  return [1, 2, 3, 4].map((number) => ({
    number,
    start_date: isoDay(today, startOffset + (number - 1) * 14),
    end_date: isoDay(today, startOffset + (number - 1) * 14 + 13),
  }));
}

/** Projects for the first demo clients: one season running now, one past, one ahead. */
async function seedDemoProjects(
  db: Db,
  clientIds: string[],
  today: Date,
  storage?: FileStorage,
): Promise<{ projectId: string; projectIds: string[] }> {
  const projects = createProjectsRepository(db);
  const [northwind, riverside, summit] = clientIds;
  const heartFailure = await projects.create({
    clientId: northwind!,
    name: 'Heart Failure Management 2026',
    status: 'ACTIVE',
    notes: 'Quarterly case simulations for the cardiology and primary-care teams.',
    diseaseTypes: ['Heart Failure', 'Hypertension'],
    questionCategories: ['Diagnosis', 'Treatment', 'Follow-up'],
    seasons: [
      { name: 'Winter Season', rounds: fourRounds(today, -120) },
      { name: 'Spring Season', rounds: fourRounds(today, -20) },
    ],
  });
  const diabetes = await projects.create({
    clientId: northwind!,
    name: 'Type 2 Diabetes Pathways',
    status: 'ACTIVE',
    notes: null,
    diseaseTypes: ['Type 2 Diabetes'],
    questionCategories: ['Diagnosis', 'Treatment'],
    seasons: [{ name: 'Launch Season', rounds: fourRounds(today, 30) }],
  });
  const asthmaPilot = await projects.create({
    clientId: northwind!,
    name: 'Asthma Pilot 2025',
    status: 'ARCHIVED',
    notes: 'Pilot finished; kept for its results.',
    diseaseTypes: ['Asthma'],
    questionCategories: ['Treatment'],
    seasons: [{ name: 'Pilot Season', rounds: fourRounds(today, -300) }],
  });
  await projects.create({
    clientId: riverside!,
    name: 'COPD Care Improvement',
    status: 'ACTIVE',
    notes: null,
    diseaseTypes: ['COPD'],
    questionCategories: ['Diagnosis', 'Follow-up'],
    seasons: [{ name: 'Season 1', rounds: fourRounds(today, -10) }],
  });
  await projects.create({
    clientId: summit!,
    name: 'Pediatric Asthma',
    status: 'ACTIVE',
    notes: null,
    diseaseTypes: ['Asthma'],
    questionCategories: ['Diagnosis'],
    seasons: [],
  });
  await seedDemoParticipants(db, heartFailure, northwind!, today);
  await seedDemoCases(db, heartFailure, northwind!, storage);
  await seedDemoResults(db, heartFailure, northwind!);
  await seedDemoSpringProgress(db, heartFailure, today);
  // The archived pilot kept for its results: twenty clinicians' work, for its item analysis.
  await seedDemoPilot(db, asthmaPilot, northwind!);
  await db.insert(cmes).values([
    { projectId: heartFailure, minCases: 4, credits: 2, moc: true, toteraCourseId: 'HF-2026-A' },
    {
      projectId: heartFailure,
      minCases: 8,
      credits: 4.5,
      moc: true,
      toteraCourseId: 'HF-2026-B',
      custom: 'Awarded for eight completed cases of Heart Failure Management 2026.',
    },
  ]);
  return { projectId: heartFailure, projectIds: [heartFailure, diabetes] };
}

const demoPeople = [
  ['Dr.', 'Maria', 'Alvarez', 'MD'],
  ['Dr.', 'James', 'Chen', 'DO'],
  ['Ms.', 'Priya', 'Natarajan', 'AS'],
  ['Mr.', 'Tom', 'Becker', 'MSW'],
  ['Dr.', 'Aisha', 'Okafor', 'MD'],
  ['Dr.', 'Lars', 'Nilsson', 'MD'],
  ['Ms.', 'Chloé', 'Dubois', 'AS'],
  ['Dr.', 'Samuel', 'Adeyemi', 'DO'],
  ['Mr.', 'Kenji', 'Watanabe', 'MSW'],
  ['Dr.', 'Elena', 'Popescu', 'MD'],
  ['Dr.', 'Noah', 'Fischer', 'DO'],
  ['Ms.', 'Zoë', 'Łukasik', 'AS'],
] as const;

/** Participants of the running project: most assigned to its current season, two not yet. */
async function seedDemoParticipants(db: Db, projectId: string, clientId: string, today: Date): Promise<void> {
  const [current] = await db
    .select()
    .from(seasons)
    .where(sql`${seasons.projectId} = ${projectId} and ${seasons.name} = 'Spring Season'`);
  const inserted = await db
    .insert(users)
    .values(
      demoPeople.map(([salutation, first, last, profession], i) => ({
        email: `${first
          .toLowerCase()
          .normalize('NFD')
          .replace(/[^a-z]/g, '')}.${last
          .toLowerCase()
          .normalize('NFD')
          .replace(/[^a-z]/g, '')}@northwind.demo.local`,
        role: (i % 5 === 4 ? 'HALFUSER' : 'USER') as 'USER' | 'HALFUSER',
        firstName: first,
        lastName: last,
        salutation,
        profession,
        clientId,
        employeeId: `NW-${1001 + i}`,
      })),
    )
    .returning();
  await db.insert(projectParticipants).values(
    inserted.map((u, i) => ({
      projectId,
      userId: u.id,
      sortName: `${u.lastName} ${u.firstName}`.toLowerCase(),
      email: u.email,
      dataStatus: (i < 10 ? 'READY' : 'NOT_READY') as 'READY' | 'NOT_READY',
    })),
  );
  await refreshParticipantSearch(db, projectId);
  if (current?.startDate) {
    const todayIso = isoDay(today, 0);
    const [running] = await db
      .select({ number: rounds.number })
      .from(rounds)
      .where(
        sql`${rounds.seasonId} = ${current.id} and ${rounds.startDate} <= ${todayIso} and ${rounds.endDate} >= ${todayIso}`,
      );
    await db.insert(participantAssignments).values(
      inserted.slice(0, 10).map((u, i) => {
        // The newcomer joins today, in the round running now.
        const joinsToday = u.email === DEMO_NEW_PARTICIPANT && running;
        return {
          userId: u.id,
          seasonId: current.id,
          projectId,
          firstRound: joinsToday ? running.number : i % 3 === 1 ? 2 : 1,
          lastRound: 4,
          startDate: joinsToday ? todayIso : current.startDate!,
        };
      }),
    );
  }
  await recountParticipants(db, projectId);
}
