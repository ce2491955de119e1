import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { emailEvents, emailOutbox, emailSuppressions, emailTemplates } from '../src/db/schema/index.js';
import { createBounceMailbox } from '../src/modules/emails/bounce-mailbox.js';
import { verpAddress } from '../src/modules/emails/email-return-path.js';
import { createEmailSuppressionsService } from '../src/modules/emails/email-suppressions.service.js';
import { twoClients } from './fixtures.js';
import { bounceDomain, localDomain, mailboxDomain, mailSystem, type MailSystem } from './mail-system.js';
import { participantWork } from './participant-work.js';
import { waitFor } from './smtp-peer.js';
import { createTestContext, createUser, type TestContext } from './test-app.js';

/**
 * The app against a real mail system (issue #47): Debian's Postfix takes its mail; a message
 * to an unknown local user makes Postfix write its own bounce (RFC 3464) to the email's
 * return path, `bounces+<outbox id>@bounce.test`, which Postfix delivers into a Maildir that
 * Dovecot serves over IMAP. The app's worker reads it from there as it runs in production
 * (BOUNCE_IMAP_URL), the participant's address is suppressed as a hard bounce, and the next
 * scheduled email to them is recorded SUPPRESSED and never reaches Postfix. Nothing is
 * skipped: without Postfix and Dovecot (CI installs them) the test fails saying so.
 */
const unknownUser = `nobody-here@${localDomain}`;
const colleague = `colleague@${mailboxDomain}`;

let mail: MailSystem | undefined;
let ctx: TestContext | undefined;
let stopWorker: (() => Promise<void>) | undefined;

beforeAll(async () => {
  mail = await mailSystem();
  await mail.start();
}, 60_000);

afterAll(async () => {
  // The app first (its worker and pooled SMTP connections), then the mail system, whatever failed.
  try {
    await stopWorker?.();
    await ctx?.close();
  } finally {
    await mail?.stop();
  }
}, 60_000);

const outboxRows = (projectId: string) =>
  ctx!.db
    .select({
      to: emailOutbox.toAddress,
      status: emailOutbox.status,
      type: emailTemplates.type,
      error: emailOutbox.lastError,
    })
    .from(emailOutbox)
    .innerJoin(emailTemplates, eq(emailTemplates.id, emailOutbox.templateId))
    .where(eq(emailOutbox.projectId, projectId));

/** Waits, and when it times out says what the outbox and Postfix's log show. */
async function waitShowing(condition: () => Promise<boolean> | boolean, ms: number, what: string, projectId: string) {
  try {
    await waitFor(condition, ms, what);
  } catch (error) {
    const rows = JSON.stringify(await outboxRows(projectId), null, 1);
    throw new Error(`${(error as Error).message}\noutbox: ${rows}\nPostfix's log:\n${mail!.log()}`, { cause: error });
  }
}

/** Postfix's log lines about deliveries to an address. */
const deliveriesTo = (address: string) =>
  mail!
    .log()
    .split('\n')
    .filter((line) => line.includes(`to=<${address}>`) && /status=/.test(line));

describe('a real mail system: Postfix bounces, Dovecot holds the bounce, the app reads it', () => {
  it('an unknown local user is a hard bounce within 60 s, and the next scheduled email is not sent to them', async () => {
    const m = mail!;
    ctx = await createTestContext({
      now: '2026-03-02T09:00:00Z',
      env: {
        SMTP_URL: m.smtpUrl,
        SMTP_FROM: 'Patient Simulation <no-reply@pss.test>',
        BOUNCE_DOMAIN: bounceDomain,
        BOUNCE_IMAP_URL: m.imapUrl,
        BOUNCE_IMAP_POLL_SECONDS: '0.5',
        SCHEDULER_INTERVAL_SECONDS: '0.5',
        SCHEDULE_TIME_ZONE: 'UTC',
      },
    });
    const f = await twoClients(ctx);
    const work = participantWork(ctx, await createUser(ctx.db, { role: 'SUPERADMIN' }));
    const p = await work.project(f.clientA.id, { name: 'Mail System Program' });
    // A case to take in round 1 (1 to 14 March), so reminders are due every second day.
    await work.publishedCase(p, 1);
    for (const email of [unknownUser, colleague]) {
      await work.enrol(p, f.clientA.id, { startDate: '2026-03-02' }, { email });
    }

    // The worker as main.ts runs it: the schedule queues the launch emails, the sender sends them.
    const started = Date.now();
    stopWorker = ctx.app.emails.startWorker();
    await waitShowing(
      async () =>
        (
          await ctx!.db
            .select()
            .from(emailSuppressions)
            .where(and(eq(emailSuppressions.email, unknownUser), eq(emailSuppressions.reason, 'HARD_BOUNCE')))
        ).length === 1,
      60_000,
      `${unknownUser} suppressed as a hard bounce`,
      p.id,
    );
    const took = Date.now() - started;
    expect(took).toBeLessThan(60_000);

    // Postfix took both, delivered one and bounced the other with its own report.
    const launch = await outboxRows(p.id);
    expect(launch.map((r) => [r.type, r.to, r.status]).sort()).toEqual([
      ['initial', colleague, 'SENT'],
      ['initial', unknownUser, 'SENT'],
    ]);
    expect(deliveriesTo(unknownUser)).toEqual([expect.stringMatching(/dsn=5\.1\.1, status=bounced \(unknown user/)]);
    expect(deliveriesTo(colleague)).toEqual([expect.stringMatching(/status=sent \(delivered to maildir\)/)]);
    const [bounce, ...otherBounces] = m.maildir('bounces');
    expect(otherBounces).toEqual([]);
    expect(bounce!.text).toMatch(/^Content-Type: multipart\/report; report-type=delivery-status;/m);
    expect(bounce!.text).toMatch(/^X-Original-To: bounces\+[0-9a-f-]{36}@bounce\.test$/m);
    // Read, recorded, and only then flagged \Seen over IMAP (Dovecot keeps the flag in the file's name).
    await waitFor(() => m.maildir('bounces')[0]!.flags.includes('S'), 10_000, 'the bounce flagged \\Seen');

    const [suppression] = await ctx.db.select().from(emailSuppressions).where(eq(emailSuppressions.email, unknownUser));
    expect(suppression).toMatchObject({ reason: 'HARD_BOUNCE', source: 'imap', projectId: null });
    expect(suppression!.detail).toMatch(/5\.1\.1.*unknown user/);
    const events = await ctx.db.select().from(emailEvents).where(eq(emailEvents.email, unknownUser));
    const launchRow = await ctx.db
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.projectId, p.id), eq(emailOutbox.toAddress, unknownUser)));
    // The event names the very email that bounced (its return path).
    expect(events.map((e) => [e.type, e.source, e.outboxId])).toEqual([['HARD_BOUNCE', 'imap', launchRow[0]!.id]]);
    expect(await ctx.db.select().from(emailSuppressions).where(eq(emailSuppressions.email, colleague))).toEqual([]);

    // Anyone may mail the bounce mailbox: a forged report naming the colleague, with an id no email of ours has, is read and dropped.
    const forged = bounce!.text
      .replace(/^Message-Id: </im, 'Message-Id: <forged.')
      .replaceAll(unknownUser, colleague)
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '11111111-2222-4333-8444-555555555555');
    const smtp = nodemailer.createTransport({ url: m.smtpUrl });
    await smtp.sendMail({ envelope: { from: '', to: `bounces@${bounceDomain}` }, raw: forged });
    smtp.close();
    await waitFor(
      () => m.maildir('bounces').length === 2 && m.maildir('bounces').every((b) => b.flags.includes('S')),
      20_000,
      'the forged report delivered and read',
    );
    expect(await ctx.db.select().from(emailSuppressions).where(eq(emailSuppressions.email, colleague))).toEqual([]);

    // Two days on, the schedule's reminder is due to both: the colleague's goes, the other is suppressed.
    ctx.clock.set('2026-03-04T09:00:00Z');
    await waitShowing(
      async () =>
        (await outboxRows(p.id)).filter((r) => r.type === 'reminder' && ['SENT', 'SUPPRESSED'].includes(r.status))
          .length === 2,
      30_000,
      'both reminders handled',
      p.id,
    );
    const reminders = (await outboxRows(p.id)).filter((r) => r.type === 'reminder');
    expect(reminders.map((r) => [r.to, r.status]).sort()).toEqual([
      [colleague, 'SENT'],
      [unknownUser, 'SUPPRESSED'],
    ]);
    expect(reminders.find((r) => r.to === unknownUser)!.error).toMatch(/suppress|bounce/i);
    await waitFor(() => m.maildir('colleague').length === 2, 15_000, "the colleague's reminder delivered");
    // Postfix saw nothing more for the suppressed address, and holds nothing for it.
    expect(deliveriesTo(unknownUser)).toHaveLength(1);
    expect(m.log()).not.toMatch(new RegExp(`to=<${unknownUser}>.*\\n(.*\\n)*.*to=<${unknownUser}>`));
    expect(await m.queue()).toMatch(/Mail queue is empty/);
    expect(m.maildir('bounces')).toHaveLength(2);
    console.warn(`mail system: the hard bounce was recorded ${took} ms after the worker started`);
  }, 120_000);

  it('two processes reading one mailbox at once record each report once', async () => {
    const m = mail!;
    const c = ctx!;
    // The app's own reader would pass over these reports (they name no email it sent): stop it.
    await stopWorker?.();
    stopWorker = undefined;
    const sent = new Map<string, string>();
    const before = m.maildir('bounces').length;
    const smtp = nodemailer.createTransport({ url: m.smtpUrl });
    for (let i = 0; i < 6; i++) {
      const id = randomUUID();
      const to = `ghost${i}@${localDomain}`;
      sent.set(id, to);
      await smtp.sendMail({
        envelope: { from: verpAddress(id, bounceDomain), to },
        from: 'no-reply@pss.test',
        to,
        subject: 'Your cases',
        text: 'Hello',
        messageId: `<${id}@pss.test>`,
      });
    }
    smtp.close();
    await waitFor(() => m.maildir('bounces').length === before + 6, 20_000, 'six more bounces');
    const suppressions = createEmailSuppressionsService({ db: c.db, clock: c.clock });
    const reader = () =>
      createBounceMailbox({
        url: m.imapUrl,
        clock: c.clock,
        recordEvent: (event) => suppressions.recordEvent(event),
        sentTo: async (id) => sent.get(id) ?? null,
      });
    const [a, b] = [reader(), reader()];
    const polls = await Promise.all([a.poll(), b.poll(), a.poll(), b.poll()]);
    expect(polls.reduce((n, p) => n + p.events, 0)).toBeGreaterThanOrEqual(6);
    const ghosts = [...sent.values()].sort();
    const events = await c.db.select().from(emailEvents).where(inArray(emailEvents.email, ghosts));
    expect(events.map((e) => e.email).sort()).toEqual(ghosts);
    const suppressed = await c.db.select().from(emailSuppressions).where(inArray(emailSuppressions.email, ghosts));
    expect(suppressed.map((r) => [r.email, r.reason]).sort()).toEqual(ghosts.map((g) => [g, 'HARD_BOUNCE']));
    expect(m.maildir('bounces').every((message) => message.flags.includes('S'))).toBe(true);
    expect(await Promise.all([a.poll(), b.poll()])).toEqual([
      { read: 0, events: 0 },
      { read: 0, events: 0 },
    ]);
  }, 60_000);
});
