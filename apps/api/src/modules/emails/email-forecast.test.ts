import { describe, expect, it } from 'vitest';
import type { EmailCalendar } from '@pss/contract';
import { participantAssignments, projectParticipants, userSeasonRoundCases } from '../../db/schema/index.js';
import { call, expectError, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { spring2026 } from '../../../test/fixtures.js';
import { participantWork, type WorkProject } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

/**
 * The season calendar's forecast, from a known history: each future email that stops when a
 * round is completed counts each participant by the share of the history still not done on
 * that day of the round, among those not done today. Also the calendar's today, its rounds
 * with their published cases, and its last day (the season's, not the day after).
 */
const { ctx, f } = twoClientsContext({ now: '2026-03-03T15:00:00Z' });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const adminA = madeBefore(() => createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id }));
const adminB = madeBefore(() => createUser(ctx.db, { role: 'ADMIN', clientId: f.clientB.id }));
const work = participantWork(ctx, staff);

const autumn2025 = {
  name: 'Autumn 2025',
  rounds: [
    { number: 1, start_date: '2025-10-01', end_date: '2025-10-14' },
    { number: 2, start_date: '2025-10-15', end_date: '2025-10-28' },
  ],
};

/**
 * The current season: Ann (from 1 March) and Bob (from 5 March) in rounds 1–4, Cat (from 1 March)
 * in rounds 1–2, who completes round 1 today (3 March). One published case in rounds 1 and 2;
 * rounds 3 and 4 have none.
 */
async function currentSeason(p: WorkProject) {
  const round1 = await work.publishedCase(p, 1, { name: 'Round 1 case' });
  await work.publishedCase(p, 2, { name: 'Round 2 case' });
  await work.enrol(p, f.clientA.id, { startDate: '2026-03-01' }, { lastName: 'Ann' });
  await work.enrol(p, f.clientA.id, { startDate: '2026-03-05' }, { lastName: 'Bob' });
  const cat = await work.enrol(p, f.clientA.id, { startDate: '2026-03-01', last: 2 }, { lastName: 'Cat' });
  await work.complete(cat, round1);
}

const withHistory = madeBefore(async () => {
  const made = await work.project(f.clientA.id, { name: 'Forecast Program', seasons: [autumn2025, spring2026] });
  const seasonId = (name: string) => made.project.seasons.find((s) => s.name === name)!.id;
  const p = { ...made, seasonId: seasonId('Spring 2026') };
  // Autumn 2025: one published case in round 1, none in round 2. Four participants from its
  // start; they submit it 1, 3 and 3 days after the round began, and one never does.
  const autumn = seasonId('Autumn 2025');
  const autumnCase = await work.publishedCase(p, 1, { name: 'Autumn case', season_id: autumn });
  for (const [i, submitted] of ['2025-10-02', '2025-10-04', '2025-10-04', null].entries()) {
    const user = await createUser(ctx.db, { role: 'USER', clientId: f.clientA.id, lastName: `Past ${i}` });
    await ctx.db.insert(projectParticipants).values({
      projectId: p.id,
      userId: user.id,
      sortName: `past ${i}`,
      email: user.email,
      dataStatus: 'READY',
    });
    await ctx.db.insert(participantAssignments).values({
      userId: user.id,
      seasonId: autumn,
      projectId: p.id,
      firstRound: 1,
      lastRound: 2,
      startDate: '2025-10-01',
    });
    await ctx.db.insert(userSeasonRoundCases).values({
      userId: user.id,
      projectId: p.id,
      caseId: autumnCase.id,
      seasonId: autumn,
      roundNumber: 1,
      unlocksOn: '2025-10-01',
      status: submitted ? 'COMPLETE' : 'STARTED',
      submittedAt: submitted ? new Date(`${submitted}T12:00:00Z`) : null,
    });
  }
  await currentSeason(p);
  return p;
});

const noHistory = madeBefore(async () => {
  const p = await work.project(f.clientA.id, { name: 'First Season Program' });
  await currentSeason(p);
  return p;
});

const calendarOf = async (p: WorkProject) => {
  const response = await call(ctx, 'GET', `/projects/${p.id}/email-calendar?season=Spring%202026`, adminA);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<EmailCalendar>();
};

/** Each day's counts as `type count→forecast`, for the days asked. */
const daysOf = (calendar: EmailCalendar, dates: string[]) =>
  Object.fromEntries(
    dates.map((date) => [
      date,
      calendar.days
        .find((d) => d.date === date)!
        .counts.map((c) => `${c.email_type} ${c.count}→${c.forecast}`)
        .sort(),
    ]),
  );

describe('the season calendar’s forecast', () => {
  it('forecasts each future email from the project’s past season', async () => {
    const calendar = await calendarOf(withHistory);
    expect(calendar.today).toBe('2026-03-03');
    expect(calendar.forecast_basis).toEqual({ source: 'PAST_SEASONS', seasons: 1, rounds: 1, participant_rounds: 4 });
    // Still open before day k of the round: 1 up to day 1, ¾ from day 2, ¼ from day 4.
    // Ann (round 1 began 1 March) is at day 2 today: her chances are those over ¾ (⅓ from day 4).
    // Bob's round begins on 5 March: his are the curve's own. Round 2 begins for all on 15 March.
    expect(daysOf(calendar, ['2026-03-03', '2026-03-05', '2026-03-07', '2026-03-09', '2026-03-14'])).toEqual({
      '2026-03-03': ['reminder 1→1'], // today: as it stands
      '2026-03-05': ['initial 1→1', 'reminder 1→0'], // Ann ⅓
      '2026-03-07': ['reminder 2→1'], // Ann ⅓ + Bob ¾ = 1.08
      '2026-03-09': ['reminder 2→1'], // ⅓ + ¼ = 0.58
      '2026-03-14': ['last_day_of_round 2→1'],
    });
    expect(daysOf(calendar, ['2026-03-15', '2026-03-17', '2026-03-19', '2026-03-28'])).toEqual({
      '2026-03-15': ['new_round 3→3'], // day 0: nobody is done before the round opens
      '2026-03-17': ['reminder 3→2'], // 3 × ¾ = 2.25
      '2026-03-19': ['reminder 3→1'], // 3 × ¼ = 0.75
      '2026-03-28': ['last_day_of_round 3→1'],
    });
    // After today: 36 emails at most (nobody completing), 17 expected.
    expect(calendar.ahead).toEqual({ count: 36, forecast: 17 });
  });

  it('draws the season to its last day, names today, and says which rounds have no published case', async () => {
    const calendar = await calendarOf(withHistory);
    expect(calendar.days[0]!.date).toBe('2026-03-01');
    expect(calendar.days.at(-1)!.date).toBe('2026-04-25');
    expect(calendar.days).toHaveLength(56);
    expect(calendar.rounds.map((r) => [r.number, r.start_date, r.end_date, r.published_cases])).toEqual([
      [1, '2026-03-01', '2026-03-14', 1],
      [2, '2026-03-15', '2026-03-28', 1],
      [3, '2026-03-29', '2026-04-11', 0],
      [4, '2026-04-12', '2026-04-25', 0],
    ]);
    // Rounds without a published case send nothing.
    expect(calendar.days.filter((d) => d.date >= '2026-03-29').flatMap((d) => d.counts)).toEqual([]);
  });

  it('without a past season, forecasts from this season’s ended rounds, and with none, forecasts the count', async () => {
    const none = await calendarOf(noHistory);
    expect(none.forecast_basis).toEqual({ source: 'NONE', seasons: 0, rounds: 0, participant_rounds: 0 });
    expect(none.days.flatMap((d) => d.counts).every((c) => c.forecast === c.count)).toBe(true);
    expect(none.ahead).toEqual({ count: 36, forecast: 36 });

    // On 16 March round 1 has ended: Cat did it on day 2, Ann and Bob not at all (⅔ still open from day 3).
    ctx.clock.set('2026-03-16T15:00:00Z');
    try {
      const fallback = await calendarOf(noHistory);
      expect(fallback.today).toBe('2026-03-16');
      expect(fallback.forecast_basis).toEqual({ source: 'THIS_SEASON', seasons: 1, rounds: 1, participant_rounds: 3 });
      // Round 2 began yesterday (day 1 today, nobody done before it): day 2 is 1, from day 3 ⅔ each of three.
      expect(daysOf(fallback, ['2026-03-17', '2026-03-19', '2026-03-28'])).toEqual({
        '2026-03-17': ['reminder 3→3'],
        '2026-03-19': ['reminder 3→2'],
        '2026-03-28': ['last_day_of_round 3→2'],
      });
      expect(fallback.ahead).toEqual({ count: 3 + 5 * 3 + 3, forecast: 3 + 5 * 2 + 2 });
    } finally {
      ctx.clock.set('2026-03-03T15:00:00Z');
    }
  });

  it('is refused to another client’s administrator and to a participant', async () => {
    const url = `/projects/${withHistory.id}/email-calendar`;
    expectError(await call(ctx, 'GET', url, adminB), 404, 'PROJECT_NOT_FOUND');
    const participant = await createUser(ctx.db, { role: 'USER', clientId: f.clientA.id });
    expectError(await call(ctx, 'GET', url, participant), 403, 'FORBIDDEN');
  });
});
