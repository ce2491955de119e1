import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { EmailDelivery, ParticipantLink, ParticipantLoginResponse } from '@pss/contract';
import { auditEvents, emailOutbox, emailTemplates, projectParticipants, users } from '../../db/schema/index.js';
import { capturingMailer, emailCalls, linkIn } from '../../../test/email-calls.js';
import { call, expectError, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

const capture = capturingMailer();
const { ctx, f } = twoClientsContext({ mailer: capture.mailer });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);
const emails = emailCalls(ctx);

/** Client A's project with two participants, the second archived, and one of client B's. */
const fixture = madeBefore(async () => {
  const p = await work.project(f.clientA.id, { name: 'Heart Failure Program' });
  await work.publishedCase(p, 1);
  const ann = await work.enrol(p, f.clientA.id);
  const gone = await work.enrol(p, f.clientA.id);
  await ctx.db.update(projectParticipants).set({ archived: true }).where(eq(projectParticipants.userId, gone.id));
  const other = await work.project(f.clientB.id, { name: 'Bravo Program' });
  const bob = await work.enrol(other, f.clientB.id);
  return { p, ann, gone, other, bob };
});

const outboxCount = async () => (await ctx.db.select({ id: emailOutbox.id }).from(emailOutbox)).length;
const linkUrl = (userId: string, projectId: string) => `/users/${userId}/${projectId}/dashboard-link`;
const sendUrl = (userId: string, projectId: string) => `/users/${userId}/${projectId}/send-link`;

describe('copying a participant’s link', () => {
  it('answers a new link that signs the participant in once, and the trail records who took it, not the link', async () => {
    const { p, ann } = fixture;
    const taken = await call(ctx, 'POST', linkUrl(ann.id, p.id), f.asAdminA);
    expect(taken.statusCode).toBe(200);
    const link = taken.json<ParticipantLink>();
    expect(link.url).toMatch(new RegExp(`^${ctx.config.publicUrl}/participant/link/[\\w.-]+$`));
    const days = (Date.parse(link.expires_at) - ctx.clock.now().getTime()) / 86_400_000;
    expect(days).toBe(ctx.config.linkTtlDays);

    const token = link.url.split('/participant/link/')[1]!;
    const signedIn = await call(ctx, 'POST', '/auth/login/halfuser', {}, { token });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json<ParticipantLoginResponse>().user.email).toBe(ann.email);
    expectError(await call(ctx, 'POST', '/auth/login/halfuser', {}, { token }), 401, 'NOT_AUTHORIZED');

    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'participantLinks.take'), eq(auditEvents.targetId, ann.id)));
    expect(event).toMatchObject({ targetType: 'user', projectId: p.id, clientId: f.clientA.id, outcome: 'success' });
    expect(event!.changes).toMatchObject({ expires_at: { before: null, after: link.expires_at } });
    expect(JSON.stringify(event)).not.toContain(token);
  });

  it('is refused for a participant not in the project, an archived one, another client’s, and to everyone but staff who see the project', async () => {
    const { p, ann, gone, other, bob } = fixture;
    expectError(await call(ctx, 'POST', linkUrl(bob.id, p.id), f.asAdminA), 404, 'USER_NOT_FOUND');
    expectError(await call(ctx, 'POST', linkUrl(gone.id, p.id), f.asAdminA), 404, 'USER_NOT_FOUND');
    expectError(await call(ctx, 'POST', linkUrl(bob.id, other.id), f.asAdminA), 404, 'PROJECT_NOT_FOUND');
    expectError(await call(ctx, 'POST', linkUrl(ann.id, p.id), f.asAdminB), 404, 'PROJECT_NOT_FOUND');
    expectError(await call(ctx, 'POST', linkUrl(ann.id, p.id), ann), 403, 'FORBIDDEN');
    expectError(await call(ctx, 'POST', linkUrl(ann.id, p.id)), 401, 'NOT_AUTHORIZED');
    expectError(await call(ctx, 'POST', linkUrl('not-a-uuid', p.id), f.asAdminA), 400, 'VALIDATION_ERROR');
    expect((await call(ctx, 'POST', linkUrl(ann.id, p.id), f.asSuperadmin)).statusCode).toBe(200);
  });
});

describe('sending a participant their link', () => {
  it('queues the Dashboard Link Email (202), which goes at once with a link of its own', async () => {
    capture.clear();
    const { p, ann } = fixture;
    const sent = await call(ctx, 'POST', sendUrl(ann.id, p.id), f.asAdminA);
    expect(sent.statusCode).toBe(202);
    expect(sent.json()).toEqual({ queued: 1 });
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 1 });
    const [message] = capture.sent;
    expect(message).toMatchObject({ to: ann.email, subject: 'Heart Failure Program: your dashboard link' });
    const token = linkIn(message!).split('/participant/link/')[1]!;
    expect((await call(ctx, 'POST', '/auth/login/halfuser', {}, { token })).statusCode).toBe(200);

    // Each ask sends one: the administrator asks because the last did not arrive.
    expect((await call(ctx, 'POST', sendUrl(ann.id, p.id), f.asAdminA)).json()).toEqual({ queued: 1 });
    const log = await emails.deliveries(p.id, f.asAdminA);
    expect(log.items.filter((d) => d.email_type === 'dashboard_link' && d.participant?.id === ann.id)).toHaveLength(2);
  });

  it('is refused like taking a link, and not sent while the Dashboard Link Email is disabled', async () => {
    const { p, ann, gone, bob } = fixture;
    const before = await outboxCount();
    expectError(await call(ctx, 'POST', sendUrl(bob.id, p.id), f.asAdminA), 404, 'USER_NOT_FOUND');
    expectError(await call(ctx, 'POST', sendUrl(gone.id, p.id), f.asAdminA), 404, 'USER_NOT_FOUND');
    expectError(await call(ctx, 'POST', sendUrl(ann.id, p.id), f.asAdminB), 404, 'PROJECT_NOT_FOUND');
    expectError(await call(ctx, 'POST', sendUrl(ann.id, p.id), ann), 403, 'FORBIDDEN');
    expectError(await call(ctx, 'POST', sendUrl(ann.id, p.id)), 401, 'NOT_AUTHORIZED');
    const where = and(eq(emailTemplates.projectId, p.id), eq(emailTemplates.type, 'dashboard_link'));
    await ctx.db.update(emailTemplates).set({ enabled: false }).where(where);
    expectError(await call(ctx, 'POST', sendUrl(ann.id, p.id), f.asAdminA), 409, 'EMAIL_DISABLED');
    await ctx.db.update(emailTemplates).set({ enabled: true }).where(where);
    expect(await outboxCount()).toBe(before);
  });
});

describe('sending a row of the delivery log again', () => {
  const resendUrl = (projectId: string, deliveryId: string) =>
    `/projects/${projectId}/email-deliveries/${deliveryId}/resend`;

  it('queues the same email to the participant’s address as it is now; the old line stays', async () => {
    await ctx.app.emails.drain();
    capture.clear();
    const { p, ann } = fixture;
    const initial = await emails.emailOf(p.id, 'initial', f.asAdminA);
    await call(ctx, 'POST', `/projects/${initial.id}/send-email`, f.asAdminA, { ids: [ann.id] });
    await ctx.app.emails.drain();
    const first = (await emails.deliveries(p.id, f.asAdminA)).items.find(
      (d: EmailDelivery) => d.email_type === 'initial' && d.participant?.id === ann.id,
    )!;
    expect(first.status).toBe('SENT');
    // The address was corrected since (after a bounce, say): the email goes to the new one.
    await ctx.db
      .update(users)
      .set({ email: `fixed.${ann.email}` })
      .where(eq(users.id, ann.id));
    const again = await call(ctx, 'POST', resendUrl(p.id, first.id), f.asAdminA);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ queued: 1 });
    await ctx.app.emails.drain();
    expect(capture.sent.map((m) => [m.to, m.subject])).toEqual([
      [ann.email, 'Heart Failure Program: your patient cases are ready'],
      [`fixed.${ann.email}`, 'Heart Failure Program: your patient cases are ready'],
    ]);
    const lines = (await emails.deliveries(p.id, f.asAdminA)).items.filter(
      (d: EmailDelivery) => d.email_type === 'initial' && d.participant?.id === ann.id,
    );
    expect(lines.map((d) => [d.to, d.status, d.kind]).sort()).toEqual(
      [
        [ann.email, 'SENT', 'MANUAL'],
        [`fixed.${ann.email}`, 'SENT', 'MANUAL'],
      ].sort(),
    );
    await ctx.db.update(users).set({ email: ann.email }).where(eq(users.id, ann.id));
  });

  it('refuses an email still on its way, a test send, another project’s row, and callers who cannot see the project', async () => {
    const { p, ann, other } = fixture;
    const initial = await emails.emailOf(p.id, 'initial', f.asAdminA);
    await call(ctx, 'POST', `/projects/${initial.id}/send-email-test`, f.asAdminA, { emails: ['t@example.org'] });
    const [queued] = await ctx.db
      .insert(emailOutbox)
      .values({
        projectId: p.id,
        templateId: initial.id,
        userId: ann.id,
        toAddress: ann.email,
        kind: 'MANUAL',
        ruleDay: '2026-03-01',
        dedupeKey: `pending-${crypto.randomUUID()}`,
      })
      .returning();
    const before = await outboxCount();
    expectError(await call(ctx, 'POST', resendUrl(p.id, queued!.id), f.asAdminA), 409, 'EMAIL_STILL_PENDING');
    await ctx.db.delete(emailOutbox).where(eq(emailOutbox.id, queued!.id));
    await ctx.app.emails.drain();
    const test = (await emails.deliveries(p.id, f.asAdminA)).items.find((d: EmailDelivery) => d.kind === 'TEST')!;
    expectError(await call(ctx, 'POST', resendUrl(p.id, test.id), f.asAdminA), 400, 'VALIDATION_ERROR');
    expectError(await call(ctx, 'POST', resendUrl(other.id, test.id), f.asSuperadmin), 404, 'NOT_FOUND');
    expectError(await call(ctx, 'POST', resendUrl(p.id, test.id), f.asAdminB), 404, 'PROJECT_NOT_FOUND');
    expectError(await call(ctx, 'POST', resendUrl(p.id, test.id), ann), 403, 'FORBIDDEN');
    expectError(await call(ctx, 'POST', resendUrl(p.id, 'nope'), f.asAdminA), 400, 'VALIDATION_ERROR');
    expect(await outboxCount()).toBe(before - 1);
  });
});
