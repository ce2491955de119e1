import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { EmailDeliveryStats } from '@pss/contract';
import { emailEvents, emailOutbox, emailSuppressions } from '../../db/schema/index.js';
import { capturingMailer, emailCalls } from '../../../test/email-calls.js';
import { call, expectError, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

const capture = capturingMailer();
const { ctx, f } = twoClientsContext({ mailer: capture.mailer });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);
const emails = emailCalls(ctx);

const statsUrl = (projectId: string) => `/projects/${projectId}/email-delivery-stats`;

describe('the project’s email delivery figures', () => {
  it('count sent, bounced, complained and suppressed by type, the unsubscribed, and warn above a 2 % bounce rate', async () => {
    const p = await work.project(f.clientA.id);
    await work.publishedCase(p, 1);
    const people = [];
    for (let i = 0; i < 4; i += 1) people.push(await work.enrol(p, f.clientA.id));
    const initial = await emails.emailOf(p.id, 'initial', f.asAdminA);
    await call(ctx, 'POST', `/projects/${initial.id}/send-email`, f.asAdminA, { ids: people.map((u) => u.id) });
    await ctx.app.emails.drain();

    const empty = await call(ctx, 'GET', statsUrl(p.id), f.asAdminA);
    expect(empty.json<EmailDeliveryStats>()).toEqual({
      by_type: [
        {
          email_type: 'initial',
          email_name: 'Initial Launch Email',
          sent: 4,
          bounced: 0,
          complained: 0,
          suppressed: 0,
        },
      ],
      unsubscribed: 0,
      bounce_rate: 0,
      bounce_warning: false,
    });

    const rows = await ctx.db
      .select({ id: emailOutbox.id, to: emailOutbox.toAddress })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.projectId, p.id), eq(emailOutbox.status, 'SENT')));
    const at = ctx.clock.now();
    await ctx.db.insert(emailEvents).values([
      { type: 'HARD_BOUNCE', email: rows[0]!.to, outboxId: rows[0]!.id, source: 'imap', externalId: 'b-1', at },
      { type: 'COMPLAINT', email: rows[1]!.to, outboxId: rows[1]!.id, source: 'postmark', externalId: 'c-1', at },
    ]);
    await ctx.db.insert(emailSuppressions).values({
      email: people[2]!.email.toLowerCase(),
      projectId: p.id,
      reason: 'UNSUBSCRIBED',
      source: 'one-click',
      at,
    });
    const reminder = await emails.emailOf(p.id, 'reminder', f.asAdminA);
    await ctx.db.insert(emailOutbox).values({
      projectId: p.id,
      templateId: reminder.id,
      userId: people[0]!.id,
      toAddress: people[0]!.email,
      kind: 'SCHEDULED',
      ruleDay: '2026-03-03',
      dedupeKey: `stats-${crypto.randomUUID()}`,
      status: 'SUPPRESSED',
    });

    const stats = (await call(ctx, 'GET', statsUrl(p.id), f.asAdminA)).json<EmailDeliveryStats>();
    expect(stats.by_type).toEqual([
      { email_type: 'initial', email_name: 'Initial Launch Email', sent: 4, bounced: 1, complained: 1, suppressed: 0 },
      { email_type: 'reminder', email_name: 'Reminder Email', sent: 0, bounced: 0, complained: 0, suppressed: 1 },
    ]);
    expect(stats).toMatchObject({ unsubscribed: 1, bounce_rate: 0.25, bounce_warning: true });
    expect((await call(ctx, 'GET', statsUrl(p.id), f.asSuperadmin)).statusCode).toBe(200);
  });

  it('is refused to another client’s administrator, a participant and an anonymous caller, and for a malformed id', async () => {
    const p = await work.project(f.clientA.id);
    const participant = await work.enrol(p, f.clientA.id);
    expectError(await call(ctx, 'GET', statsUrl(p.id), f.asAdminB), 404, 'PROJECT_NOT_FOUND');
    expectError(await call(ctx, 'GET', statsUrl(p.id), participant), 403, 'FORBIDDEN');
    expectError(await call(ctx, 'GET', statsUrl(p.id)), 401, 'NOT_AUTHORIZED');
    expectError(await call(ctx, 'GET', statsUrl('nope'), f.asAdminA), 400, 'VALIDATION_ERROR');
    expectError(await call(ctx, 'GET', statsUrl(crypto.randomUUID()), f.asAdminA), 404, 'PROJECT_NOT_FOUND');
  });
});
