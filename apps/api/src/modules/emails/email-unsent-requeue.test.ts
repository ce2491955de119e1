import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { emailOutbox } from '../../db/schema/index.js';
import { dayIn } from '../../lib/clock.js';
import { capturingMailer, emailCalls } from '../../../test/email-calls.js';
import { madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

const capture = capturingMailer();
const { ctx, f } = twoClientsContext({ mailer: capture.mailer });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);
const emails = emailCalls(ctx);

describe('emails not sent for want of a mail server', () => {
  it('go out once a mail server is configured, while still true; the log says why the others did not', async () => {
    const p = await work.project(f.clientA.id);
    await work.publishedCase(p, 1);
    const ann = await work.enrol(p, f.clientA.id);
    const initial = await emails.emailOf(p.id, 'initial', f.asAdminA);
    const reminder = await emails.emailOf(p.id, 'reminder', f.asAdminA);
    const now = ctx.clock.now();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    const unsent = async (key: string, values: Partial<typeof emailOutbox.$inferInsert>) => {
      const [row] = await ctx.db
        .insert(emailOutbox)
        .values({
          projectId: p.id,
          templateId: initial.id,
          userId: ann.id,
          toAddress: ann.email,
          kind: 'MANUAL',
          ruleDay: dayIn(ctx.config.scheduleTimeZone, now),
          dedupeKey: key,
          status: 'UNSENT',
          lastError: 'Not sent: no mail server is configured (SMTP_URL).',
          createdAt: daysAgo(1),
          ...values,
        })
        .returning();
      return row!.id;
    };
    const manual = await unsent('u-manual', {});
    const lateReminder = await unsent('u-reminder', {
      templateId: reminder.id,
      kind: 'SCHEDULED',
      roundNumber: 1,
      ruleDay: dayIn(ctx.config.scheduleTimeZone, daysAgo(3)),
      createdAt: daysAgo(3),
    });
    const old = await unsent('u-old', { createdAt: daysAgo(8) });
    const test = await unsent('u-test', { kind: 'TEST', userId: null, toAddress: 'tester@example.org' });

    capture.clear();
    expect(await ctx.app.emails.requeueUnsent()).toEqual({ requeued: 2, dropped: 1 });
    await ctx.app.emails.drain();
    const statusOf = async (id: string) => (await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0]!;
    expect((await statusOf(manual)).status).toBe('SENT');
    expect(await statusOf(lateReminder)).toMatchObject({
      status: 'CANCELLED',
      lastError: expect.stringMatching(/had passed/),
    });
    expect(await statusOf(old)).toMatchObject({
      status: 'CANCELLED',
      lastError: 'Not sent for want of a mail server, and more than 7 days old when one was configured.',
    });
    expect((await statusOf(test)).status).toBe('UNSENT');
    expect(capture.sent.map((m) => m.to)).toEqual([ann.email]);
    // Once is enough: nothing is left to queue again.
    expect(await ctx.app.emails.requeueUnsent()).toEqual({ requeued: 0, dropped: 0 });
  });
});
