import { eq } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { recountParticipants } from '../src/db/participant-counts.js';
import { refreshParticipantSearch } from '../src/db/participant-search.js';
import {
  caseAnswers,
  participantAssignments,
  projectParticipants,
  seasons,
  userSeasonRoundCases,
  users,
} from '../src/db/schema/index.js';
import { demoCasePlace, demoScore, publishDemoCase, type DemoChoiceCase } from './demo-case-publishing.js';

/** How many clinicians took the pilot: enough for every figure of the item analysis. */
export const DEMO_PILOT_PARTICIPANTS = 20;

/**
 * The archived Asthma Pilot 2025's season, taken whole by twenty clinicians of its own, so
 * that its item analysis (the Progress Dashboard's tab, Case Setup's tab, the report) has
 * figures to show: difficulties, discriminations, and one question for each of its flags.
 * Who picks what follows from a clinician's place in the list (0 the least sure, 19 the
 * surest), written out question by question below.
 */
const pilotCases: DemoChoiceCase[] = [
  {
    name: 'Wheeze that wakes him at night',
    patient: 'Leo Hart',
    age: 9,
    reason: 'Coughs and wheezes most nights; uses his blue inhaler four times a week.',
    round: 1,
    questions: [
      [
        'What do you check first?',
        'Treatment',
        [
          ['Inhaler technique', 'NECESSARY'],
          ['Peak flow diary', 'NECESSARY'],
          ['Chest X-ray', 'UNNECESSARY'],
        ],
      ],
      [
        'Which controller do you start?',
        'Treatment',
        [
          ['Low-dose inhaled corticosteroid', 'NECESSARY'],
          ['A course of oral steroids', 'UNNECESSARY'],
          ['Long-acting beta agonist alone', 'UNNECESSARY'],
        ],
      ],
      [
        'When do you see him again?',
        'Treatment',
        [
          ['In four to six weeks', 'NECESSARY'],
          ['Only if he gets worse', 'UNNECESSARY'],
        ],
      ],
    ],
  },
  {
    name: 'Breathless after the school run',
    patient: 'Mia Cole',
    age: 34,
    reason: 'Short of breath most mornings since the autumn, on an inhaled steroid for a year.',
    round: 2,
    questions: [
      [
        'What do you advise about her steroid inhaler?',
        'Treatment',
        [
          ['Rinse the mouth after each dose', 'NECESSARY'],
          ['Use it every day, even when well', 'NECESSARY'],
          ['Stop it when she feels better', 'UNNECESSARY'],
        ],
      ],
      [
        'What do you add first?',
        'Treatment',
        [
          ['A written asthma action plan', 'NECESSARY'],
          ['A second controller inhaler', 'UNNECESSARY'],
        ],
      ],
      [
        'What do you check at the review?',
        'Treatment',
        [
          ['How often she uses her reliever', 'NECESSARY'],
          ['Her inhaler technique', 'NECESSARY'],
        ],
      ],
    ],
  },
];

/**
 * The choices clinician `who` (0–19) picks in question `q` of case `c`, by their texts. The
 * comments say what the item analysis shows of each question.
 */
function picks(c: number, q: number, who: number): string[] {
  const sure = who >= 10;
  if (c === 0 && q === 0) {
    // Almost everyone right: only the least sure forgets the peak flow diary.
    return who === 0 ? ['Inhaler technique'] : ['Inhaler technique', 'Peak flow diary'];
  }
  if (c === 0 && q === 1) {
    // Discriminates: the less sure add oral steroids.
    return who >= 7
      ? ['Low-dose inhaled corticosteroid']
      : ['Low-dose inhaled corticosteroid', 'A course of oral steroids'];
  }
  if (c === 0 && q === 2) {
    // An unnecessary choice often chosen: half wait for him to get worse.
    return sure ? ['In four to six weeks'] : ['Only if he gets worse'];
  }
  if (c === 1 && q === 0) {
    // Almost everyone wrong: the rinse is a necessary choice nearly all miss; the less sure
    // half also let her stop the inhaler when she feels better.
    if (who === 19) return ['Rinse the mouth after each dose', 'Use it every day, even when well'];
    return sure
      ? ['Use it every day, even when well']
      : ['Use it every day, even when well', 'Stop it when she feels better'];
  }
  if (c === 1 && q === 1) {
    // Discriminates the wrong way, clearly enough to be flagged at 20 attempts (r = −0.59,
    // the flag needs −0.43): the surest over-treat and add a second controller, while the
    // rest of the case goes better for them.
    return who >= 13
      ? ['A written asthma action plan', 'A second controller inhaler']
      : ['A written asthma action plan'];
  }
  // Moderate: a third forget to check the technique.
  return who % 3 === 0
    ? ['How often she uses her reliever']
    : ['How often she uses her reliever', 'Her inhaler technique'];
}

const pilotPeople = [
  ['Hannah', 'Brooks', 'MD'],
  ['Omar', 'Haddad', 'DO'],
  ['Grace', 'Lindqvist', 'AS'],
  ['Diego', 'Marín', 'MD'],
  ['Fatima', 'Rahman', 'MSW'],
  ['Jonas', 'Weber', 'MD'],
  ['Ingrid', 'Solberg', 'AS'],
  ['Tariq', 'Aziz', 'DO'],
  ['Lucía', 'Ortega', 'MD'],
  ['Ben', 'Carter', 'MSW'],
  ['Yuki', 'Tanaka', 'MD'],
  ['Amara', 'Nwosu', 'DO'],
  ['Pavel', 'Novak', 'AS'],
  ['Sofia', 'Greco', 'MD'],
  ['Liam', 'Byrne', 'MD'],
  ['Nadia', 'Petrova', 'DO'],
  ['Ethan', 'Walsh', 'MSW'],
  ['Mei', 'Lin', 'MD'],
  ['Kofi', 'Mensah', 'AS'],
  ['Clara', 'Jansen', 'MD'],
] as const;

/** Publishes the pilot's two cases and writes the twenty clinicians' completed work. */
export async function seedDemoPilot(db: Db, projectId: string, clientId: string): Promise<void> {
  const [pilot] = await db.select().from(seasons).where(eq(seasons.projectId, projectId));
  const startDate = pilot?.startDate;
  if (!pilot || !startDate) return;
  const place = await demoCasePlace(db, { projectId, clientId, seasonId: pilot.id }, 'Asthma');
  const published = [];
  for (const demo of pilotCases) published.push(await publishDemoCase(db, place, demo));

  const people = await db
    .insert(users)
    .values(
      pilotPeople.map(([first, last, profession], i) => ({
        email: `pilot.${String(i + 1).padStart(2, '0')}@northwind.demo.local`,
        role: 'USER' as const,
        firstName: first,
        lastName: last,
        salutation: profession === 'MD' || profession === 'DO' ? 'Dr.' : null,
        profession,
        clientId,
        employeeId: `NW-P${101 + i}`,
      })),
    )
    .returning();
  await db.insert(projectParticipants).values(
    people.map((u) => ({
      projectId,
      userId: u.id,
      sortName: `${u.lastName} ${u.firstName}`.toLowerCase(),
      email: u.email,
      dataStatus: 'READY' as const,
    })),
  );
  await db.insert(participantAssignments).values(
    people.map((u) => ({
      userId: u.id,
      seasonId: pilot.id,
      projectId,
      firstRound: 1,
      lastRound: 4,
      startDate,
    })),
  );
  // Its counts as every writer of participants keeps them, archived project or not.
  await recountParticipants(db, projectId);
  await refreshParticipantSearch(db, projectId);
  for (const [who, person] of people.entries()) {
    for (const [c, row] of published.entries()) {
      const round = pilotCases[c]!.round;
      const answers = row.body.questions.map((question, q) => {
        const chosen = picks(c, q, who);
        return {
          questionId: question.id,
          choiceIds: question.choices.filter((x) => chosen.includes(x.text)).map((x) => x.id),
        };
      });
      const unlocked = new Date(`${startDate}T00:00:00Z`);
      unlocked.setUTCDate(unlocked.getUTCDate() + (round - 1) * 14);
      const opened = new Date(unlocked.getTime() + ((who % 7) * 24 + 9) * 3_600_000);
      const [attempt] = await db
        .insert(userSeasonRoundCases)
        .values({
          userId: person.id,
          projectId,
          caseId: row.id,
          seasonId: pilot.id,
          roundNumber: round,
          unlocksOn: unlocked.toISOString().slice(0, 10),
          status: 'COMPLETE',
          score: demoScore(row, answers),
          startedAt: opened,
          submittedAt: new Date(opened.getTime() + (15 + who) * 60_000),
        })
        .returning({ id: userSeasonRoundCases.id });
      await db
        .insert(caseAnswers)
        .values(answers.map((a) => ({ userSeasonRoundCaseId: attempt!.id, ...a, updatedAt: opened })));
    }
  }
}
