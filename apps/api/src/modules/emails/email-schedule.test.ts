import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { CaseDocument, EmailSchedule } from '@pss/contract';
import { emailOutbox, emailTemplates, participantAssignments, projectParticipants } from '../../db/schema/index.js';
import type { UserRow } from '../users/users.service.js';
import { capturingMailer, emailCalls } from '../../../test/email-calls.js';
import { spring2026 } from '../../../test/fixtures.js';
import { call, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork, type WorkProject } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';
import { validCase } from '../../../test/case-bodies.js';
import { addDays } from './email-rules.js';

/**
 * The round schedule, walked a whole season day by day on the injected clock, with
 * participants who start and finish at different times. The emails sent are compared with
 * what this file works out by itself from the rules as the issue states them.
 */
const TIME_ZONE = 'America/Chicago';
const capture = capturingMailer();
const { ctx, f } = twoClientsContext({ mailer: capture.mailer, env: { SCHEDULE_TIME_ZONE: TIME_ZONE } });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
// A user (not a bearer header made once): signed in again whenever the walk moves the clock.
const adminA = madeBefore(() => createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id }));
const work = participantWork(ctx, staff);
const emails = emailCalls(ctx);

const rounds = spring2026.rounds.map((r) => ({ number: r.number, start: r.start_date, end: r.end_date }));
const winter = { name: 'Winter 2026', rounds: [{ number: 1, start_date: '2026-01-05', end_date: '2026-01-31' }] };

interface Person {
  name: string;
  start: string;
  first: number;
  last: number;
  /** The day each round's cases are all finished (before that day's schedule runs). */
  finishes: Record<number, string>;
  returning?: boolean;
  archivedOn?: string;
}

const people: Person[] = [
  {
    name: 'early',
    start: '2026-03-01',
    first: 1,
    last: 4,
    finishes: { 1: '2026-03-06', 3: '2026-03-29', 4: '2026-04-20' },
  },
  { name: 'late', start: '2026-03-10', first: 1, last: 4, finishes: {} },
  { name: 'second', start: '2026-03-15', first: 2, last: 3, finishes: { 2: '2026-03-20' } },
  { name: 'archived', start: '2026-03-01', first: 1, last: 4, finishes: {}, archivedOn: '2026-03-18' },
  { name: 'returning', start: '2026-03-02', first: 1, last: 2, finishes: { 1: '2026-03-02' }, returning: true },
];

/** The rules, worked out here on their own: (participant, email, day sent). */
function expectedEmails(): string[] {
  const expected: string[] = [];
  const unfinished = (p: Person, round: number, day: string) => !p.finishes[round] || p.finishes[round]! > day;
  for (const p of people) {
    for (let day = '2026-02-25'; day <= '2026-04-30'; day = addDays(day, 1)) {
      if (p.archivedOn && day >= p.archivedOn) continue;
      // The launch email on the start date (the scheduler runs every day, so never the day after).
      if (day === p.start) expected.push(`${p.name} ${p.returning ? 'season-initial' : 'initial'} ${day}`);
      const round = rounds.find((r) => r.start <= day && day <= r.end);
      if (!round || day < p.start || round.number < p.first || round.number > p.last) continue;
      // Round 1 has none (the launch email welcomes); none either once the round's cases are done.
      const newRound = round.number > 1 && day === round.start && p.start < day && p.first < round.number;
      if (newRound && unfinished(p, round.number, day)) {
        expected.push(`${p.name} new_round ${day}`);
      }
      if (day === round.end && unfinished(p, round.number, day)) {
        expected.push(`${p.name} ${round.number === 4 ? 'last_round' : 'last_day_of_round'} ${day}`);
      }
      // A week before the season's last day, to those with cases of the last round left.
      if (round.number === 4 && addDays(day, 7) === round.end && unfinished(p, round.number, day)) {
        expected.push(`${p.name} week_left ${day}`);
      }
      const began = p.start > round.start ? p.start : round.start;
      const since = (Date.parse(day) - Date.parse(began)) / 86_400_000;
      if (day !== round.end && since > 0 && since % 2 === 0 && unfinished(p, round.number, day)) {
        expected.push(`${p.name} reminder ${day}`);
      }
    }
  }
  return expected.sort();
}

async function placeCases(p: WorkProject): Promise<Record<number, CaseDocument>> {
  const docs: Record<number, CaseDocument> = {};
  for (const round of [1, 2, 3, 4]) docs[round] = await work.publishedCase(p, round, { name: `Round ${round} case` });
  return docs;
}

async function enrolPerson(p: WorkProject, winterId: string, person: Person): Promise<UserRow> {
  const user = await createUser(ctx.db, { role: 'USER', clientId: f.clientA.id, email: `${person.name}@walk.test` });
  await ctx.db.insert(projectParticipants).values({
    projectId: p.id,
    userId: user.id,
    sortName: person.name,
    email: user.email,
    dataStatus: 'READY',
  });
  const assign = (seasonId: string, start: string, first: number, last: number) =>
    ctx.db.insert(participantAssignments).values({
      userId: user.id,
      seasonId,
      projectId: p.id,
      firstRound: first,
      lastRound: last,
      startDate: start,
    });
  await assign(p.seasonId, person.start, person.first, person.last);
  if (person.returning) await assign(winterId, '2026-01-05', 1, 1);
  return user;
}

/** What was sent, as (participant, email, day sent in the schedule's time zone), from the outbox. */
async function sentEmails(projectId: string, names: Map<string, string>): Promise<string[]> {
  const rows = await ctx.db
    .select({
      userId: emailOutbox.userId,
      type: emailTemplates.type,
      seasonId: emailTemplates.seasonId,
      sentAt: emailOutbox.sentAt,
    })
    .from(emailOutbox)
    .innerJoin(emailTemplates, eq(emailTemplates.id, emailOutbox.templateId))
    .where(and(eq(emailOutbox.projectId, projectId), eq(emailOutbox.status, 'SENT')));
  return rows
    .map((r) => {
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(r.sentAt!);
      return `${names.get(r.userId!)} ${r.seasonId ? 'season-' : ''}${r.type} ${day}`;
    })
    .sort();
}

describe('the round schedule over a whole season', () => {
  it('sends exactly the emails the rules call for, once each, and no reminder after a participant finishes', async () => {
    const p = await work.project(f.clientA.id, { name: 'Walked Program', seasons: [winter, spring2026] });
    const springId = p.project.seasons.find((s) => s.name === 'Spring 2026')!.id;
    const winterId = p.project.seasons.find((s) => s.name === 'Winter 2026')!.id;
    const project = { ...p, seasonId: springId };
    const docs = await placeCases(project);
    const users = new Map<string, UserRow>();
    for (const person of people) users.set(person.name, await enrolPerson(project, winterId, person));
    const names = new Map([...users].map(([name, user]) => [user.id, name]));
    capture.clear();

    for (let day = '2026-02-25'; day <= '2026-04-30'; day = addDays(day, 1)) {
      // Morning in Chicago (UTC−6/−5): finishing first, then the schedule twice in the day.
      ctx.clock.set(`${day}T13:00:00Z`);
      for (const person of people) {
        const user = users.get(person.name)!;
        for (const [round, on] of Object.entries(person.finishes))
          if (on === day) await work.complete(user, docs[Number(round)]!);
        if (person.archivedOn === day) {
          await ctx.db
            .update(projectParticipants)
            .set({ archived: true })
            .where(eq(projectParticipants.userId, user.id));
        }
      }
      ctx.clock.set(`${day}T15:00:00Z`);
      await ctx.app.emails.runScheduler();
      await ctx.app.emails.drain();
      ctx.clock.set(`${day}T21:00:00Z`);
      expect((await ctx.app.emails.runScheduler()).queued, `second run on ${day}`).toBe(0);
      await ctx.app.emails.drain();
    }

    const expected = expectedEmails();
    // Every rule comes into play in this season.
    const kinds = new Set(expected.map((e) => e.split(' ')[1]));
    expect([...kinds].sort()).toEqual([
      'initial',
      'last_day_of_round',
      'last_round',
      'new_round',
      'reminder',
      'season-initial',
      'week_left',
    ]);
    const sent = await sentEmails(p.id, names);
    expect(sent).toEqual(expected);
    // Every row sent is one message at the mail server, and no one got one twice.
    expect(capture.sent).toHaveLength(sent.length);
    expect(new Set(sent).size).toBe(sent.length);
    // Nobody was reminded of a round on or after the day they finished it.
    for (const person of people) {
      for (const [round, on] of Object.entries(person.finishes)) {
        const r = rounds.find((x) => x.number === Number(round))!;
        const late = sent.filter(
          (e) => e.startsWith(`${person.name} reminder `) && e.slice(-10) >= on && e.slice(-10) <= r.end,
        );
        expect(late, `${person.name} round ${round}`).toEqual([]);
      }
    }
    expect(sent.some((e) => e.startsWith('archived ') && e.slice(-10) >= '2026-03-18')).toBe(false);
    expect(sent).toContain('returning season-initial 2026-03-02');
  }, 240_000);
});

describe('the schedule at sending time and in the dry run', () => {
  const fixture = madeBefore(async () => {
    const p = await work.project(f.clientA.id, { name: 'Dry Run Program' });
    const docs = await placeCases(p);
    const ann = await enrolPerson(p, p.seasonId, { name: 'ann', start: '2026-03-01', first: 1, last: 4, finishes: {} });
    const bob = await enrolPerson(p, p.seasonId, { name: 'bob', start: '2026-03-05', first: 1, last: 4, finishes: {} });
    return { p, docs, ann, bob };
  });

  const dryRun = async (date: string, query = '') => {
    const response = await call(ctx, 'GET', `/projects/${fixture.p.id}/email-schedule?date=${date}${query}`, adminA);
    expect(response.statusCode).toBe(200);
    return response.json<EmailSchedule>();
  };

  it('lists who would get which email on a day, and why, without queuing anything', async () => {
    const schedule = await dryRun('2026-03-05');
    expect(schedule.items.map((i) => [i.participant.last_name, i.email_type, i.already_queued])).toEqual([
      [fixture.ann.lastName, 'reminder', false],
      [fixture.bob.lastName, 'initial', false],
    ]);
    expect(schedule.items[0]!.reason).toContain('every second day');
    expect(schedule.counts).toEqual(
      expect.arrayContaining([
        { email_type: 'reminder', email_name: 'Reminder Email', count: 1 },
        { email_type: 'initial', email_name: 'Initial Launch Email', count: 1 },
      ]),
    );
    const paged = await dryRun('2026-03-05', '&limit=1&page=2');
    expect([paged.total, paged.items.map((i) => i.email_type)]).toEqual([2, ['initial']]);
    const rows = await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.projectId, fixture.p.id));
    expect(rows).toEqual([]);
    expect(
      (await call(ctx, 'GET', `/projects/${fixture.p.id}/email-schedule?date=2026-02-30`, adminA)).statusCode,
    ).toBe(400);
    // An email set to be sent by hand is never scheduled.
    const reminder = await emails.emailOf(fixture.p.id, 'reminder', adminA);
    await call(ctx, 'POST', `/projects/${reminder.id}/email`, adminA, {
      subject: reminder.subject,
      body: reminder.body,
      button_text: reminder.button_text,
      dashboard_url_text: reminder.dashboard_url_text,
      send_mode: 'MANUAL',
    });
    expect((await dryRun('2026-03-05')).items.map((i) => i.email_type)).toEqual(['initial']);
    await call(ctx, 'POST', `/projects/${reminder.id}/email`, adminA, {
      subject: reminder.subject,
      body: reminder.body,
      button_text: reminder.button_text,
      dashboard_url_text: reminder.dashboard_url_text,
      send_mode: 'AUTOMATIC',
    });
    expect((await call(ctx, 'GET', `/projects/${fixture.p.id}/email-schedule`, adminA)).statusCode).toBe(400);
  });

  it('no new-round email for a round that holds only a draft case', async () => {
    const p = await work.project(f.clientA.id, { name: 'Draft Round Program' });
    await work.publishedCase(p, 1, { name: 'Round 1 case' });
    await work.publishedCase(p, 3, { name: 'Round 3 case' });
    const draft = await call(ctx, 'POST', '/cases', staff, {
      project_id: p.id,
      name: 'Round 2 draft',
      disease_type_id: p.diseaseTypeId,
    });
    const draftId = draft.json<CaseDocument>().id;
    const placed = validCase(p, { name: 'Round 2 draft', season_id: p.seasonId, round_number: 2 });
    expect((await call(ctx, 'PUT', `/cases/${draftId}`, staff, placed)).statusCode).toBe(200);
    await enrolPerson(p, p.seasonId, { name: 'cat', start: '2026-03-01', first: 1, last: 4, finishes: {} });
    const scheduleOf = async (date: string) =>
      (await call(ctx, 'GET', `/projects/${p.id}/email-schedule?date=${date}`, adminA)).json<EmailSchedule>();
    expect((await scheduleOf('2026-03-15')).items).toEqual([]);
    expect((await scheduleOf('2026-03-29')).items.map((i) => [i.email_type, i.round_number])).toEqual([
      ['new_round', 3],
    ]);
    // Out of the way of the next tests, which run the schedule for every project.
    expect((await call(ctx, 'POST', `/projects/${p.id}/archive`, adminA)).statusCode).toBe(200);
  });

  it('a reminder queued before the participant finished is cancelled, not sent', async () => {
    ctx.clock.set('2026-03-05T15:00:00Z');
    capture.clear();
    await ctx.app.emails.runScheduler();
    expect((await dryRun('2026-03-05')).items.every((i) => i.already_queued)).toBe(true);
    await work.complete(fixture.ann, fixture.docs[1]!);
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 1, cancelled: 1 });
    expect(capture.sent.map((m) => m.to)).toEqual([fixture.bob.email]);
    const log = await emails.deliveries(fixture.p.id, adminA);
    expect(log.items.find((d) => d.to === fixture.ann.email)).toMatchObject({
      status: 'CANCELLED',
      attempts: 0,
      last_error: 'The participant had finished the cases of round 1.',
    });
  });

  it('an email disabled after it was queued is not sent; an archived project gets nothing', async () => {
    ctx.clock.set('2026-03-07T15:00:00Z');
    await ctx.app.emails.runScheduler();
    const reminder = await emails.emailOf(fixture.p.id, 'reminder', adminA);
    await call(ctx, 'POST', `/projects/${reminder.id}/email-status`, adminA, { enabled: false });
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 0, cancelled: 1 });
    await call(ctx, 'POST', `/projects/${reminder.id}/email-status`, adminA, { enabled: true });
    expect((await call(ctx, 'POST', `/projects/${fixture.p.id}/archive`, adminA)).statusCode).toBe(200);
    ctx.clock.set('2026-03-09T15:00:00Z');
    expect(await ctx.app.emails.runScheduler()).toMatchObject({ queued: 0 });
  });
});
