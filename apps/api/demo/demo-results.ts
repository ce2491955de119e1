import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { caseAnswers, participantAssignments, seasons, userSeasonRoundCases, users } from '../src/db/schema/index.js';
import { demoCasePlace, demoScore, publishDemoCase, type DemoChoiceCase } from './demo-case-publishing.js';

/** The demo participant who completed the Winter Season, and the one who stopped half-way. */
export const DEMO_WINTER_COMPLETER = 'james.chen@northwind.demo.local';
export const DEMO_WINTER_UNFINISHED = 'priya.natarajan@northwind.demo.local';

const winterCases: DemoChoiceCase[] = [
  {
    name: 'Out of breath on the stairs',
    patient: 'Helen Marsh',
    age: 72,
    reason: 'Breathless after one flight of stairs for a month; ankles swollen by the evening.',
    round: 1,
    questions: [
      [
        'Which tests do you order first?',
        'Diagnosis',
        [
          ['BNP', 'NECESSARY'],
          ['Echocardiogram', 'NECESSARY'],
          ['D-dimer', 'UNNECESSARY'],
        ],
      ],
      [
        'Which medication do you start?',
        'Treatment',
        [
          ['Loop diuretic', 'NECESSARY'],
          ['Beta blocker at full dose', 'UNNECESSARY'],
        ],
      ],
    ],
  },
  {
    name: 'Dizzy after a new tablet',
    patient: 'Arthur Pike',
    age: 64,
    reason: 'Light-headed on standing since starting a new blood-pressure tablet two weeks ago.',
    round: 2,
    questions: [
      [
        'What do you check today?',
        'Diagnosis',
        [
          ['Lying and standing blood pressure', 'NECESSARY'],
          ['Kidney function and potassium', 'NECESSARY'],
          ['Brain MRI', 'UNNECESSARY'],
        ],
      ],
      [
        'When do you see him again?',
        'Follow-up',
        [
          ['Within two weeks', 'NECESSARY'],
          ['In six months', 'UNNECESSARY'],
        ],
      ],
    ],
  },
];

/**
 * The past Winter Season of the running demo project, so that its Season Results Summary
 * has readers: two published cases in its rounds 1 and 2, taken by two participants — one
 * who completed both (and so sees the summary once it is posted) and one who stopped after
 * the first (and does not).
 */
export async function seedDemoResults(db: Db, projectId: string, clientId: string): Promise<void> {
  const [winter] = await db
    .select()
    .from(seasons)
    .where(and(eq(seasons.projectId, projectId), eq(seasons.name, 'Winter Season')));
  if (!winter?.startDate || !winter.endDate) return;
  const place = await demoCasePlace(db, { projectId, clientId, seasonId: winter.id }, 'Heart Failure');
  const placed = [];
  for (const demo of winterCases) placed.push({ row: await publishDemoCase(db, place, demo), round: demo.round });

  const people = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, [DEMO_WINTER_COMPLETER, DEMO_WINTER_UNFINISHED]));
  const roundStart = (round: number) => isoDay(winter.startDate!, (round - 1) * 14);
  for (const person of people) {
    const completer = person.email === DEMO_WINTER_COMPLETER;
    await db.insert(participantAssignments).values({
      userId: person.id,
      seasonId: winter.id,
      projectId,
      firstRound: 1,
      lastRound: 4,
      startDate: winter.startDate,
    });
    for (const [index, { row, round }] of placed.entries()) {
      const done = completer || index === 0;
      // Each answers every necessary choice, but the completer forgets one in the second case.
      const answers = row.body.questions.map((q, qi) => ({
        questionId: q.id,
        choiceIds: q.choices
          .filter((c) => c.marked_as === 'NECESSARY')
          .filter((_, ci) => !(completer && index === 1 && qi === 0 && ci === 1))
          .map((c) => c.id),
      }));
      const score = demoScore(row, answers);
      const startedAt = new Date(`${isoDay(roundStart(round), 2)}T10:00:00Z`);
      const [attempt] = await db
        .insert(userSeasonRoundCases)
        .values({
          userId: person.id,
          projectId,
          caseId: row.id,
          seasonId: winter.id,
          roundNumber: round,
          unlocksOn: roundStart(round),
          status: done ? 'COMPLETE' : 'IN_PROGRESS',
          score: done ? score : null,
          startedAt,
          submittedAt: done ? new Date(startedAt.getTime() + 20 * 60_000) : null,
        })
        .returning({ id: userSeasonRoundCases.id });
      // The one left half-way has answered its first question only.
      const given = done ? answers : answers.slice(0, 1);
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

/** The day `offsetDays` after `from` (both `YYYY-MM-DD`). */
export function isoDay(from: string, offsetDays: number): string {
  const day = new Date(`${from}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + offsetDays);
  return day.toISOString().slice(0, 10);
}
