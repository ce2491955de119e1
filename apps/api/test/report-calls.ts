import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Attempt } from '@pss/contract';
import { refreshParticipantSearch } from '../src/db/participant-search.js';
import { users } from '../src/db/schema/index.js';
import type { UserRow } from '../src/modules/users/users.repository.js';
import { everyTypeCase } from './case-bodies.js';
import * as kit from './kit.js';
import { madeBefore, testContext } from './kit.js';
import { participantWork } from './participant-work.js';
import { createClient, createUser, type TestContext } from './test-app.js';

export { attachmentName, csvRows, xlsxRows } from './report-files.js';

/**
 * The reports tests' world (reports*.test.ts), made once per test file on 20 March 2026
 * (Spring 2026's round 2 runs), and how they read a report back from CSV and from XLSX.
 *
 * Project "Cardio Pilot" of client A, question categories Diagnosis and Therapy; cases of
 * every question type (the disposition question is Therapy's, the others Diagnosis's):
 * Alpha chest pain and Beta fever in round 1, Gamma cough in round 2, Delta headache in
 * round 3, nothing in round 4. Participants, in name order:
 *  - Nora Adams: rounds 1-4, never signs in;
 *  - Sam Baker: rounds 1-4, has answered the first question of Alpha;
 *  - Fay Clark: rounds 1-4, completed Alpha (100), Beta (50) and Gamma (100);
 *  - `=HYPERLINK("http://evil.example","x")` Young, user ID `+cmd`: round 2 only, completed Gamma (50);
 *  - left out of every report: Tess Tester (TESTUSER) and Ivy Archer (archived), each
 *    having completed Alpha (100).
 * A perfect answer picks every necessary choice; a half answer picks ECG, Troponin and
 * Lipase, and Admit: 3 of 4 necessary, 1 unnecessary → 50, with Diagnosis under-use 33.3 %
 * (CK-MB of 3 necessary) and over-use 50 % (Lipase of 2 unnecessary), Therapy 0 and 0.
 */
export const NOW = '2026-03-20T09:00:00Z';
export const AT = '2026-03-20 09:00:00';
export const FORMULA_NAME = '=HYPERLINK("http://evil.example","x")';

async function buildReportWorld(ctx: TestContext) {
  const clientA = await createClient(ctx.db, 'Alpha Health');
  const clientB = await createClient(ctx.db, 'Bravo Medical');
  const superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
  const adminA = await createUser(ctx.db, { role: 'ADMIN', clientId: clientA.id });
  const adminB = await createUser(ctx.db, { role: 'ADMIN', clientId: clientB.id });
  const work = participantWork(ctx, superadmin);
  const p = await work.project(clientA.id, { name: 'Cardio Pilot', question_categories: ['Diagnosis', 'Therapy'] });
  const categoryId = (name: string) => p.project.question_categories.find((c) => c.name === name)!.id;
  const { questions, groupers } = everyTypeCase({
    diseaseTypeId: p.diseaseTypeId,
    categoryId: categoryId('Diagnosis'),
  });
  questions[3] = { ...questions[3]!, category_id: categoryId('Therapy') };
  for (const [name, round] of [
    ['Alpha chest pain', 1],
    ['Beta fever', 1],
    ['Gamma cough', 2],
    ['Delta headache', 3],
  ] as const) {
    await work.publishedCase(p, round, { name, questions, groupers });
  }

  const clientId = clientA.id;
  const never = await work.enrol(p, clientId, {}, { firstName: 'Nora', lastName: 'Adams' });
  const starter = await work.enrol(p, clientId, {}, { firstName: 'Sam', lastName: 'Baker' });
  const finisher = await work.enrol(p, clientId, {}, { firstName: 'Fay', lastName: 'Clark' });
  const formula = await work.enrol(p, clientId, { first: 2, last: 2 }, { firstName: FORMULA_NAME, lastName: 'Young' });
  await ctx.db.update(users).set({ employeeId: '+cmd' }).where(eq(users.id, formula.id));
  const tester = await work.enrol(p, clientId, {}, { firstName: 'Tess', lastName: 'Tester', role: 'TESTUSER' });
  const archived = await work.enrol(p, clientId, {}, { firstName: 'Ivy', lastName: 'Archer' });
  // Enrolled directly, not imported: their search rows are made as an import's follow-up would.
  await refreshParticipantSearch(ctx.db, p.id);

  /** Answers a case: its first question only, every necessary choice, or the half answer above. */
  async function take(user: UserRow, caseName: string, how: 'first' | 'perfect' | 'half'): Promise<void> {
    const id = await work.attemptOf(user, caseName);
    const view = (await work.call('GET', `/users/${id}/questions`, user)).json<Attempt>().case;
    const choice = (text: string) => view.questions.flatMap((q) => q.choices).find((c) => c.text === text)!.id;
    const q = view.questions;
    const answers = [
      { question_id: q[0]!.id, choice_ids: [choice('ECG')] },
      {
        question_id: q[1]!.id,
        choice_ids: how === 'half' ? [choice('Troponin'), choice('Lipase')] : [choice('Troponin'), choice('CK-MB')],
      },
      { question_id: q[3]!.id, choice_ids: [choice('Admit to cardiology')] },
    ];
    for (const body of how === 'first' ? answers.slice(0, 1) : answers) {
      expect((await work.call('POST', `/cases/${id}/answer`, user, body)).statusCode).toBe(200);
    }
    if (how !== 'first') expect((await work.call('POST', `/cases/${id}/submit`, user)).statusCode).toBe(200);
  }
  await take(starter, 'Alpha chest pain', 'first');
  await take(finisher, 'Alpha chest pain', 'perfect');
  await take(finisher, 'Beta fever', 'half');
  await take(finisher, 'Gamma cough', 'perfect');
  await take(formula, 'Gamma cough', 'half');
  await take(tester, 'Alpha chest pain', 'perfect');
  await take(archived, 'Alpha chest pain', 'perfect');
  const archiving = await kit.call(ctx, 'PUT', `/users/${archived.id}/${p.id}/archive`, adminA);
  expect(archiving.statusCode).toBe(200);

  return { clientA, clientB, superadmin, adminA, adminB, project: p, never, starter, finisher, formula, tester };
}

/** The reports tests' context and world; importing this gives the test file its own. */
export function reportsSetup() {
  const ctx = testContext({ now: NOW });
  const world = madeBefore(() => buildReportWorld(ctx));

  /** A report of the world's project (`path` after `/reports/{projectId}/`), as client A's administrator unless told. */
  const report = (path: string, query: Record<string, string> = {}, caller: kit.Caller = world.adminA) => {
    const search = new URLSearchParams(query).toString();
    return kit.call(ctx, 'GET', `/reports/${world.project.id}/${path}${search ? `?${search}` : ''}`, caller);
  };

  return { ctx, world, report };
}

export const person = (user: UserRow, userId = '') => [user.lastName, user.firstName, user.email, userId, ''];
