import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { emailOutbox, emailSuppressions } from '../../db/schema/index.js';
import { capturingMailer, emailCalls } from '../../../test/email-calls.js';
import { call, expectError, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';
import { createUnsubscribeLinks } from './unsubscribe-links.js';

const capture = capturingMailer();
const { ctx, f } = twoClientsContext({ mailer: capture.mailer });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);

const fixture = madeBefore(async () => {
  const p = await work.project(f.clientA.id, { name: 'Resume Program' });
  await work.publishedCase(p, 1);
  const ann = (await work.enrol(p, f.clientA.id))!;
  const ben = (await work.enrol(p, f.clientA.id))!;
  const elsewhere = await work.project(f.clientA.id, { name: 'Not Ann’s Program' });
  const reminder = (await emailCalls(ctx).projectEmails(p.id, f.asAdminA)).find((t) => t.type === 'reminder')!;
  return { p, ann, ben, elsewhere, reminder };
});

/** Ann unsubscribes from the project's reminders with the one-click POST of her link. */
async function unsubscribeAnn(): Promise<void> {
  const token = createUnsubscribeLinks(ctx.config.sessionSecret).sign(
    { userId: fixture.ann.id, projectId: fixture.p.id },
    ctx.clock.now(),
  );
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/unsubscribe/${token}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'List-Unsubscribe=One-Click',
  });
  expect(response.statusCode).toBe(204);
}

let sequence = 0;
async function reminderStatus(): Promise<string> {
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(emailOutbox)
    .values({
      projectId: fixture.p.id,
      templateId: fixture.reminder.id,
      userId: fixture.ann.id,
      toAddress: fixture.ann.email,
      kind: 'MANUAL',
      ruleDay: now.toISOString().slice(0, 10),
      dedupeKey: `resume-test:${(sequence += 1)}`,
      nextAttemptAt: now,
    })
    .returning({ id: emailOutbox.id });
  await ctx.app.emails.drain();
  return (await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.id, row!.id)))[0]!.status;
}

describe('the participant turns reminders back on from the dashboard', () => {
  it('lists the projects whose reminders they turned off, and turns them back on (the next reminder goes)', async () => {
    const { p, ann } = fixture;
    expect((await call(ctx, 'GET', '/participant/reminders', ann)).json()).toEqual({ off: [] });
    await unsubscribeAnn();
    expect(await reminderStatus()).toBe('SUPPRESSED');
    const listed = await call(ctx, 'GET', '/participant/reminders', ann);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ off: [{ project_id: p.id, since: ctx.clock.now().toISOString() }] });

    const resumed = await call(ctx, 'POST', `/participant/reminders/${p.id}`, ann);
    expect(resumed.statusCode).toBe(204);
    expect((await call(ctx, 'GET', '/participant/reminders', ann)).json()).toEqual({ off: [] });
    expect(await ctx.db.select().from(emailSuppressions)).toEqual([]);
    expect(await reminderStatus()).toBe('SENT');
    // Again: nothing to lift, nothing changes.
    expect((await call(ctx, 'POST', `/participant/reminders/${p.id}`, ann)).statusCode).toBe(204);
  });

  it('lifts only the caller’s own unsubscribe, never a suppression of the whole address', async () => {
    const { p, ann, ben } = fixture;
    await unsubscribeAnn();
    // Ben turning his reminders on changes nothing of Ann's.
    expect((await call(ctx, 'POST', `/participant/reminders/${p.id}`, ben)).statusCode).toBe(204);
    expect((await call(ctx, 'GET', '/participant/reminders', ann)).json<{ off: unknown[] }>().off).toHaveLength(1);
    expect((await call(ctx, 'GET', '/participant/reminders', ben)).json()).toEqual({ off: [] });
    await call(ctx, 'POST', `/participant/reminders/${p.id}`, ann);

    // A bounce suppresses the whole address: that is an administrator's to lift.
    await ctx.db.insert(emailSuppressions).values({
      email: ann.email.toLowerCase(),
      projectId: null,
      reason: 'HARD_BOUNCE',
      detail: '550 no such user',
      source: 'imap',
      at: ctx.clock.now(),
    });
    expect((await call(ctx, 'POST', `/participant/reminders/${p.id}`, ann)).statusCode).toBe(204);
    expect(await ctx.db.select({ reason: emailSuppressions.reason }).from(emailSuppressions)).toEqual([
      { reason: 'HARD_BOUNCE' },
    ]);
    expect((await call(ctx, 'GET', '/participant/reminders', ann)).json()).toEqual({ off: [] });
    await ctx.db.delete(emailSuppressions);
  });

  it('refuses bad input, a project the participant is not in, and every caller who is not a participant', async () => {
    const { p, ann, elsewhere } = fixture;
    await unsubscribeAnn();
    const count = async () => (await ctx.db.select().from(emailSuppressions)).length;
    expectError(await call(ctx, 'POST', '/participant/reminders/not-a-uuid', ann), 400, 'VALIDATION_ERROR');
    expectError(await call(ctx, 'POST', `/participant/reminders/${elsewhere.id}`, ann), 404, 'NOT_FOUND');
    expectError(await call(ctx, 'POST', `/participant/reminders/${crypto.randomUUID()}`, ann), 404, 'NOT_FOUND');
    for (const [caller, status, code] of [
      [{}, 401, 'NOT_AUTHORIZED'],
      [f.asAdminA, 403, 'FORBIDDEN'],
      [f.asAdminB, 403, 'FORBIDDEN'],
      [staff, 403, 'FORBIDDEN'],
    ] as const) {
      expectError(await call(ctx, 'POST', `/participant/reminders/${p.id}`, caller), status, code);
      expectError(await call(ctx, 'GET', '/participant/reminders', caller), status, code);
    }
    expect(await count()).toBe(1);
  });
});
