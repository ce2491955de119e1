import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { CaseDocument, CategoryUse, ConnectedAccount, Paged, ParticipantStatistics } from '@pss/contract';
import { participantAssignments, projectParticipants, userSeasonRoundCases } from '../../db/schema/index.js';
import type { UserRow } from '../users/users.service.js';
import { perfectAnswers } from '../../../test/case-bodies.js';
import { call, expectError, madeBefore, twoClientsContext, type Reply } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

/**
 * Statistics against a hand-worked fixture. Spring 2026 (round 1: 1–14 March, round 2:
 * 15–28, round 3 from 29 March); today is 20 March. Cases: A and B in round 1, C in round
 * 2, D in round 3 (not unlocked yet). Participants, all rounds from 1 March unless said:
 * - never: starts nothing; starter: answers a question of A;
 * - finisher: completes A and B on 18 March and C on 19 March;
 * - partial: completes A on 5 March (outside the chart's two weeks);
 * - late: round 2 only, from 16 March; starts nothing;
 * - a test user and an archived participant complete A on 18 March: never counted.
 */
const { ctx, f } = twoClientsContext({ now: '2026-03-01T12:00:00Z' });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const adminA = madeBefore(() => createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id }));
// Users, not bearer headers made once: signed in again after the fixture moves the clock.
const adminB = madeBefore(() => createUser(ctx.db, { role: 'ADMIN', clientId: f.clientB.id }));
const work = participantWork(ctx, staff);

const fixture = madeBefore(async () => {
  const p = await work.project(f.clientA.id, { name: 'Statistics Program' });
  const docs: Record<string, CaseDocument> = {
    A: await work.publishedCase(p, 1, { name: 'Case A' }),
    B: await work.publishedCase(p, 1, { name: 'Case B' }),
    C: await work.publishedCase(p, 2, { name: 'Case C' }),
    D: await work.publishedCase(p, 3, { name: 'Case D' }),
  };
  const person = async (name: string, role: 'USER' | 'TESTUSER' = 'USER') => {
    const user = await work.enrol(p, f.clientA.id);
    return { ...user, role, name } as UserRow & { name: string };
  };
  const people = {
    never: await person('never'),
    starter: await person('starter'),
    finisher: await person('finisher'),
    partial: await person('partial'),
    late: await person('late'),
    tester: await person('tester'),
    archived: await person('archived'),
  };
  await ctx.db
    .update(participantAssignments)
    .set({ firstRound: 2, lastRound: 2, startDate: '2026-03-16' })
    .where(eq(participantAssignments.userId, people.late.id));
  const { users } = await import('../../db/schema/index.js');
  await ctx.db.update(users).set({ role: 'TESTUSER' }).where(eq(users.id, people.tester.id));

  ctx.clock.set('2026-03-05T10:00:00Z');
  await work.complete(people.partial, docs.A!);
  ctx.clock.set('2026-03-18T10:00:00Z');
  await work.complete(people.finisher, docs.A!);
  await work.complete(people.finisher, docs.B!);
  await work.complete(people.tester, docs.A!);
  await work.complete(people.archived, docs.A!);
  const starterAttempt = await work.attemptOf(people.starter, 'Case A');
  const q = await work.firstQuestion(people.starter, starterAttempt);
  await work.call('POST', `/cases/${starterAttempt}/answer`, people.starter, {
    question_id: q.questionId,
    choice_ids: [q.right],
  });
  ctx.clock.set('2026-03-19T10:00:00Z');
  await work.complete(people.finisher, docs.C!);
  await ctx.db
    .update(projectParticipants)
    .set({ archived: true })
    .where(and(eq(projectParticipants.userId, people.archived.id), eq(projectParticipants.projectId, p.id)));
  ctx.clock.set('2026-03-20T10:00:00Z');
  return { p, docs, people };
});

const season = 'seasonName=Spring%202026';
const stat = (path: string, query = season, caller: object = adminA): Promise<Reply> =>
  call(ctx, 'GET', `/statistics/${fixture.p.id}/${path}?${query}`, caller);
const ok = async <T>(response: Promise<Reply>): Promise<T> => {
  const r = await response;
  expect(r.statusCode, r.body).toBe(200);
  return r.json<T>();
};

describe('a season’s statistics', () => {
  it('participation: started at least one case ÷ assigned', async () => {
    expect(await ok(stat('overal-participation-rate'))).toEqual({ participating: 3, total: 5, rate: 0.6 });
  });

  it('completion of cases unlocked so far, and of participants', async () => {
    expect(await ok(stat('overal-completion-rate', `${season}&type=CASES`))).toEqual({
      type: 'CASES',
      completed: 4,
      total: 13,
      rate: 4 / 13,
    });
    expect(await ok(stat('overal-completion-rate', `${season}&type=PARTICIPANTS`))).toEqual({
      type: 'PARTICIPANTS',
      completed: 1,
      total: 5,
      rate: 0.2,
    });
  });

  it('by round', async () => {
    const { items } = await ok<{ items: unknown[] }>(stat('participation-completion-by-round'));
    expect(items).toEqual([
      { round_number: 1, assigned: 4, participating: 3, completed: 1, participation_rate: 0.75, completion_rate: 0.25 },
      { round_number: 2, assigned: 5, participating: 1, completed: 1, participation_rate: 0.2, completion_rate: 0.2 },
      { round_number: 3, assigned: 4, participating: 0, completed: 0, participation_rate: 0, completion_rate: 0 },
      { round_number: 4, assigned: 4, participating: 0, completed: 0, participation_rate: 0, completion_rate: 0 },
    ]);
  });

  it('per case, with the average score of completed attempts', async () => {
    const { items } = await ok<{ items: { case_id: string }[] }>(stat('case-completion'));
    expect(items.map(({ case_id: _id, ...rest }) => rest)).toEqual([
      {
        case_name: 'Case A',
        round_number: 1,
        assigned: 4,
        started: 3,
        completed: 2,
        completion_rate: 0.5,
        average_score: 100,
      },
      {
        case_name: 'Case B',
        round_number: 1,
        assigned: 4,
        started: 1,
        completed: 1,
        completion_rate: 0.25,
        average_score: 100,
      },
      {
        case_name: 'Case C',
        round_number: 2,
        assigned: 5,
        started: 1,
        completed: 1,
        completion_rate: 0.2,
        average_score: 100,
      },
      {
        case_name: 'Case D',
        round_number: 3,
        assigned: 4,
        started: 0,
        completed: 0,
        completion_rate: 0,
        average_score: null,
      },
    ]);
  });

  it('completions per day over the last two weeks', async () => {
    const { items } = await ok<{ items: { date: string; completed: number }[] }>(stat('completions-by-day'));
    expect(items).toHaveLength(14);
    expect(items[0]!.date).toBe('2026-03-07');
    expect(items[13]!.date).toBe('2026-03-20');
    expect(items.filter((d) => d.completed > 0)).toEqual([
      { date: '2026-03-18', completed: 2 },
      { date: '2026-03-19', completed: 1 },
    ]);
  });

  it('each participant’s progress and scores per round, filtered and paged in SQL', async () => {
    const { people } = fixture;
    const page = await ok<Paged<ParticipantStatistics>>(stat('participants', `${season}&sort=email:ASC`));
    expect(page.total).toBe(5);
    const byId = new Map(page.items.map((i) => [i.user_id, i]));
    expect(byId.has(people.tester.id) || byId.has(people.archived.id)).toBe(false);
    expect(byId.get(people.finisher.id)).toMatchObject({
      progress: 'COMPLETE',
      completed: 3,
      unlocked: 3,
      average_score: 100,
      rounds: [
        { round_number: 1, progress: 'COMPLETE', completed: 2, unlocked: 2, average_score: 100 },
        { round_number: 2, progress: 'COMPLETE', completed: 1, unlocked: 1, average_score: 100 },
        { round_number: 3, progress: 'NOT_STARTED', completed: 0, unlocked: 0, average_score: null },
        { round_number: 4, progress: 'NOT_STARTED', completed: 0, unlocked: 0, average_score: null },
      ],
    });
    expect(byId.get(people.late.id)).toMatchObject({ progress: 'NOT_STARTED', unlocked: 1, average_score: null });
    const inProgress = await ok<Paged<ParticipantStatistics>>(
      stat('participants', `${season}&filter=${encodeURIComponent('{"progress":"IN_PROGRESS"}')}`),
    );
    expect(inProgress.items.map((i) => i.user_id).sort()).toEqual([people.starter.id, people.partial.id].sort());
    const second = await ok<Paged<ParticipantStatistics>>(
      stat('participants', `${season}&sort=email:ASC&limit=2&page=2`),
    );
    expect(second.items.map((i) => i.user_id)).toEqual(page.items.slice(2, 4).map((i) => i.user_id));
    const found = await ok<Paged<ParticipantStatistics>>(
      stat('participants', `${season}&search=${encodeURIComponent(people.finisher.email)}`),
    );
    expect(found.items.map((i) => i.user_id)).toEqual([people.finisher.id]);
  });

  it('the client’s participants who have signed in', async () => {
    const { people } = fixture;
    const page = await ok<Paged<ConnectedAccount>>(stat('client-connected-accounts', ''));
    const ids = page.items.map((i) => i.user_id);
    expect(ids).toEqual(expect.arrayContaining([people.starter.id, people.finisher.id, people.partial.id]));
    expect(ids).not.toContain(people.never.id);
    expect(ids).not.toContain(people.late.id);
    const finisher = page.items.find((i) => i.user_id === people.finisher.id)!;
    expect(finisher.sign_ins).toBeGreaterThanOrEqual(1);
    expect(finisher.first_sign_in <= finisher.last_sign_in).toBe(true);
  });

  it('refuses a season the project does not have, a bad type, and another client’s administrator', async () => {
    expectError(await stat('overal-participation-rate', 'seasonName=Autumn'), 404, 'NOT_FOUND');
    // A required parameter left out (or sent as "null") names itself and the call (spec §5).
    const missing = await stat('overal-participation-rate', '');
    expectError(missing, 400, 'REQUIRED_PARAMETER_MISSING');
    expect(missing.json().message).toBe(
      'Required parameter seasonName was null or undefined when calling GET /api/statistics/:id/overal-participation-rate.',
    );
    const undefinedId = await call(ctx, 'GET', `/statistics/undefined/case-completion?${season}`, adminA);
    expectError(undefinedId, 400, 'REQUIRED_PARAMETER_MISSING');
    expect(undefinedId.json().message).toContain('Required parameter id was null or undefined');
    expectError(await stat('overal-completion-rate', `${season}&type=ROUNDS`), 400, 'VALIDATION_ERROR');
    for (const path of [
      'overal-participation-rate',
      'overal-completion-rate',
      'participation-completion-by-round',
      'case-completion',
      'completions-by-day',
      'participants',
      'client-connected-accounts',
    ]) {
      expect((await stat(path, season, adminB)).statusCode, path).toBe(404);
    }
  });
});

describe('scoring again', () => {
  it('puts back a stored score that differs from its answers, and changes nothing the second time', async () => {
    const { p, people } = fixture;
    await ctx.db
      .update(userSeasonRoundCases)
      .set({ score: 40 })
      .where(and(eq(userSeasonRoundCases.userId, people.finisher.id), eq(userSeasonRoundCases.status, 'COMPLETE')));
    const first = await call(ctx, 'POST', '/statistics/scoring-update', adminA, { project_id: p.id });
    // Every completed attempt is scored again, test users' and archived participants' included.
    expect(first.json()).toEqual({ checked: 6, updated: 3 });
    const again = await call(ctx, 'POST', '/statistics/scoring-update', adminA, { project_id: p.id });
    expect(again.json()).toEqual({ checked: 6, updated: 0 });
    expectError(
      await call(ctx, 'POST', '/statistics/scoring-update', adminB, { project_id: p.id }),
      404,
      'PROJECT_NOT_FOUND',
    );
    expectError(await call(ctx, 'POST', '/statistics/scoring-update', adminA, {}), 400, 'VALIDATION_ERROR');
  });
});

describe('under-use and over-use per question category', () => {
  it('counts necessary choices missed and unnecessary ones chosen in completed cases, per round and the change', async () => {
    const { people, docs } = fixture;
    // Each case has three scored questions, each with one necessary and one unnecessary choice.
    // The starter now completes A choosing Colonoscopy (unnecessary) instead of ECG (necessary).
    const attemptId = await work.attemptOf(people.starter, 'Case A');
    const q = await work.firstQuestion(people.starter, attemptId);
    for (const answer of perfectAnswers(docs.A!)) {
      const body = answer.question_id === q.questionId ? { ...answer, choice_ids: [q.wrong] } : answer;
      expect((await work.call('POST', `/cases/${attemptId}/answer`, people.starter, body)).statusCode).toBe(200);
    }
    expect((await work.call('POST', `/cases/${attemptId}/submit`, people.starter)).statusCode).toBe(200);

    const { items } = await ok<{ items: CategoryUse[] }>(stat('question-categories'));
    expect(items).toHaveLength(1);
    const [diagnosis] = items;
    expect(diagnosis).toMatchObject({
      category_name: 'Diagnosis',
      necessary_offered: 15,
      necessary_missed: 1,
      unnecessary_offered: 15,
      unnecessary_chosen: 1,
      rounds: [
        { round_number: 1, necessary_offered: 12, necessary_missed: 1, unnecessary_offered: 12, unnecessary_chosen: 1 },
        { round_number: 2, necessary_offered: 3, necessary_missed: 0, unnecessary_offered: 3, unnecessary_chosen: 0 },
      ],
    });
    expect(diagnosis!.under_use_rate).toBeCloseTo(1 / 15);
    expect(diagnosis!.under_use_change).toBeCloseTo(-1 / 12);
    expect(diagnosis!.over_use_change).toBeCloseTo(-1 / 12);
    expect((await stat('question-categories', season, adminB)).statusCode).toBe(404);
  });
});
