import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Attempt, CaseDocument } from '@pss/contract';
import { caseAnswers, cases, userSeasonRoundCases } from '../../db/schema/index.js';

import { createPglite, openDatabase } from '../../db/client.js';

import { contextOn, createClient, createTestContext, createUser, type TestContext } from '../../../test/test-app.js';
import { participantWork, type Reply } from '../../../test/participant-work.js';
import type { UserRow } from '../users/users.service.js';

/**
 * The test app on a database whose statements each wait a random moment first. PGlite runs
 * one statement at a time, in the order asked; the pauses let two requests' statements
 * interleave in many orders, as they would on a pool of PostgreSQL connections.
 */
async function jitteryTestContext(now: string): Promise<TestContext> {
  if (process.env.TEST_DATABASE_URL) return createTestContext({ now });
  const pglite = createPglite(undefined, { loadDataDir: new Blob([readFileSync(inject('pgliteSnapshotFile'))]) });
  const query = pglite.query.bind(pglite);
  pglite.query = (async (...args: Parameters<typeof query>) => {
    await ticks(Math.floor(Math.random() * 4));
    return query(...args);
  }) as typeof pglite.query;
  const database = await openDatabase({ pglite });
  return contextOn(database, () => database.close(), { now });
}

// Round 1 (1–14 March) has ended: its cases read PUBLISHED, not ACTIVE, and stay unlocked.
let ctx: TestContext;
let clientId: string;
let staff: UserRow;
let work: ReturnType<typeof participantWork>;

beforeAll(async () => {
  ctx = await jitteryTestContext('2026-03-20T12:00:00Z');
  clientId = (await createClient(ctx.db, 'Alpha Health')).id;
  staff = await createUser(ctx.db, { role: 'SUPERADMIN' });
  work = participantWork(ctx, staff);
});
afterAll(() => ctx.close());

function expectError(response: Reply, status: number, errorCode: string): void {
  expect({ status: response.statusCode, errorCode: response.json().errorCode }).toEqual({ status, errorCode });
}

const caseStatus = async (id: string) =>
  (await ctx.db.select({ status: cases.status }).from(cases).where(eq(cases.id, id)))[0]!.status;
const attemptRow = async (id: string) =>
  (await ctx.db.select().from(userSeasonRoundCases).where(eq(userSeasonRoundCases.id, id)))[0]!;
/** Lets `n` turns of the event loop pass. */
async function ticks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}
const storedAnswers = (id: string) =>
  ctx.db.select().from(caseAnswers).where(eq(caseAnswers.userSeasonRoundCaseId, id));

describe('a published case participants have', () => {
  it('stays published once a participant has it, started or not', async () => {
    const p = await work.project(clientId);
    const doc = await work.publishedCase(p, 1, { name: 'On a dashboard' });
    const participant = await work.enrol(p, clientId);
    const attemptId = await work.attemptOf(participant, 'On a dashboard');
    expect((await attemptRow(attemptId)).status).toBe('NOT_STARTED');

    const refused = await work.call('POST', `/cases/${doc.id}/status`, staff, { status: 'DRAFT' });
    expectError(refused, 403, 'CHANGES_FORBIDDEN');
    expect(refused.json().message).toBe('Participants have this case: it stays published.');
    expect(await caseStatus(doc.id)).toBe('PUBLISHED');
    // Nobody else's case is held by it: one no participant has goes back to draft.
    const free = await work.publishedCase(p, null, { name: 'Unplaced' });
    const back = await work.call('POST', `/cases/${free.id}/status`, staff, { status: 'DRAFT' });
    expect(back.statusCode).toBe(200);
    expect(back.json<CaseDocument>().status).toBe('DRAFT');
  });
});

describe('a case that is not published, for a participant', () => {
  it('cannot be started, answered or submitted, and nothing is stored', async () => {
    const p = await work.project(clientId);
    const doc = await work.publishedCase(p, 1, { name: 'Withdrawn' });
    const participant = await work.enrol(p, clientId);
    const attemptId = await work.attemptOf(participant, 'Withdrawn');
    const q = await work.firstQuestion(participant, attemptId);
    // As a draft left by a status change that raced the attempt's creation would be.
    await ctx.db.update(cases).set({ status: 'DRAFT' }).where(eq(cases.id, doc.id));

    const started = await work.call('POST', `/cases/${attemptId}/start`, participant);
    expectError(started, 403, 'CHANGES_FORBIDDEN');
    expect(started.json().message).toBe('This case is not published: it cannot be taken now.');
    const answered = await work.call('POST', `/cases/${attemptId}/answer`, participant, {
      question_id: q.questionId,
      choice_ids: [q.right],
    });
    expectError(answered, 403, 'CHANGES_FORBIDDEN');
    expectError(await work.call('POST', `/cases/${attemptId}/submit`, participant), 403, 'CHANGES_FORBIDDEN');
    expect(await attemptRow(attemptId)).toMatchObject({ status: 'NOT_STARTED', startedAt: null, score: null });
    expect(await storedAnswers(attemptId)).toHaveLength(0);
  });
});

describe('an answer racing a submit', () => {
  it('is either counted in the stored score or refused, never stored and left unscored', async () => {
    const p = await work.project(clientId);
    await work.publishedCase(p, 1, { name: 'Raced' });
    for (let round = 0; round < 20; round++) {
      const participant = await work.enrol(p, clientId);
      const attemptId = await work.attemptOf(participant, 'Raced');
      const q = await work.firstQuestion(participant, attemptId);
      const choiceOf = (index: number, text: string) => q.questions[index]!.choices.find((c) => c.text === text)!.id;
      // Every required question answered, the first one wrongly: 33 until it is put right (100).
      for (const [index, text] of [
        [0, 'Colonoscopy'],
        [1, 'Troponin'],
        [3, 'Admit to cardiology'],
      ] as const) {
        const saved = await work.call('POST', `/cases/${attemptId}/answer`, participant, {
          question_id: q.questions[index]!.id,
          choice_ids: [choiceOf(index, text)],
        });
        expect(saved.statusCode).toBe(200);
      }
      await work.as(participant);

      const [answer, submit] = await Promise.all([
        work.call('POST', `/cases/${attemptId}/answer`, participant, {
          question_id: q.questionId,
          choice_ids: [q.right],
        }),
        work.call('POST', `/cases/${attemptId}/submit`, participant),
      ]);
      expect(submit.statusCode).toBe(200);
      const stored = await attemptRow(attemptId);
      const first = (await storedAnswers(attemptId)).find((a) => a.questionId === q.questionId)!;
      expect(stored.status).toBe('COMPLETE');
      if (answer.statusCode === 200) {
        expect({ choice: first.choiceIds, score: stored.score }).toEqual({ choice: [q.right], score: 100 });
      } else {
        expectError(answer, 403, 'CHANGES_FORBIDDEN');
        expect({ choice: first.choiceIds, score: stored.score }).toEqual({ choice: [q.wrong], score: 33 });
      }
      expect(submit.json<Attempt>().result?.score).toBe(stored.score);
    }
  });
});

describe('an answer to a case answered before (its questions remembered)', () => {
  it('is refused for the same reasons, and saved again once the case row changed under it', async () => {
    const p = await work.project(clientId);
    const doc = await work.publishedCase(p, 1, { name: 'Remembered' });
    const participant = await work.enrol(p, clientId);
    const other = await work.enrol(p, clientId);
    const attemptId = await work.attemptOf(participant, 'Remembered');
    const q = await work.firstQuestion(participant, attemptId);
    const answer = (who: UserRow, body: object) => work.call('POST', `/cases/${attemptId}/answer`, who, body);
    const stored = async () => (await storedAnswers(attemptId)).find((a) => a.questionId === q.questionId)?.choiceIds;

    expect((await answer(participant, { question_id: q.questionId, choice_ids: [q.wrong] })).statusCode).toBe(200);
    // Another participant, with the same attempt's id: not found, as ever.
    expectError(await answer(other, { question_id: q.questionId, choice_ids: [q.right] }), 404, 'NOT_FOUND');
    // An answer that does not fit the question: refused, nothing changed.
    const wrongChoice = await answer(participant, { question_id: q.questionId, choice_ids: [q.questionId] });
    expect(wrongChoice.statusCode).toBe(400);
    expect(await stored()).toEqual([q.wrong]);

    // The case's row changed (a new version of it): checked afresh, and saved.
    await ctx.db.update(cases).set({ updatedAt: new Date() }).where(eq(cases.id, doc.id));
    expect((await answer(participant, { question_id: q.questionId, choice_ids: [q.right] })).statusCode).toBe(200);
    expect(await stored()).toEqual([q.right]);

    await ctx.db.update(cases).set({ status: 'DRAFT' }).where(eq(cases.id, doc.id));
    expectError(
      await answer(participant, { question_id: q.questionId, choice_ids: [q.wrong] }),
      403,
      'CHANGES_FORBIDDEN',
    );
    await ctx.db.update(cases).set({ status: 'PUBLISHED' }).where(eq(cases.id, doc.id));

    await ctx.db.update(userSeasonRoundCases).set({ status: 'COMPLETE' }).where(eq(userSeasonRoundCases.id, attemptId));
    const late = await answer(participant, { question_id: q.questionId, choice_ids: [q.wrong] });
    expectError(late, 403, 'CHANGES_FORBIDDEN');
    expect(late.json().message).toBe('This case is submitted: its answers are final.');
    expect(await stored()).toEqual([q.right]);
  });
});
