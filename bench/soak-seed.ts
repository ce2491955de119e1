/**
 * What the soak (bench/soak.ts) runs on: the answer benchmark's project (a round running
 * today, one published case of ten questions) with enough participants for an hour of
 * answering, a client administrator of its client, a second project of that client that the
 * imports fill, and a few hundred other clients so that the lists are lists.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../apps/api/src/db/client.js';
import { projectParticipants, projects, users } from '../apps/api/src/db/schema/index.js';
import { hashPassword } from '../apps/api/src/lib/passwords.js';
import { ANSWER_BENCH_PASSWORD, seedAnswerBench } from './answers.js';
import { seedBenchData } from './seed.js';

/** The participants' password and the administrator's (the answer benchmark's). */
export const SOAK_PASSWORD = ANSWER_BENCH_PASSWORD;

export interface SoakFixture {
  adminEmail: string;
  projectId: string;
  importProjectId: string;
  participantEmails: string[];
  participantIds: string[];
  /** The project email the manual sends send (its Initial Launch Email), read once the servers run. */
  sendEmailId: string;
}

export async function seedSoak(db: Db, participants: number): Promise<Omit<SoakFixture, 'sendEmailId'>> {
  await seedBenchData(db, 300, 2);
  const answer = await seedAnswerBench(db, participants);
  const [project] = await db.select().from(projects).where(eq(projects.id, answer.projectId));
  const adminEmail = 'soak-admin@soak.local';
  await db.insert(users).values({
    email: adminEmail,
    passwordHash: await hashPassword(SOAK_PASSWORD),
    role: 'ADMIN',
    firstName: 'Soak',
    lastName: 'Administrator',
    clientId: project!.clientId,
  });
  const [importProject] = await db
    .insert(projects)
    .values({ clientId: project!.clientId, name: 'Soak imports' })
    .returning({ id: projects.id });
  const enrolled = await db
    .select({ id: projectParticipants.userId, email: projectParticipants.email })
    .from(projectParticipants)
    .where(eq(projectParticipants.projectId, answer.projectId));
  const idOf = new Map(enrolled.map((r) => [r.email, r.id]));
  return {
    adminEmail,
    projectId: answer.projectId,
    importProjectId: importProject!.id,
    participantEmails: answer.emails,
    participantIds: answer.emails.map((email) => idOf.get(email)!),
  };
}
