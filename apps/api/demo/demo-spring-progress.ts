import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import {
  caseAnswers,
  cases,
  participantAssignments,
  rounds,
  seasons,
  userSeasonRoundCases,
  users,
} from '../src/db/schema/index.js';
import { demoScore } from './demo-case-publishing.js';
import { isoDay } from './demo-results.js';

/**
 * The running Spring Season's work in the last two weeks, so that the Progress Dashboard
 * has figures and charts to show: which demo participant did what, and how many days ago.
 * Maria Alvarez, James Chen and Priya Natarajan are left as they are (the browser flows play
 * them); a negative `slip` misses a necessary choice, a positive one picks an unnecessary one.
 */
const springWork: { email: string; round: number; daysAgo: number; done: boolean; slip: number }[] = [
  { email: 'tom.becker@northwind.demo.local', round: 1, daysAgo: 12, done: true, slip: 0 },
  { email: 'tom.becker@northwind.demo.local', round: 2, daysAgo: 4, done: true, slip: -1 },
  { email: 'aisha.okafor@northwind.demo.local', round: 2, daysAgo: 2, done: true, slip: 1 },
  { email: 'lars.nilsson@northwind.demo.local', round: 1, daysAgo: 10, done: true, slip: -1 },
  { email: 'lars.nilsson@northwind.demo.local', round: 2, daysAgo: 1, done: false, slip: 0 },
  { email: 'chloe.dubois@northwind.demo.local', round: 1, daysAgo: 10, done: true, slip: 1 },
  { email: 'chloe.dubois@northwind.demo.local', round: 2, daysAgo: 0, done: true, slip: 0 },
  { email: 'samuel.adeyemi@northwind.demo.local', round: 2, daysAgo: 3, done: false, slip: 0 },
  { email: 'kenji.watanabe@northwind.demo.local', round: 1, daysAgo: 8, done: true, slip: -1 },
];

export async function seedDemoSpringProgress(db: Db, projectId: string, today: Date): Promise<void> {
  const [spring] = await db
    .select()
    .from(seasons)
    .where(and(eq(seasons.projectId, projectId), eq(seasons.name, 'Spring Season')));
  if (!spring) return;
  const published = await db
    .select()
    .from(cases)
    .where(and(eq(cases.projectId, projectId), eq(cases.seasonId, spring.id), eq(cases.status, 'PUBLISHED')));
  const people = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      inArray(
        users.email,
        springWork.map((w) => w.email),
      ),
    );
  const assignments = await db
    .select()
    .from(participantAssignments)
    .where(eq(participantAssignments.seasonId, spring.id));
  const springRounds = await db.select().from(rounds).where(eq(rounds.seasonId, spring.id));
  const todayIso = today.toISOString().slice(0, 10);
  for (const work of springWork) {
    const person = people.find((p) => p.email === work.email);
    const assignment = assignments.find((a) => a.userId === person?.id);
    const row = published.find((c) => c.roundNumber === work.round);
    const round = springRounds.find((r) => r.number === work.round);
    if (!person || !assignment || !row || !round || work.round < assignment.firstRound) continue;
    const choiceQuestions = row.body.questions.filter((q) => q.choices.length > 0);
    const answers = choiceQuestions.map((q, qi) => {
      const necessary = q.choices.filter((c) => c.marked_as === 'NECESSARY').map((c) => c.id);
      const unnecessary = q.choices.filter((c) => c.marked_as === 'UNNECESSARY').map((c) => c.id);
      if (qi !== 0 || work.slip === 0) return { questionId: q.id, choiceIds: necessary };
      return work.slip < 0
        ? { questionId: q.id, choiceIds: necessary.slice(1) }
        : { questionId: q.id, choiceIds: [...necessary, ...unnecessary.slice(0, 1)] };
    });
    const score = demoScore(row, answers);
    const day = isoDay(todayIso, -work.daysAgo);
    const startedAt = new Date(`${day}T09:00:00Z`);
    const unlocksOn = round.startDate > assignment.startDate ? round.startDate : assignment.startDate;
    const [attempt] = await db
      .insert(userSeasonRoundCases)
      .values({
        userId: person.id,
        projectId,
        caseId: row.id,
        seasonId: spring.id,
        roundNumber: work.round,
        unlocksOn,
        status: work.done ? 'COMPLETE' : 'IN_PROGRESS',
        score: work.done ? score : null,
        startedAt,
        submittedAt: work.done ? new Date(startedAt.getTime() + 25 * 60_000) : null,
      })
      .returning({ id: userSeasonRoundCases.id });
    const given = work.done ? answers : answers.slice(0, 1);
    if (given.length > 0) {
      await db.insert(caseAnswers).values(
        given.map((a) => ({
          userSeasonRoundCaseId: attempt!.id,
          questionId: a.questionId,
          choiceIds: a.choiceIds,
          updatedAt: startedAt,
        })),
      );
    }
  }
}
