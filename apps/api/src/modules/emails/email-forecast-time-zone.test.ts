import { describe, expect, it } from 'vitest';
import type { EmailCalendar } from '@pss/contract';
import { participantAssignments, userSeasonRoundCases } from '../../db/schema/index.js';
import { call, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { spring2026 } from '../../../test/fixtures.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

/**
 * The season calendar's days are the schedule's (SCHEDULE_TIME_ZONE), not UTC's: at 21:00 in
 * Chicago on 3 March (3:00 on the 4th in UTC) today is the 3rd, and a case submitted late in
 * the evening in Chicago completes its round that evening's day in the forecast's history.
 */
const { ctx, f } = twoClientsContext({
  now: '2026-03-04T03:00:00Z',
  env: { SCHEDULE_TIME_ZONE: 'America/Chicago' },
});
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const adminA = madeBefore(() => createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id }));
const work = participantWork(ctx, staff);

const fixture = madeBefore(async () => {
  const autumn2025 = { name: 'Autumn 2025', rounds: [{ number: 1, start_date: '2025-10-01', end_date: '2025-10-14' }] };
  const made = await work.project(f.clientA.id, { name: 'Chicago Program', seasons: [autumn2025, spring2026] });
  const seasonId = (name: string) => made.project.seasons.find((s) => s.name === name)!.id;
  const p = { ...made, seasonId: seasonId('Spring 2026') };
  const autumn = seasonId('Autumn 2025');
  const autumnCase = await work.publishedCase(p, 1, { name: 'Autumn case', season_id: autumn });
  // Two submit at 22:00 on 2 October in Chicago (3 October in UTC): day 1 of the round; one never.
  for (const submitted of ['2025-10-03T03:00:00Z', '2025-10-03T03:00:00Z', null]) {
    const user = await createUser(ctx.db, { role: 'USER', clientId: f.clientA.id });
    await ctx.db.insert(participantAssignments).values({
      userId: user.id,
      seasonId: autumn,
      projectId: p.id,
      firstRound: 1,
      lastRound: 1,
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
      submittedAt: submitted ? new Date(submitted) : null,
    });
  }
  await work.publishedCase(p, 1, { name: 'Round 1 case' });
  await work.enrol(p, f.clientA.id, { startDate: '2026-03-01', last: 1 }, { lastName: 'Ann' });
  return p;
});

describe('the season calendar in the schedule’s time zone', () => {
  it('takes today and the history’s completion days in SCHEDULE_TIME_ZONE', async () => {
    const response = await call(ctx, 'GET', `/projects/${fixture.id}/email-calendar?season=Spring%202026`, adminA);
    expect(response.statusCode, response.body).toBe(200);
    const calendar = response.json<EmailCalendar>();
    expect(calendar.today).toBe('2026-03-03');
    expect(calendar.days.at(-1)!.date).toBe('2026-04-25');
    // Still open: ⅓ from day 2 (in UTC days it would be 1 until day 3). Ann is at day 2: her
    // reminder on 5 March (day 4) is as likely as not being done today, ⅓ / ⅓.
    const on = (date: string) => calendar.days.find((d) => d.date === date)!.counts;
    expect(on('2026-03-05')).toEqual([expect.objectContaining({ email_type: 'reminder', count: 1, forecast: 1 })]);
    expect(calendar.forecast_basis).toEqual({ source: 'PAST_SEASONS', seasons: 1, rounds: 1, participant_rounds: 3 });
  });
});
