import { afterAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEvents, emailEvents, emailOutbox, emailSuppressions } from '../../db/schema/index.js';
import { emailCalls } from '../../../test/email-calls.js';
import { twoClients } from '../../../test/fixtures.js';
import { call } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { startSmtpPeer } from '../../../test/smtp-peer.js';
import { createTestContext, createUser, type TestContext } from '../../../test/test-app.js';
import type { EmailEvent } from './email-events.js';
import { outboxIdFromVerp } from './email-return-path.js';
import { createEmailSuppressionsService } from './email-suppressions.service.js';

/** The suppressions service as the app makes it: on the unit of work's handle, recording as the system. */
function suppressionsOf(ctx: TestContext) {
  return createEmailSuppressionsService({ db: ctx.app.units.db, clock: ctx.clock, audit: ctx.app.audit });
}

let serial = 0;
function event(email: string, type: EmailEvent['type'], outboxId: string | null = null, at?: Date): EmailEvent {
  serial += 1;
  return {
    type,
    email,
    outboxId,
    detail: `smtp; 550 5.1.1 test ${serial}`,
    source: 'imap',
    externalId: `<report-${serial}@example.org>`,
    at: at ?? new Date('2026-03-02T10:00:00Z'),
  };
}

describe('the suppression list and the bounces that fill it', () => {
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closing) await close();
  });

  it('sends each email with its own return path, and nothing to a suppressed address (SUPPRESSED, with why)', async () => {
    const smtp = await startSmtpPeer();
    const ctx = await createTestContext({ env: { SMTP_URL: smtp.url, BOUNCE_DOMAIN: 'bounces.example.org' } });
    closing.push(() => smtp.close());
    closing.push(() => ctx.close());
    const f = await twoClients(ctx);
    const work = participantWork(ctx, await createUser(ctx.db, { role: 'SUPERADMIN' }));
    const p = await work.project(f.clientA.id, { name: 'Return Path Program' });
    // A case to take in round 1, so the reminder is true for them ("Send now" sends only what is).
    await work.publishedCase(p, 1);
    const fine = await work.enrol(p, f.clientA.id);
    const bounced = await work.enrol(p, f.clientA.id);
    const unsubscribed = await work.enrol(p, f.clientA.id);
    const suppressions = suppressionsOf(ctx);
    // Written in capitals by the reader: the list keeps addresses lower-cased.
    await suppressions.recordEvent(event(bounced.email.toUpperCase(), 'HARD_BOUNCE'));
    await suppressions.suppress({
      email: unsubscribed.email,
      reason: 'UNSUBSCRIBED',
      detail: '',
      source: 'one-click',
      projectId: p.id,
    });

    const emails = emailCalls(ctx);
    const initial = await emails.emailOf(p.id, 'initial', f.asAdminA);
    const reminder = await emails.emailOf(p.id, 'reminder', f.asAdminA);
    // Each of them is sent the initial email and a reminder by hand (queued as "Send now" queues them).
    const people = [fine, bounced, unsubscribed];
    await ctx.db.insert(emailOutbox).values(
      [initial, reminder].flatMap((template) =>
        people.map((person) => ({
          projectId: p.id,
          templateId: template.id,
          userId: person.id,
          toAddress: person.email,
          kind: 'MANUAL' as const,
          ruleDay: '2026-03-02',
          dedupeKey: `M:${template.id}:${person.id}`,
          nextAttemptAt: ctx.clock.now(),
        })),
      ),
    );
    const test = await call(ctx, 'POST', `/projects/${initial.id}/send-email-test`, f.asAdminA, {
      emails: [bounced.email],
    });
    expect(test.statusCode).toBe(202);
    await ctx.app.emails.drain();

    // The initial email to the one who unsubscribed from reminders goes; their reminder does not.
    const got = smtp.received.map((m) => m.to[0]);
    expect(got.sort()).toEqual([fine.email, fine.email, unsubscribed.email].sort());
    for (const message of smtp.received) {
      const id = outboxIdFromVerp(message.from);
      expect(message.from).toBe(`bounces+${id}@bounces.example.org`);
      // The return path names the very email, whose Message-ID is its own.
      expect(message.messageId).toContain(`<${id}@`);
    }
    const rows = await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.projectId, p.id));
    const statusOf = (to: string, templateId: string, kind = 'MANUAL') =>
      rows.find((r) => r.toAddress === to && r.templateId === templateId && r.kind === kind);
    expect(statusOf(bounced.email, initial.id)).toMatchObject({
      status: 'SUPPRESSED',
      lastError: 'Suppressed: the address is on the suppression list (HARD_BOUNCE).',
      attempts: 0,
    });
    expect(statusOf(bounced.email, reminder.id)?.status).toBe('SUPPRESSED');
    // A test send to a suppressed address does not go either.
    expect(statusOf(bounced.email, initial.id, 'TEST')?.status).toBe('SUPPRESSED');
    expect(statusOf(unsubscribed.email, reminder.id)).toMatchObject({
      status: 'SUPPRESSED',
      lastError: 'Suppressed: the participant unsubscribed from this project’s reminders.',
    });
    expect(statusOf(unsubscribed.email, initial.id)?.status).toBe('SENT');
    // The delivery log says it.
    const log = await emails.deliveries(p.id, f.asAdminA, `?filter=${encodeURIComponent('{"status":"SUPPRESSED"}')}`);
    expect(log.total).toBe(4);

    // Lifted, the address gets mail again.
    expect(await suppressions.lift({ email: bounced.email })).toBe(true);
    expect(await suppressions.lift({ email: bounced.email })).toBe(false);
    const again = await call(ctx, 'POST', `/projects/${initial.id}/send-email-test`, f.asAdminA, {
      emails: [bounced.email],
    });
    expect(again.statusCode).toBe(202);
    await ctx.app.emails.drain();
    expect(smtp.received.filter((m) => m.to[0] === bounced.email)).toHaveLength(1);
  }, 90_000);

  it('a hard bounce or a complaint suppresses at once, once; soft bounces after three in a row; each recorded as the system', async () => {
    const ctx = await createTestContext();
    closing.push(() => ctx.close());
    const suppressions = suppressionsOf(ctx);
    const hard = event('Hard@Example.org', 'HARD_BOUNCE');
    await suppressions.recordEvent(hard);
    // The same report read twice (a mailbox read again, a webhook retried): recorded once.
    await suppressions.recordEvent({ ...hard, detail: 'again' });
    await suppressions.recordEvent(event('angry@example.org', 'COMPLAINT'));
    await suppressions.recordEvent({ ...event('hard@example.org', 'COMPLAINT') });

    const rows = await ctx.db.select().from(emailSuppressions);
    expect(rows.map((r) => [r.email, r.reason, r.projectId]).sort()).toEqual([
      ['angry@example.org', 'COMPLAINT', null],
      ['hard@example.org', 'HARD_BOUNCE', null],
    ]);
    expect(await ctx.db.select().from(emailEvents).where(eq(emailEvents.email, 'hard@example.org'))).toHaveLength(2);
    const recorded = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'emails.bounce'), eq(auditEvents.targetId, 'hard@example.org')));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ actorRole: 'SYSTEM', targetType: 'email-suppression' });
    expect(recorded[0]!.changes.suppression?.after).toMatchObject({ reason: 'HARD_BOUNCE', source: 'imap' });

    // Soft bounces: two do not suppress, the third in a row does.
    const soft = 'soft@example.org';
    await suppressions.recordEvent(event(soft, 'SOFT_BOUNCE'));
    await suppressions.recordEvent(event(soft, 'SOFT_BOUNCE'));
    expect(await ctx.db.select().from(emailSuppressions).where(eq(emailSuppressions.email, soft))).toHaveLength(0);
    await suppressions.recordEvent(event(soft, 'SOFT_BOUNCE'));
    const [third] = await ctx.db.select().from(emailSuppressions).where(eq(emailSuppressions.email, soft));
    expect(third).toMatchObject({ reason: 'SOFT_BOUNCES', source: 'imap' });
  });

  it('an email that went through between soft bounces breaks the row', async () => {
    const ctx = await createTestContext();
    closing.push(() => ctx.close());
    const f = await twoClients(ctx);
    const work = participantWork(ctx, await createUser(ctx.db, { role: 'SUPERADMIN' }));
    const p = await work.project(f.clientA.id);
    const person = await work.enrol(p, f.clientA.id);
    const initial = await emailCalls(ctx).emailOf(p.id, 'initial', f.asAdminA);
    // Four emails sent a day apart; the first, second and fourth soft-bounce, the third went through.
    const sent: string[] = [];
    for (let day = 1; day <= 4; day++) {
      const [row] = await ctx.db
        .insert(emailOutbox)
        .values({
          projectId: p.id,
          templateId: initial.id,
          userId: person.id,
          toAddress: person.email,
          kind: 'MANUAL',
          ruleDay: `2026-03-0${day}`,
          dedupeKey: `soft-${day}`,
          status: 'SENT',
          sentAt: new Date(`2026-03-0${day}T09:00:00Z`),
        })
        .returning();
      sent.push(row!.id);
    }
    const suppressions = suppressionsOf(ctx);
    const late = new Date('2026-03-05T12:00:00Z');
    // The bounces of the first two arrive late, after the fourth went: still in order.
    await suppressions.recordEvent(event(person.email, 'SOFT_BOUNCE', sent[0]!, late));
    await suppressions.recordEvent(event(person.email, 'SOFT_BOUNCE', sent[1]!, late));
    await suppressions.recordEvent(event(person.email, 'SOFT_BOUNCE', sent[3]!, late));
    const rows = () => ctx.db.select().from(emailSuppressions).where(eq(emailSuppressions.email, person.email));
    // The third went through between them: only one soft bounce in a row since.
    expect(await rows()).toHaveLength(0);
    // The third bounces after all: now three in a row.
    await suppressions.recordEvent(event(person.email, 'SOFT_BOUNCE', sent[2]!, late));
    expect((await rows()).map((r) => r.reason)).toEqual(['SOFT_BOUNCES']);
    // An event naming an email that is no outbox row's keeps the event, without the link.
    await suppressions.recordEvent(event('x@example.org', 'HARD_BOUNCE', '00000000-0000-4000-8000-000000000000'));
    const [kept] = await ctx.db.select().from(emailEvents).where(eq(emailEvents.email, 'x@example.org'));
    expect(kept?.outboxId).toBeNull();
  });
});
