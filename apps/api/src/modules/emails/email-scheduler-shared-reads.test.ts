import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../lib/clock.js';
import type { EmailScheduleRepository, ScheduledSeason, ScheduleParticipant } from './email-schedule.repository.js';
import { createEmailScheduler, type DayPicks, type ScheduledPick } from './email-scheduler.js';

/**
 * The season calendar's dry run of every day shares its reads (`sharingReads`, issue #48): a
 * page of a season's participants depends on the running round, not the day, so it is read
 * once for all the days of a round instead of once a day; and the picks are those of the
 * scheduler's own `picks`, day by day.
 */
const season: ScheduledSeason = {
  id: 'season-1',
  name: 'Spring',
  projectId: 'project-1',
  startDate: '2026-03-01',
  rounds: [
    { number: 1, startDate: '2026-03-01', endDate: '2026-03-14' },
    { number: 2, startDate: '2026-03-15', endDate: '2026-03-28' },
  ],
  casesByRound: { 1: 1, 2: 1 },
  summaryPostedOn: null,
};

const participant = (n: number): ScheduleParticipant => ({
  userId: `user-${n}`,
  sortName: `name ${String(n).padStart(4, '0')}`,
  startDate: n % 2 ? '2026-03-01' : '2026-03-03',
  firstRound: 1,
  lastRound: 2,
  returning: false,
  completedInRound: n % 3 === 0 ? 1 : 0,
  email: `p${n}@example.test`,
  firstName: 'P',
  lastName: `${n}`,
});
/** More than a page (2,000), so a page after the first is shared too. */
const everyone = Array.from({ length: 2500 }, (_, i) => participant(i + 1));

function schedulerCountingReads() {
  const reads: string[] = [];
  const schedule = {
    seasonsAbout: async () => [season],
    templates: async () => [
      { id: 'initial', type: 'initial', seasonId: null, automatic: true },
      { id: 'reminder', type: 'reminder', seasonId: null, automatic: true },
    ],
    participants: async (
      _s: ScheduledSeason,
      running: number | null,
      after: { userId: string } | null,
      limit: number,
    ) => {
      reads.push(`round ${running} after ${after?.userId ?? 'start'}`);
      const from = after ? everyone.findIndex((p) => p.userId === after.userId) + 1 : 0;
      return everyone.slice(from, from + limit);
    },
  } as unknown as EmailScheduleRepository;
  let templateReads = 0;
  const scheduler = createEmailScheduler({
    schedule,
    outbox: { queue: async () => 0 },
    ensureTemplates: async () => {
      templateReads += 1;
    },
    clock: fixedClock('2026-03-01T12:00:00Z'),
    timeZone: 'UTC',
  });
  return { scheduler, reads, templateReads: () => templateReads };
}

const days = Array.from({ length: 28 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`);

async function picksOfEachDay(source: DayPicks): Promise<string[][]> {
  const out: string[][] = [];
  for (const day of days) {
    const keys: string[] = [];
    for await (const page of source.picks(day, season.projectId, season.id))
      keys.push(...page.map((p: ScheduledPick) => `${p.participant.userId} ${p.due.type} ${p.dedupeKey}`));
    out.push(keys);
  }
  return out;
}

describe("the scheduler's shared reads over many days", () => {
  it('reads each page of participants once per running round, and picks what each day alone picks', async () => {
    const alone = schedulerCountingReads();
    const expected = await picksOfEachDay(alone.scheduler);
    // Day by day, every page is read again each day: 28 days of two pages.
    expect(alone.reads).toHaveLength(56);

    const shared = schedulerCountingReads();
    const picked = await picksOfEachDay(shared.scheduler.sharingReads());
    expect(picked).toEqual(expected);
    expect(picked.flat().length).toBeGreaterThan(0);
    // Two rounds of two pages each; the templates made and read once.
    expect(shared.reads).toEqual([
      'round 1 after start',
      'round 1 after user-2000',
      'round 2 after start',
      'round 2 after user-2000',
    ]);
    expect(shared.templateReads()).toBe(1);
  });

  it('shares nothing between two calendars', async () => {
    const { scheduler, reads } = schedulerCountingReads();
    await picksOfEachDay(scheduler.sharingReads());
    await picksOfEachDay(scheduler.sharingReads());
    expect(reads).toHaveLength(8);
  });
});
