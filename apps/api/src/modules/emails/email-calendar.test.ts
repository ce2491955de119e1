import { describe, expect, it } from 'vitest';
import type { EmailCalendar, EmailSchedule } from '@pss/contract';
import { emailOutbox } from '../../db/schema/index.js';
import { eq } from 'drizzle-orm';
import { call, expectError, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

/**
 * The season calendar: each day's counts are the dry run's for that day (one scheduler, one set
 * of rules), a participant who completed a round drops out of its later reminders, and nothing
 * is queued by asking.
 */
const { ctx, f } = twoClientsContext({ now: '2026-03-03T15:00:00Z' });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const adminA = madeBefore(() => createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id }));
const work = participantWork(ctx, staff);

const fixture = madeBefore(async () => {
  const p = await work.project(f.clientA.id, { name: 'Calendar Program' });
  const docs = [];
  for (const round of [1, 2, 3, 4]) docs.push(await work.publishedCase(p, round, { name: `Round ${round} case` }));
  const ann = await work.enrol(p, f.clientA.id, { startDate: '2026-03-01' }, { lastName: 'Ann' });
  const bob = await work.enrol(p, f.clientA.id, { startDate: '2026-03-05' }, { lastName: 'Bob' });
  const cat = await work.enrol(p, f.clientA.id, { startDate: '2026-03-01', last: 2 }, { lastName: 'Cat' });
  // Cat finishes round 1 on its third day: none of its later reminders are hers.
  await work.complete(cat, docs[0]!);
  return { p, ann, bob, cat };
});

const calendarOf = async (query = '') => {
  const response = await call(ctx, 'GET', `/projects/${fixture.p.id}/email-calendar${query}`, adminA);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<EmailCalendar>();
};

const dryRun = async (date: string) => {
  const response = await call(ctx, 'GET', `/projects/${fixture.p.id}/email-schedule?date=${date}&limit=100`, adminA);
  expect(response.statusCode).toBe(200);
  return response.json<EmailSchedule>();
};

/** Counts by email type, without the calendar's forecast (email-forecast.test.ts checks it). */
const sorted = <T extends { email_type: string; email_name: string; count: number }>(counts: T[]) =>
  counts
    .map(({ email_type, email_name, count }) => ({ email_type, email_name, count }))
    .sort((a, b) => a.email_type.localeCompare(b.email_type));

describe('the season calendar', () => {
  it('counts each day of the season as the dry run does, each email on the first day that sends it', async () => {
    const calendar = await calendarOf(`?season=${encodeURIComponent('Spring 2026')}`);
    expect(calendar.season_name).toBe('Spring 2026');
    // From the first round's start to the last round's end (no summary posted).
    expect(calendar.days[0]!.date).toBe('2026-03-01');
    expect(calendar.days.at(-1)!.date).toBe('2026-04-25');
    expect(calendar.days).toHaveLength(56);
    // Each day: the dry run's emails of the day, but one an earlier day sends already (an initial
    // email allowed on the start date and the day after).
    const earlier = new Set<string>();
    for (const day of calendar.days.slice(0, 16)) {
      const schedule = await dryRun(day.date);
      const keyOf = (i: EmailSchedule['items'][number]) => `${i.participant.id} ${i.email_id} ${i.round_number}`;
      const fresh = schedule.items.filter((i) => i.email_type === 'reminder' || !earlier.has(keyOf(i)));
      for (const item of schedule.items) earlier.add(keyOf(item));
      const counts = new Map<string, { email_type: string; email_name: string; count: number }>();
      for (const i of fresh) {
        const entry = counts.get(i.email_type) ?? { email_type: i.email_type, email_name: i.email_name, count: 0 };
        counts.set(i.email_type, { ...entry, count: entry.count + 1 });
      }
      expect(sorted(day.counts), day.date).toEqual(sorted([...counts.values()]));
    }
    // On the first day, exactly the dry run's own counts.
    expect(sorted(calendar.days[0]!.counts)).toEqual(sorted((await dryRun('2026-03-01')).counts));
    const on = (date: string, type: string) =>
      calendar.days.find((d) => d.date === date)?.counts.find((c) => c.email_type === type)?.count ?? 0;
    expect(on('2026-03-01', 'initial')).toBe(2);
    expect(on('2026-03-05', 'initial')).toBe(1);
    // Round 1's reminders go to Ann (and Bob once his round has begun), not to Cat, who finished it.
    expect(on('2026-03-03', 'reminder')).toBe(1);
    expect(on('2026-03-09', 'reminder')).toBe(2);
    expect(on('2026-03-14', 'last_day_of_round')).toBe(2);
    expect(on('2026-03-15', 'new_round')).toBe(3);
    // Asking queues nothing.
    expect(await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.projectId, fixture.p.id))).toEqual([]);
  });

  it('answers the default season without a name, and NOT_FOUND for a season the project lacks', async () => {
    expect((await calendarOf()).season_name).toBe('Spring 2026');
    expect((await calendarOf('?season=spring%202026')).season_name).toBe('Spring 2026');
    expectError(
      await call(ctx, 'GET', `/projects/${fixture.p.id}/email-calendar?season=Autumn`, adminA),
      404,
      'NOT_FOUND',
    );
    expectError(
      await call(ctx, 'GET', `/projects/${fixture.p.id}/email-calendar?season=${'x'.repeat(121)}`, adminA),
      400,
      'VALIDATION_ERROR',
    );
  });
});
