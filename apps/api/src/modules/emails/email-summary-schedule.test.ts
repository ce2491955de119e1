import { describe, expect, it } from 'vitest';
import type { EmailSchedule, EmailTemplate, SeasonSummary } from '@pss/contract';
import { capturingMailer, emailCalls } from '../../../test/email-calls.js';
import { call, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

/**
 * The Results Summary's emails on the real schedule: the launch goes to those who completed
 * the season when the summary is posted, the reminder a week later to those of them not on
 * the platform since, and a summary taken down takes its queued emails with it. The season's
 * own Season Summary emails are sent by hand only.
 */
const capture = capturingMailer();
const { ctx, f } = twoClientsContext({ mailer: capture.mailer, now: '2026-03-02T12:00:00Z' });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const adminA = madeBefore(() => createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id }));
const work = participantWork(ctx, staff);
const emails = emailCalls(ctx);
const spring = `seasonName=${encodeURIComponent('Spring 2026')}`;

describe('a posted results summary’s emails', () => {
  it('launch to those who completed the season, remind those not back a week later, and stop when taken down', async () => {
    const p = await work.project(f.clientA.id, { name: 'Summary Mail Program' });
    const doc = await work.publishedCase(p, 1, { name: 'The season’s one case' });
    const done = await work.enrol(p, f.clientA.id);
    const away = await work.enrol(p, f.clientA.id);
    const halfway = await work.enrol(p, f.clientA.id);
    await work.complete(done, doc);
    await work.complete(away, doc);
    await work.attemptOf(halfway, doc.name);

    // After the season (it ends on 25 April): written, then posted on 1 May.
    ctx.clock.set('2026-05-01T12:00:00Z');
    const saved = await call(ctx, 'POST', `/projects/${p.id}/season-summary?${spring}`, adminA, {
      title: 'What Spring 2026 found',
      description: '<p>Thank you.</p>',
      greeting: 'Hello',
      video_url: null,
    });
    expect(saved.statusCode).toBe(200);
    const summary = saved.json<SeasonSummary>();
    // A draft sends nothing.
    expect((await ctx.app.emails.runScheduler()).queued).toBe(0);
    expect((await call(ctx, 'POST', `/projects/${summary.id}/status`, adminA, { status: 'POSTED' })).statusCode).toBe(
      200,
    );

    capture.clear();
    expect((await ctx.app.emails.runScheduler()).queued).toBe(2);
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 2 });
    expect(capture.sent.map((m) => m.to).sort()).toEqual([done.email, away.email].sort());
    expect(capture.sent[0]!.subject).toBe('Summary Mail Program: your results are ready');
    // Queued once: again that day and the next, nothing new.
    expect((await ctx.app.emails.runScheduler()).queued).toBe(0);
    ctx.clock.set('2026-05-02T12:00:00Z');
    expect((await ctx.app.emails.runScheduler()).queued).toBe(0);

    // `done` comes back to look; `away` does not.
    ctx.clock.set('2026-05-04T12:00:00Z');
    expect((await work.call('GET', '/dashboard', done)).statusCode).toBe(200);

    ctx.clock.set('2026-05-08T12:00:00Z');
    const schedule = await call(ctx, 'GET', `/projects/${p.id}/email-schedule?date=2026-05-08`, adminA);
    expect(schedule.json<{ items: { email_type: string; participant: { email: string } }[] }>().items).toEqual([
      expect.objectContaining({
        email_type: 'summary_reminder',
        participant: expect.objectContaining({ email: away.email }),
      }),
    ]);
    capture.clear();
    expect((await ctx.app.emails.runScheduler()).queued).toBe(1);

    // Taken down before it went: the reminder is cancelled, with the reason in the log.
    expect((await call(ctx, 'POST', `/projects/${summary.id}/status`, adminA, { status: 'DRAFT' })).statusCode).toBe(
      200,
    );
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 0, cancelled: 1 });
    expect(capture.sent).toEqual([]);
    const log = await emails.deliveries(p.id, adminA);
    expect(log.items.find((d) => d.status === 'CANCELLED')).toMatchObject({
      to: away.email,
      last_error: 'The results summary was taken down before it went.',
    });
  }, 120_000);

  it('the season’s Season Summary emails are never scheduled; sent by hand, the log says so', async () => {
    ctx.clock.set('2026-03-02T12:00:00Z');
    const p = await work.project(f.clientA.id, { name: 'Season Summary Mail Program' });
    const doc = await work.publishedCase(p, 1, { name: 'The season’s only case' });
    const done = await work.enrol(p, f.clientA.id);
    await work.complete(done, doc);
    ctx.clock.set('2026-05-01T12:00:00Z');
    const saved = await call(ctx, 'POST', `/projects/${p.id}/season-summary?${spring}`, adminA, {
      title: 'Spring 2026 in brief',
      description: '<p>Thank you.</p>',
      greeting: 'Hello',
      video_url: null,
    });
    expect(saved.statusCode).toBe(200);
    const summary = saved.json<SeasonSummary>();
    expect((await call(ctx, 'POST', `/projects/${summary.id}/status`, adminA, { status: 'POSTED' })).statusCode).toBe(
      200,
    );
    const variants = (await call(ctx, 'GET', `/projects/${p.id}/season-emails-list?${spring}`, adminA)).json<{
      items: EmailTemplate[];
    }>().items;
    const launch = variants.find((e) => e.type === 'season_summary_launch')!;
    expect(launch).toMatchObject({ enabled: true, send_mode: 'MANUAL' });

    // The day it is posted, the schedule (and its dry run) picks the summary launch only.
    const dryRun = await call(ctx, 'GET', `/projects/${p.id}/email-schedule?date=2026-05-01`, adminA);
    expect(dryRun.json<EmailSchedule>().items.map((i) => i.email_type)).toEqual(['summary_launch']);
    capture.clear();
    expect((await ctx.app.emails.runScheduler()).queued).toBe(1);

    // Sent by hand: it goes, and the delivery log shows it as sent by hand.
    const sent = await call(ctx, 'POST', `/projects/${launch.id}/send-email`, adminA, { ids: [done.id] });
    expect(sent.json()).toEqual({ queued: 1, skipped: [] });
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 2 });
    expect(capture.sent.map((m) => m.subject).sort()).toEqual([
      'Season Summary Mail Program: the Spring 2026 summary is ready',
      'Season Summary Mail Program: your results are ready',
    ]);
    const log = await emails.deliveries(p.id, adminA);
    expect(log.items.map((d) => [d.email_type, d.kind, d.season_name, d.status]).sort()).toEqual([
      ['season_summary_launch', 'MANUAL', 'Spring 2026', 'SENT'],
      ['summary_launch', 'SCHEDULED', 'Spring 2026', 'SENT'],
    ]);
  }, 120_000);
});
