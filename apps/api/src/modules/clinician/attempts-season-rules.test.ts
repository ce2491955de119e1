import { beforeEach, describe, expect, it } from 'vitest';
import type { Attempt, Dashboard, Project } from '@pss/contract';
import { expectError } from '../../../test/kit.js';
import { surveySetup } from '../../../test/survey-calls.js';
import type { UserRow } from '../users/users.service.js';

const { answer, attached, ctx, due, requiredAnswers, seasonProject, template, work } = surveySetup();

/**
 * The season's rules a participant's case keeps on the server, whatever a screen shows:
 * the start survey comes before the first case, and a season past its last round's end
 * date takes no new answers until an administrator extends the round.
 */

// Each test starts on 2 March 2026 (round 1 runs); some move the clock past the season.
beforeEach(() => ctx.clock.set('2026-03-02T09:00:00Z'));

const dashboardOf = async (user: UserRow) => (await work.call('GET', '/dashboard', user)).json<Dashboard>();
const attemptView = async (user: UserRow, attemptId: string) =>
  (await work.call('GET', `/users/${attemptId}/questions`, user)).json<Attempt>();

/** Spring 2026's rounds with the last one ending on `lastEnd`, saved as an administrator would. */
function extendLastRound(project: Project, lastEnd: string) {
  const season = project.seasons[0]!;
  return work.call('PUT', `/projects/${project.id}`, undefined, {
    name: project.name,
    status: project.status,
    notes: project.notes,
    disease_types: project.disease_types.map((d) => d.name),
    question_categories: project.question_categories.map((c) => c.name),
    seasons: [
      {
        id: season.id,
        name: season.name,
        rounds: season.rounds.map((r) => ({
          number: r.number,
          start_date: r.start_date,
          end_date: r.number === season.rounds.length ? lastEnd : r.end_date,
        })),
      },
    ],
  });
}

describe('the start survey, kept by the server', () => {
  it('refuses to start or answer a case before the start survey is complete, then lets it go', async () => {
    const { p, participant, attemptId } = await seasonProject();
    const start = await template('Before the first case', 'START_NEW');
    await attached(p.id, { start_new_template_id: start.id });
    const q = await work.firstQuestion(participant, attemptId);

    expectError(await work.call('POST', `/cases/${attemptId}/start`, participant), 409, 'START_SURVEY_REQUIRED');
    expectError(
      await work.call('POST', `/cases/${attemptId}/answer`, participant, {
        question_id: q.questionId,
        choice_ids: [q.right],
      }),
      409,
      'START_SURVEY_REQUIRED',
    );
    expectError(await work.call('POST', `/cases/${attemptId}/submit`, participant), 409, 'START_SURVEY_REQUIRED');
    // Nothing moved: the case is still not started, with no answer.
    const before = await attemptView(participant, attemptId);
    expect(before).toMatchObject({ status: 'NOT_STARTED', answers: [] });

    // Half an answer is not enough.
    await answer(start.id, attemptId, participant, { answers: [], complete: false });
    expectError(await work.call('POST', `/cases/${attemptId}/start`, participant), 409, 'START_SURVEY_REQUIRED');

    expect((await answer(start.id, attemptId, participant, { answers: requiredAnswers(start) })).statusCode).toBe(200);
    expect((await due(participant, attemptId)).start).toBeNull();
    const started = await work.call('POST', `/cases/${attemptId}/start`, participant);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json<Attempt>().status).toBe('STARTED');
  });

  it('asks nothing of a project without a start survey', async () => {
    const { participant, attemptId } = await seasonProject();
    expect((await work.call('POST', `/cases/${attemptId}/start`, participant)).statusCode).toBe(200);
  });
});

describe('a season past its last round', () => {
  it('is closed to new answers, read-only with its results, and not "to do" on the dashboard', async () => {
    const { p, participant, attemptId, docs } = await seasonProject(undefined, ['Answered case', 'Done case']);
    const q = await work.firstQuestion(participant, attemptId);
    const answered = { question_id: q.questionId, choice_ids: [q.right] };
    expect((await work.call('POST', `/cases/${attemptId}/answer`, participant, answered)).statusCode).toBe(200);
    await work.complete(participant, docs[1]!);

    // The season's last round ends on 25 April 2026: on its last day the case is still open.
    ctx.clock.set('2026-04-25T20:00:00Z');
    expect((await dashboardOf(participant)).projects[0]).toMatchObject({ pending_case_count: 1 });

    ctx.clock.set('2026-04-26T09:00:00Z');
    const project = (await dashboardOf(participant)).projects[0]!;
    expect(project.pending_case_count).toBe(0);
    expect(project.next_case).toBeNull();
    const byName = new Map(project.cases.map((c) => [c.case_name, c]));
    expect(byName.get('Answered case')).toMatchObject({ closed: true, closes_on: '2026-04-25', status: 'IN_PROGRESS' });
    expect(byName.get('Done case')).toMatchObject({ closed: true, status: 'COMPLETE' });

    for (const [path, body] of [
      ['start', undefined],
      ['answer', { ...answered, choice_ids: [q.wrong] }],
      ['submit', undefined],
    ] as const) {
      const refused = await work.call('POST', `/cases/${attemptId}/${path}`, participant, body);
      expectError(refused, 409, 'SEASON_CLOSED');
      expect(refused.json<{ message: string }>().message).toContain('Spring 2026 ended on 2026-04-25');
    }
    // Read-only: the answer given stands, and the submitted case still shows its result.
    const view = await attemptView(participant, attemptId);
    expect(view).toMatchObject({ closed: true, status: 'IN_PROGRESS' });
    expect(view.answers.map((a) => a.choice_ids)).toEqual([[q.right]]);
    const done = await attemptView(participant, byName.get('Done case')!.id);
    expect(done.result?.score).toBe(100);

    // An administrator extends the last round: the case is open again.
    const extended = await extendLastRound(p.project, '2026-05-09');
    expect(extended.statusCode, extended.body).toBe(200);
    expect((await dashboardOf(participant)).projects[0]).toMatchObject({ pending_case_count: 1 });
    expect((await work.call('POST', `/cases/${attemptId}/answer`, participant, answered)).statusCode).toBe(200);
  });

  it('refuses an answer on the one-statement path too, for an attempt answered before the season ended', async () => {
    const { participant, attemptId } = await seasonProject();
    const q = await work.firstQuestion(participant, attemptId);
    const answered = { question_id: q.questionId, choice_ids: [q.right] };
    // Answered once: the process knows the attempt, and the next answer takes the fast path.
    expect((await work.call('POST', `/cases/${attemptId}/answer`, participant, answered)).statusCode).toBe(200);
    ctx.clock.set('2026-04-27T09:00:00Z');
    expectError(
      await work.call('POST', `/cases/${attemptId}/answer`, participant, { ...answered, choice_ids: [q.wrong] }),
      409,
      'SEASON_CLOSED',
    );
    expect((await attemptView(participant, attemptId)).answers.map((a) => a.choice_ids)).toEqual([[q.right]]);
  });
});
