import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, emailsDue, type ParticipantFacts, type SeasonFacts } from './email-rules.js';

const season: SeasonFacts = {
  id: 'season',
  name: 'Spring 2026',
  rounds: [
    { number: 1, startDate: '2026-03-01', endDate: '2026-03-14' },
    { number: 2, startDate: '2026-03-15', endDate: '2026-03-28' },
    { number: 3, startDate: '2026-03-29', endDate: '2026-04-11' },
  ],
  casesByRound: { 1: 2, 2: 2, 3: 1 },
};

const participant = (overrides: Partial<ParticipantFacts> = {}): ParticipantFacts => ({
  userId: 'u1',
  startDate: '2026-03-01',
  firstRound: 1,
  lastRound: 3,
  returning: false,
  completedInRound: 0,
  ...overrides,
});

const types = (day: string, p: ParticipantFacts = participant()) => emailsDue(day, season, p).map((d) => d.type);

describe('the round schedule’s rules', () => {
  it('date arithmetic', () => {
    expect(daysBetween('2026-02-27', '2026-03-01')).toBe(2);
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-03-29', -1)).toBe('2026-03-28');
  });

  it('the launch email goes on the start date or the day after, keyed by the start date', () => {
    expect(emailsDue('2026-02-28', season, participant())).toEqual([]);
    const onStart = emailsDue('2026-03-01', season, participant());
    const dayAfter = emailsDue('2026-03-02', season, participant());
    expect(onStart.map((d) => [d.type, d.template, d.ruleDay])).toEqual([['initial', 'project', '2026-03-01']]);
    expect(dayAfter.map((d) => [d.type, d.ruleDay])).toEqual([['initial', '2026-03-01']]);
    expect(types('2026-03-03')).not.toContain('initial');
  });

  it('a returning participant’s launch email is the season’s own variant', () => {
    const [due] = emailsDue('2026-03-01', season, participant({ returning: true }));
    expect(due).toMatchObject({ type: 'initial', template: 'season' });
  });

  it('reminds every second day after the round began, not on its last day, while cases are left', () => {
    const reminders = [];
    for (let day = '2026-03-01'; day <= '2026-03-14'; day = addDays(day, 1)) {
      if (types(day).includes('reminder')) reminders.push(day);
    }
    expect(reminders).toEqual(['2026-03-03', '2026-03-05', '2026-03-07', '2026-03-09', '2026-03-11', '2026-03-13']);
    expect(types('2026-03-05', participant({ completedInRound: 2 }))).toEqual([]);
    expect(types('2026-03-05', participant({ completedInRound: 1 }))).toEqual(['reminder']);
  });

  it('counts reminders from a late starter’s own start date', () => {
    const late = participant({ startDate: '2026-03-04' });
    expect(types('2026-03-05', late)).toEqual(['initial']);
    expect(types('2026-03-06', late)).toEqual(['reminder']);
  });

  it('last day of a round, and of the last round, only to those with cases left', () => {
    expect(types('2026-03-14')).toEqual(['last_day_of_round']);
    expect(types('2026-03-14', participant({ completedInRound: 2 }))).toEqual([]);
    expect(types('2026-04-11')).toEqual(['last_round']);
  });

  it('a week before the season’s last round ends, to those with cases of it left', () => {
    expect(types('2026-04-04')).toEqual(['week_left', 'reminder']);
    expect(types('2026-04-04', participant({ completedInRound: 1 }))).toEqual([]);
    expect(emailsDue('2026-04-04', season, participant())[0]).toMatchObject({ roundNumber: 3, ruleDay: '2026-04-04' });
    // A week before the end of another round, nothing of it; nor to someone the last round is not for.
    expect(types('2026-03-07')).not.toContain('week_left');
    expect(types('2026-03-21')).not.toContain('week_left');
    expect(types('2026-04-04', participant({ lastRound: 2 }))).toEqual([]);
  });

  it('a new round’s email on its first day to those already taking part', () => {
    expect(types('2026-03-15')).toEqual(['new_round']);
    // Starting with round 2 that day: welcomed by the launch email, not told of a "new" round.
    expect(types('2026-03-15', participant({ startDate: '2026-03-15', firstRound: 2 }))).toEqual(['initial']);
    // Not assigned to round 3: nothing from it.
    expect(types('2026-03-29', participant({ lastRound: 2 }))).toEqual([]);
  });

  it('no new-round email for a round with nothing to take: only drafts in it, or its cases already done', () => {
    // Round 2 holds only a draft case: published cases are all that count.
    const draftOnly = { ...season, casesByRound: { 1: 2, 3: 1 } };
    expect(emailsDue('2026-03-15', draftOnly, participant()).map((d) => d.type)).toEqual([]);
    expect(emailsDue('2026-03-29', draftOnly, participant()).map((d) => d.type)).toEqual(['new_round']);
    // Round 3's one case finished on its first day, before the schedule ran.
    expect(types('2026-03-29', participant({ completedInRound: 1 }))).toEqual([]);
    expect(emailsDue('2026-03-29', season, participant())[0]!.reason).toContain('1 of 1 cases of round 3 left');
  });

  it('round 1 has no new-round email: its participants are welcomed by the launch email', () => {
    expect(types('2026-03-01')).toEqual(['initial']);
    // Starting later in round 1, or with a season's first day passed: still no new-round email.
    const days = ['2026-03-01', '2026-03-02', '2026-03-08'];
    expect(days.flatMap((day) => types(day, participant({ startDate: '2026-02-20' })))).not.toContain('new_round');
  });

  it('no reminders for a round without cases, and nothing before the participant starts', () => {
    const empty = { ...season, casesByRound: {} };
    expect(emailsDue('2026-03-03', empty, participant()).map((d) => d.type)).toEqual([]);
    expect(types('2026-03-03', participant({ startDate: '2026-03-10' }))).toEqual([]);
  });

  it('a posted summary’s launch goes the day it is posted or the next, to those who completed the season', () => {
    const posted = { ...season, summaryPostedOn: '2026-04-20' };
    const done = participant({ completedSeason: true, lastSeenOn: '2026-04-11' });
    const due = (day: string, p: ParticipantFacts) =>
      emailsDue(day, posted, p).map((d) => [d.type, d.template, d.ruleDay]);
    expect(due('2026-04-19', done)).toEqual([]);
    expect(due('2026-04-20', done)).toEqual([['summary_launch', 'project', '2026-04-20']]);
    expect(due('2026-04-21', done)).toEqual([['summary_launch', 'project', '2026-04-20']]);
    expect(due('2026-04-22', done)).toEqual([]);
    // Not completed: the summary is not theirs to see, so no email of it.
    expect(due('2026-04-20', participant({ completedSeason: false }))).toEqual([]);
    // A returning participant gets the season's variant; no summary posted, nothing.
    expect(due('2026-04-20', participant({ completedSeason: true, returning: true }))).toEqual([
      ['summary_launch', 'season', '2026-04-20'],
    ]);
    expect(emailsDue('2026-04-20', season, done)).toEqual([]);
  });

  it('the summary’s reminder a week after posting, only to those not on the platform since', () => {
    const posted = { ...season, summaryPostedOn: '2026-04-20' };
    const types = (day: string, p: ParticipantFacts) => emailsDue(day, posted, p).map((d) => d.type);
    const away = participant({ completedSeason: true, lastSeenOn: '2026-04-11' });
    const back = participant({ completedSeason: true, lastSeenOn: '2026-04-20' });
    expect(types('2026-04-26', away)).toEqual([]);
    expect(types('2026-04-27', away)).toEqual(['summary_reminder']);
    expect(types('2026-04-28', away)).toEqual([]);
    expect(types('2026-04-27', back)).toEqual([]);
    expect(types('2026-04-27', participant({ completedSeason: true, lastSeenOn: null }))).toEqual(['summary_reminder']);
  });

  it('never pick the Certificate Email or the manual-only ones, on any day, for anyone', () => {
    const posted = { ...season, summaryPostedOn: '2026-04-01' };
    const picked = new Set<string>();
    for (let day = '2026-02-25'; day <= '2026-04-15'; day = addDays(day, 1)) {
      for (const p of [
        participant(),
        participant({ startDate: '2026-03-16', firstRound: 2, returning: true }),
        participant({ completedSeason: true, lastSeenOn: null, completedInRound: 1 }),
      ]) {
        for (const due of emailsDue(day, posted, p)) picked.add(due.type);
      }
    }
    for (const type of ['certificate_issued', 'season_summary_launch', 'season_summary_reminder']) {
      expect(picked).not.toContain(type);
    }
    // The walk did reach the rules that do send.
    expect(picked).toContain('reminder');
    expect(picked).toContain('summary_reminder');
  });
});
