import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { type Attempt, type CaseAnswer, type CaseDocument, type DashboardProject } from '@pss/contract';
import { type ParticipantProgress } from '@pss/contract';
import { and, eq } from 'drizzle-orm';
import { participantAssignments } from '../../db/schema/index.js';
import { expectError, fieldsOf } from '../../../test/kit.js';
import { choice, questionOf as question } from '../../../test/case-bodies.js';
import { choiceIds, expectedScore, type Spring as ProjectFacts, attemptsSetup } from '../../../test/attempt-calls.js';

const {
  ctx,
  superadmin,
  adminA,
  adminB,
  as,
  call,
  newProject,
  publishedCase,
  enrol,
  dashboardOf,
  attemptOf,
  getAttempt,
  start,
  answer,
  submit,
  complete,
  attemptRow,
  answerCount,
} = attemptsSetup();

describe('submitting a case', () => {
  let p: ProjectFacts;
  let doc: CaseDocument;

  beforeAll(async () => {
    p = await newProject();
    doc = await publishedCase(p, 1, { name: 'Scored' });
    await publishedCase(p, 1, { name: 'Second' });
  });

  it('lists the required questions unanswered, then scores once by the scoring rule', async () => {
    const me = await enrol(p);
    const id = await attemptOf(me, 'Scored');
    const view = (await getAttempt(me, id)).json<Attempt>().case;
    const ids = choiceIds(view);
    const q = view.questions;

    const nothing = await submit(me, id);
    expectError(nothing, 409, 'CASES_NOT_COMPLETED');
    expect(fieldsOf(nothing)).toEqual(['questions.0', 'questions.1', 'questions.3']);

    const given: CaseAnswer[] = [
      { question_id: q[0]!.id, choice_ids: [ids['Chest X-ray']!] },
      { question_id: q[2]!.id, text: 'Stay calm.' },
    ];
    for (const body of given) expect((await answer(me, id, body)).statusCode).toBe(200);
    // Only an empty answer: not an answer.
    expect((await answer(me, id, { question_id: q[1]!.id, choice_ids: [] })).statusCode).toBe(200);
    const missing = await submit(me, id);
    expectError(missing, 409, 'CASES_NOT_COMPLETED');
    expect(missing.json().details?.fields).toEqual([
      expect.objectContaining({ field: 'questions.1', errorCode: 'FIELD_REQUIRED' }),
      expect.objectContaining({ field: 'questions.3', errorCode: 'FIELD_REQUIRED' }),
    ]);
    expect((await attemptRow(id)).status).toBe('IN_PROGRESS');

    given.push(
      { question_id: q[1]!.id, choice_ids: [ids['Troponin']!, ids['Lipase']!] },
      { question_id: q[3]!.id, choice_ids: [ids['Admit to cardiology']!] },
    );
    for (const body of given.slice(2)) expect((await answer(me, id, body)).statusCode).toBe(200);

    ctx.clock.advance(60_000);
    const submitted = await submit(me, id);
    expect(submitted.statusCode).toBe(200);
    const attempt = submitted.json<Attempt>();
    const score = expectedScore(doc, given);
    // (2 necessary chosen − 1 unnecessary) ÷ 4 necessary = 25.
    expect(score).toBe(25);
    expect(attempt).toMatchObject({
      id,
      status: 'COMPLETE',
      result: { score, feedback_type: 'PERSONALIZED_FEEDBACK' },
    });
    expect(attempt.next_case_id).toBe(await attemptOf(me, 'Second'));
    const feedback = Object.fromEntries(attempt.result!.questions.map((f) => [f.text, f]));
    expect(feedback['Which blood tests?']).toMatchObject({
      scored: true,
      necessary_missed: ['CK-MB'],
      unnecessary_chosen: ['Lipase'],
    });
    expect(feedback['First test?']).toMatchObject({ necessary_missed: ['ECG'], unnecessary_chosen: [] });
    expect(feedback['What do you tell the patient?']).toMatchObject({ scored: false, answer_text: 'Stay calm.' });
    expect(attempt.result).toMatchObject({
      explanation: doc.explanation,
      references: doc.references,
      test_results: doc.test_results,
    });
    const stored = await attemptRow(id);
    expect(stored).toMatchObject({ status: 'COMPLETE', score });
    expect(stored.submittedAt?.toISOString()).toBe('2026-03-02T09:01:00.000Z');

    // A second submit answers the same result and records nothing new.
    ctx.clock.advance(60_000);
    const again = await submit(me, id);
    expect(again.statusCode).toBe(200);
    expect(again.json<Attempt>().result?.score).toBe(score);
    expect(again.json<Attempt>().result).toEqual(attempt.result);
    expect((await attemptRow(id)).submittedAt?.toISOString()).toBe('2026-03-02T09:01:00.000Z');

    // Answers are final.
    const late = await answer(me, id, { question_id: q[0]!.id, choice_ids: [ids['ECG']!] });
    expectError(late, 403, 'CHANGES_FORBIDDEN');
    const reread = (await getAttempt(me, id)).json<Attempt>();
    expect(reread.answers.find((a) => a.question_id === q[0]!.id)?.choice_ids).toEqual([ids['Chest X-ray']!]);
    expect(reread.result?.score).toBe(score);

    // The dashboard shows the score.
    const [project] = (await dashboardOf(me)).projects as [DashboardProject];
    expect(project.cases.find((c) => c.id === id)).toMatchObject({ status: 'COMPLETE', score });
  });

  it('notes the score seen and the case finished only after submitting, once', async () => {
    const me = await enrol(p);
    const id = await attemptOf(me, 'Scored');
    for (const path of ['score-accessed', 'finish']) {
      expectError(await call('POST', `/cases/${id}/${path}`, me), 409, 'CASES_NOT_COMPLETED');
    }
    expect(await attemptRow(id)).toMatchObject({ scoreAccessedAt: null, finishedAt: null });

    await complete(me, id);
    ctx.clock.advance(5 * 60_000);
    const accessed = await call('POST', `/cases/${id}/score-accessed`, me);
    expect(accessed.statusCode).toBe(204);
    expect(accessed.body).toBe('');
    ctx.clock.advance(5 * 60_000);
    expect((await call('POST', `/cases/${id}/finish`, me)).statusCode).toBe(204);
    ctx.clock.advance(5 * 60_000);
    // Again: the first moment stays.
    expect((await call('POST', `/cases/${id}/score-accessed`, me)).statusCode).toBe(204);
    expect((await call('POST', `/cases/${id}/finish`, me)).statusCode).toBe(204);

    const row = await attemptRow(id);
    expect(row.scoreAccessedAt?.toISOString()).toBe('2026-03-02T09:05:00.000Z');
    expect(row.finishedAt?.toISOString()).toBe('2026-03-02T09:10:00.000Z');
  });
});

/* ---------- a case participants have started ---------- */

describe('a published case participants have started', () => {
  it('cannot go back to draft nor be deleted; one no participant has can go back', async () => {
    const p = await newProject();
    const started = await publishedCase(p, 1, { name: 'Started' });
    // Unplaced: nobody has it (a placed case is on its participants' dashboards: it stays).
    const untouched = await publishedCase(p, null, { name: 'Untouched' });
    const me = await enrol(p);
    expect((await start(me, await attemptOf(me, 'Started'))).statusCode).toBe(200);

    // Round 1 is over: neither case is active any more, only the start tells them apart.
    ctx.clock.set('2026-03-20T09:00:00Z');
    expect((await call('GET', `/cases/${started.id}`, superadmin)).json<CaseDocument>().status).toBe('PUBLISHED');
    const toDraft = await call('POST', `/cases/${started.id}/status`, superadmin, { status: 'DRAFT' });
    expectError(toDraft, 403, 'CHANGES_FORBIDDEN');
    expect(toDraft.json().message).toBe('Participants have this case: it stays published.');
    expectError(
      await call('DELETE', `/cases/${started.id}`, superadmin),
      409,
      'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN',
    );
    // Even once the participant is no longer assigned to the round, their attempt holds the case.
    await ctx.db
      .delete(participantAssignments)
      .where(and(eq(participantAssignments.userId, me.id), eq(participantAssignments.projectId, p.id)));
    expectError(
      await call('DELETE', `/cases/${started.id}`, superadmin),
      409,
      'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN',
    );
    expect((await call('GET', `/cases/${started.id}`, superadmin)).json<CaseDocument>().status).toBe('PUBLISHED');

    const back = await call('POST', `/cases/${untouched.id}/status`, superadmin, { status: 'DRAFT' });
    expect(back.statusCode).toBe(200);
    expect(back.json<CaseDocument>().status).toBe('DRAFT');
  });
});

/* ---------- an administrator's view of a participant ---------- */

describe('a participant’s progress, for administrators', () => {
  it('counts the cases and the completed ones, for the client’s own staff only', async () => {
    const p = await newProject();
    await publishedCase(p, 1, { name: 'First' });
    await publishedCase(p, 2, { name: 'Second' });
    await publishedCase(p, 3, { name: 'Third' });
    const me = await enrol(p, { firstRound: 1, lastRound: 2 });
    const url = `/users/${me.id}/project/${p.id}`;

    // The admin's call makes the participant's cases, before they ever sign in.
    const before = await call('GET', url, adminA);
    expect(before.statusCode).toBe(200);
    expect(before.json<ParticipantProgress>()).toMatchObject({
      user_id: me.id,
      project_id: p.id,
      completed: 0,
      total: 2,
    });
    expect(before.json<ParticipantProgress>().cases.map((c) => [c.case_name, c.status, c.unlocked])).toEqual([
      ['First', 'NOT_STARTED', true],
      ['Second', 'NOT_STARTED', false],
    ]);

    await complete(me, await attemptOf(me, 'First'));
    const after = await call('GET', url, adminA);
    expect(after.json<ParticipantProgress>()).toMatchObject({ completed: 1, total: 2 });
    expect(after.json<ParticipantProgress>().cases[0]).toMatchObject({
      case_name: 'First',
      status: 'COMPLETE',
      score: 100,
    });
    expect((await call('GET', url, superadmin)).json<ParticipantProgress>()).toMatchObject({ completed: 1, total: 2 });

    expectError(await call('GET', url, adminB), 404, 'PROJECT_NOT_FOUND');
    expectError(await call('GET', url, me), 403, 'FORBIDDEN');
    expectError(await call('GET', `/users/${me.id}/project/${randomUUID()}`, adminA), 404, 'PROJECT_NOT_FOUND');
  });
});

describe('the participants list filtered by progress', () => {
  it('finds participants who have not started, are part-way, or have completed their cases', async () => {
    const p = await newProject();
    await publishedCase(p, 1, { name: 'Alpha' });
    await publishedCase(p, 1, { name: 'Beta' });
    const idle = await enrol(p);
    const halfway = await enrol(p);
    const done = await enrol(p);
    await complete(halfway, await attemptOf(halfway, 'Alpha'));
    await complete(done, await attemptOf(done, 'Alpha'));
    await complete(done, await attemptOf(done, 'Beta'));

    const withProgress = async (progress: string) => {
      const response = await call(
        'GET',
        `/projects/${p.id}/users?filter=${encodeURIComponent(JSON.stringify({ progress }))}`,
        adminA,
      );
      expect(response.statusCode).toBe(200);
      const page = response.json<{ total: number; items: { user_id: string; completed_cases: number }[] }>();
      return { total: page.total, ids: page.items.map((i) => i.user_id).sort(), items: page.items };
    };
    expect(await withProgress('NOT_STARTED')).toMatchObject({ total: 1, ids: [idle.id] });
    expect(await withProgress('IN_PROGRESS')).toMatchObject({ total: 1, ids: [halfway.id] });
    const complete_ = await withProgress('COMPLETE');
    expect(complete_).toMatchObject({ total: 1, ids: [done.id] });
    expect(complete_.items[0]!.completed_cases).toBe(2);
    expectError(
      await call('GET', `/projects/${p.id}/users?filter=${encodeURIComponent('{"progress":"LATE"}')}`, adminA),
      400,
      'VALIDATION_ERROR',
    );
  });
});

/* ---------- answers at the same moment ---------- */

describe('answers sent at the same moment', () => {
  it('stores all 20 answers to different questions of one case', async () => {
    const p = await newProject();
    const questions = Array.from({ length: 20 }, (_, i) =>
      question(p, {
        type: 'MULTI_ONE',
        text: `Question ${i + 1}`,
        choices: [choice(`Right ${i + 1}`, 'NECESSARY'), choice(`Wrong ${i + 1}`, 'UNNECESSARY')],
      }),
    );
    const doc = await publishedCase(p, 1, { name: 'Twenty questions', groupers: [], questions });
    const me = await enrol(p);
    const id = await attemptOf(me, 'Twenty questions');
    const view = (await getAttempt(me, id)).json<Attempt>().case;
    expect(view.questions).toHaveLength(20);
    await as(me);

    const answers = view.questions.map((q) => ({ question_id: q.id, choice_ids: [q.choices[0]!.id] }));
    const replies = await Promise.all(answers.map((body) => answer(me, id, body)));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(await answerCount(id)).toBe(20);
    const read = (await getAttempt(me, id)).json<Attempt>();
    expect(read.status).toBe('IN_PROGRESS');
    expect(read.answers).toHaveLength(20);

    const submitted = await submit(me, id);
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json<Attempt>().result?.score).toBe(expectedScore(doc, answers));
    expect(submitted.json<Attempt>().result?.score).toBe(100);
  });
});
