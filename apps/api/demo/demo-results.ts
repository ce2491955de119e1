import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { MarkedAsValue } from '@pss/contract';
import type { Db } from '../src/db/client.js';
import {
  caseAnswers,
  cases,
  diseaseTypes,
  participantAssignments,
  projectDiseaseTypes,
  projectQuestionCategories,
  questionCategories,
  rounds,
  seasons,
  userSeasonRoundCases,
  users,
} from '../src/db/schema/index.js';
import { contentColumns } from '../src/modules/cases/case-content.js';
import { scoreCase } from '../src/modules/cases/scoring.js';

/** The demo participant who completed the Winter Season, and the one who stopped half-way. */
export const DEMO_WINTER_COMPLETER = 'james.chen@northwind.demo.local';
export const DEMO_WINTER_UNFINISHED = 'priya.natarajan@northwind.demo.local';

type Choice = [string, MarkedAsValue];
export interface WinterCase {
  name: string;
  patient: string;
  age: number;
  reason: string;
  round: number;
  questions: [string, category: string, choices: Choice[]][];
}

const winterCases: WinterCase[] = [
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

/** Where a demo case is published: its project, client, season, disease type and the project's categories. */
export interface DemoCasePlace {
  projectId: string;
  clientId: string;
  seasonId: string;
  diseaseTypeId: string | null;
  categories: { id: string; name: string }[];
}

/** Where a season's demo cases go: with the project's disease type of that name and its categories. */
export async function demoCasePlace(
  db: Db,
  where: { projectId: string; clientId: string; seasonId: string },
  diseaseName: string,
): Promise<DemoCasePlace> {
  const [disease] = await db
    .select({ id: diseaseTypes.id })
    .from(diseaseTypes)
    .innerJoin(projectDiseaseTypes, eq(projectDiseaseTypes.diseaseTypeId, diseaseTypes.id))
    .where(and(eq(projectDiseaseTypes.projectId, where.projectId), eq(diseaseTypes.name, diseaseName)));
  const categories = await db
    .select({ id: questionCategories.id, name: questionCategories.name })
    .from(questionCategories)
    .innerJoin(projectQuestionCategories, eq(projectQuestionCategories.questionCategoryId, questionCategories.id))
    .where(eq(projectQuestionCategories.projectId, where.projectId));
  return { ...where, diseaseTypeId: disease?.id ?? null, categories };
}

/** A demo case of multiple-choice questions, published in its round of the season. */
export async function publishDemoCase(db: Db, place: DemoCasePlace, demo: WinterCase) {
  const [row] = await db
    .insert(cases)
    .values({
      ...contentColumns({
        name: demo.name,
        disease_type_id: place.diseaseTypeId,
        patient_name: demo.patient,
        patient_age: demo.age,
        reason_for_encounter: `<p>${demo.reason}</p>`,
        season_id: place.seasonId,
        round_number: demo.round,
        feedback_type: 'PERSONALIZED_FEEDBACK',
        references: '',
        test_results: '',
        explanation: '',
        details_sections: [],
        groupers: [],
        questions: demo.questions.map(([text, category, choices]) => ({
          id: randomUUID(),
          grouper_id: null,
          type: 'MULTI_MANY' as const,
          text,
          text_before: '',
          required: true,
          category_id: place.categories.find((c) => c.name === category)?.id ?? null,
          choices: choices.map(([choice, marked_as]) => ({ id: randomUUID(), text: choice, marked_as })),
          allow_other: false,
          allow_none_of_below: false,
        })),
      }),
      origin: 'CUSTOM',
      clientId: place.clientId,
      projectId: place.projectId,
      status: 'PUBLISHED',
    })
    .returning();
  return row!;
}

/** A demo attempt's score, as the platform scores a submit. */
export function demoScore(
  row: Awaited<ReturnType<typeof publishDemoCase>>,
  answers: { questionId: string; choiceIds: string[] }[],
): number {
  return scoreCase(
    row.body.questions.map((q) => ({
      id: q.id,
      type: q.type,
      choices: q.choices.map((c) => ({ id: c.id, markedAs: c.marked_as ?? 'APPROPRIATE' })),
    })),
    new Map(answers.map((a) => [a.questionId, { choiceIds: a.choiceIds }])),
  ).score;
}

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

function isoDay(from: string, offsetDays: number): string {
  const day = new Date(`${from}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + offsetDays);
  return day.toISOString().slice(0, 10);
}

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
    const score = scoreCase(
      row.body.questions.map((q) => ({
        id: q.id,
        type: q.type,
        choices: q.choices.map((c) => ({ id: c.id, markedAs: c.marked_as ?? 'APPROPRIATE' })),
      })),
      new Map(answers.map((a) => [a.questionId, { choiceIds: a.choiceIds }])),
    ).score;
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
