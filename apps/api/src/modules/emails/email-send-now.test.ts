import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { EmailsSent, SendEmailPreview } from '@pss/contract';
import { emailOutbox, projectParticipants } from '../../db/schema/index.js';
import { capturingMailer, emailCalls } from '../../../test/email-calls.js';
import { call, expectError, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

// Today is 2 March 2026: round 1 of Spring 2026 runs (1–14 March).
const capture = capturingMailer();
const { ctx, f } = twoClientsContext({ mailer: capture.mailer });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);
const emails = emailCalls(ctx);

/**
 * A project with one published case in round 1 and five participants: Ann (started in
 * January, a case left), Lee (starts in two weeks), Dan (has completed round 1), Rob
 * (rounds 2–4 only) and Zed (archived).
 */
const fixture = madeBefore(async () => {
  const p = await work.project(f.clientA.id, { name: 'Right Words Program' });
  const doc = await work.publishedCase(p, 1);
  const ann = await work.enrol(p, f.clientA.id, {}, { firstName: 'Ann', lastName: 'Able' });
  const lee = await work.enrol(p, f.clientA.id, { startDate: '2026-03-16' }, { firstName: 'Lee', lastName: 'Late' });
  const dan = await work.enrol(p, f.clientA.id, {}, { firstName: 'Dan', lastName: 'Done' });
  const rob = await work.enrol(p, f.clientA.id, { first: 2 }, { firstName: 'Rob', lastName: 'Roundtwo' });
  const zed = await work.enrol(p, f.clientA.id, {}, { firstName: 'Zed', lastName: 'Zarchived' });
  await work.complete(dan, doc);
  await ctx.db.update(projectParticipants).set({ archived: true }).where(eq(projectParticipants.userId, zed.id));
  // A second project whose round 1 holds no published case.
  const empty = await work.project(f.clientA.id, { name: 'No Cases Yet' });
  const eve = await work.enrol(empty, f.clientA.id, {}, { firstName: 'Eve', lastName: 'Early' });
  return { p, empty, ann, lee, dan, rob, zed, eve };
});

const outboxOf = async (templateId: string) =>
  (await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.templateId, templateId))).map((r) => r.userId);
const everyone = { all: true, except: [] };

async function both(templateId: string, body: object = everyone, caller: object = f.asAdminA) {
  const preview = await call(ctx, 'POST', `/projects/${templateId}/send-email/preview`, caller, body);
  expect(preview.statusCode).toBe(200);
  const before = await outboxOf(templateId);
  // The preview changes nothing.
  expect(before).toEqual([]);
  const sent = await call(ctx, 'POST', `/projects/${templateId}/send-email`, caller, body);
  expect(sent.statusCode).toBe(202);
  return { preview: preview.json<SendEmailPreview>(), sent: sent.json<EmailsSent>() };
}

const reasons = (skipped: EmailsSent['skipped']) =>
  Object.fromEntries(skipped.map((s) => [s.name, s.reason])) as Record<string, string>;

describe('“Send now” sends each participant only what is true for them', () => {
  it('the Initial Launch email: to those whose start date has come; the preview says the same, first', async () => {
    const { p, ann, dan, rob } = fixture;
    const initial = await emails.emailOf(p.id, 'initial', f.asAdminA);
    const { preview, sent } = await both(initial.id);
    expect(preview).toEqual({ recipients: 3, skipped: sent.skipped });
    expect(sent.queued).toBe(3);
    expect(reasons(sent.skipped)).toEqual({ 'Lee Late': 'Starts on 2026-03-16.' });
    expect(sent.skipped[0]!.participant_id).toBe(fixture.lee.id);
    expect((await outboxOf(initial.id)).sort()).toEqual([ann.id, dan.id, rob.id].sort());
  });

  it('a reminder: to those whose round has a case left for them; who completed, or is not in the round, is skipped', async () => {
    const { p, ann } = fixture;
    const reminder = await emails.emailOf(p.id, 'reminder', f.asAdminA);
    await ctx.app.emails.drain();
    capture.clear();
    const { preview, sent } = await both(reminder.id);
    expect(preview.recipients).toBe(1);
    expect(sent.queued).toBe(1);
    expect(reasons(sent.skipped)).toEqual({
      'Lee Late': 'Starts on 2026-03-16.',
      'Dan Done': 'Has completed the cases of round 1.',
      'Rob Roundtwo': 'Round 1 is not one of their rounds (2–4).',
    });
    expect(await outboxOf(reminder.id)).toEqual([ann.id]);
    await ctx.app.emails.drain();
    expect(capture.sent.map((m) => m.to)).toEqual([ann.email]);
  });

  it('a round without a published case sends no reminder; summary emails wait for a posted summary', async () => {
    const { empty, p } = fixture;
    const reminder = await emails.emailOf(empty.id, 'last_day_of_round', f.asAdminA);
    const none = await both(reminder.id);
    expect(none.sent).toEqual({
      queued: 0,
      skipped: [{ participant_id: fixture.eve.id, name: 'Eve Early', reason: 'Round 1 has no published case.' }],
    });
    const summary = await emails.emailOf(p.id, 'summary_launch', f.asAdminA);
    const notPosted = await both(summary.id, { ids: [fixture.ann.id] });
    expect(notPosted.sent).toEqual({
      queued: 0,
      skipped: [
        {
          participant_id: fixture.ann.id,
          name: 'Ann Able',
          reason: 'The Spring 2026 results summary is not posted.',
        },
      ],
    });
  });

  it('refuses what the send refuses, and changes nothing: bad input, another project’s participant, a disabled email', async () => {
    const { p } = fixture;
    const email = await emails.emailOf(p.id, 'last_round', f.asAdminA);
    const url = `/projects/${email.id}/send-email/preview`;
    expectError(await call(ctx, 'POST', url, f.asAdminA, { ids: [] }), 400, 'VALIDATION_ERROR');
    expectError(await call(ctx, 'POST', url, f.asAdminA, { ids: ['not-a-uuid'] }), 400, 'VALIDATION_ERROR');
    expectError(await call(ctx, 'POST', url, f.asAdminA, { all: 'yes' }), 400, 'VALIDATION_ERROR');
    const stranger = await createUser(ctx.db, { role: 'USER', clientId: f.clientB.id });
    expectError(await call(ctx, 'POST', url, f.asAdminA, { ids: [stranger.id] }), 404, 'USER_NOT_FOUND');
    const certificate = await emails.emailOf(p.id, 'certificate_issued', f.asAdminA);
    expectError(
      await call(ctx, 'POST', `/projects/${certificate.id}/send-email/preview`, f.asAdminA, everyone),
      400,
      'VALIDATION_ERROR',
    );
    await call(ctx, 'POST', `/projects/${email.id}/email-status`, f.asAdminA, { enabled: false });
    expectError(await call(ctx, 'POST', url, f.asAdminA, everyone), 409, 'EMAIL_DISABLED');
    await call(ctx, 'POST', `/projects/${email.id}/email-status`, f.asAdminA, { enabled: true });
    expect(await outboxOf(email.id)).toEqual([]);
  });

  it('is refused to another client’s administrator (not found), a participant and anyone not signed in', async () => {
    const { p, ann } = fixture;
    const email = await emails.emailOf(p.id, 'new_round', f.asAdminA);
    for (const path of ['send-email/preview', 'send-email']) {
      const url = `/projects/${email.id}/${path}`;
      expectError(await call(ctx, 'POST', url, f.asAdminB, everyone), 404, 'NOT_FOUND');
      expect((await call(ctx, 'POST', url, ann, everyone)).statusCode).toBe(403);
      expect((await call(ctx, 'POST', url, {}, everyone)).statusCode).toBe(401);
    }
    expect(await outboxOf(email.id)).toEqual([]);
    // Its own administrator and a superadmin may.
    const asSuper = await call(ctx, 'POST', `/projects/${email.id}/send-email/preview`, f.asSuperadmin, everyone);
    expect(asSuper.statusCode).toBe(200);
  });
});
