import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { CaseDocument, EmailPreview } from '@pss/contract';
import { issueEarnedCertificates } from '../../db/certificates.js';
import { certificates, emailOutbox, emailTemplates, projectParticipants } from '../../db/schema/index.js';
import type { UserRow } from '../users/users.service.js';
import { capturingMailer, emailCalls } from '../../../test/email-calls.js';
import { call, expectError, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork, type WorkProject } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

/**
 * The Certificate Email (issue #37): queued in the transaction that issues a CME certificate
 * (db/certificate-emails.ts), sent by the outbox with the certificate's public page and
 * credits, and never for a certificate revoked before its turn.
 */
const capture = capturingMailer();
const { ctx, f } = twoClientsContext({ now: '2026-03-03T10:00:00Z', mailer: capture.mailer });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);
const emails = emailCalls(ctx);

/** A project with two cases in round 1 and a CME for both (1.5 credits). */
async function cmeProject(name: string, cme = true): Promise<{ p: WorkProject; docs: CaseDocument[] }> {
  const p = await work.project(f.clientA.id, { name });
  const docs = [await work.publishedCase(p, 1, { name: 'One' }), await work.publishedCase(p, 1, { name: 'Two' })];
  if (cme) await createCme(p, 2);
  return { p, docs };
}

async function createCme(p: WorkProject, minCases: number) {
  const created = await work.call('POST', '/cmes', staff, {
    project_id: p.id,
    min_cases: minCases,
    credits: 1.5,
    moc: false,
  });
  expect(created.statusCode, created.body).toBe(201);
}

const enrol = (p: WorkProject, firstName: string) =>
  work.enrol(p, f.clientA.id, {}, { firstName, lastName: 'Lovelace' });

/** The participant's Certificate Emails in the outbox. */
const outboxOf = (user: UserRow) =>
  ctx.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.userId, user.id), sql`${emailOutbox.certificateId} is not null`));

const certificatesOf = (user: UserRow) => ctx.db.select().from(certificates).where(eq(certificates.userId, user.id));

const sentTo = (user: UserRow) => capture.sent.filter((m) => m.to === user.email);

describe('the Certificate Email', () => {
  const fixture = madeBefore(() => cmeProject('Heart Failure CME'));

  it('is queued once, by the submit that reaches the minimum, and names the certificate’s page and credits', async () => {
    const { p, docs } = fixture;
    const ada = await enrol(p, 'Ada');
    await work.complete(ada, docs[0]!);
    expect(await outboxOf(ada)).toEqual([]);
    await work.complete(ada, docs[1]!);
    const [certificate] = await certificatesOf(ada);
    const queued = await outboxOf(ada);
    expect(queued.map((r) => [r.kind, r.status, r.ruleDay, r.dedupeKey, r.certificateId, r.toAddress])).toEqual([
      ['SCHEDULED', 'QUEUED', '2026-03-03', `C:${certificate!.id}`, certificate!.id, ada.email],
    ]);

    capture.clear();
    await ctx.app.emails.drain();
    const [message, ...more] = sentTo(ada);
    expect(more).toEqual([]);
    expect(message!.subject).toBe('Heart Failure CME: your CME certificate');
    const verify = `${ctx.config.publicUrl}/verify/${certificate!.code}`;
    expect(message!.text).toContain(`your certificate for Heart Failure CME is ready. CME credits earned: 1.5.`);
    expect(message!.text).toContain(
      `Anyone can check that it is genuine at ${verify} (certificate ${certificate!.code})`,
    );
    expect(message!.html).toContain(`<a href="${verify}"`);
    // The button is the participant's own dashboard, where the PDF is.
    expect(message!.text).toMatch(/Get my certificate: \S+\/participant\/link\/\S+/);

    const log = await emails.deliveries(p.id, staff);
    const row = log.items.find((d) => d.participant?.id === ada.id)!;
    expect(row).toMatchObject({ email_name: 'Certificate Email', kind: 'SCHEDULED', status: 'SENT' });

    // A later submit (the same case again) neither issues nor queues anything more.
    const again = await work.call('POST', `/cases/${await work.attemptOf(ada, 'Two')}/submit`, ada);
    expect(again.statusCode).toBe(200);
    expect(await outboxOf(ada)).toHaveLength(1);
  });

  it('is not queued to an archived participant, nor while disabled', async () => {
    const { p, docs } = await cmeProject('Quiet CME', false);
    const [ben, cid] = [await enrol(p, 'Ben'), await enrol(p, 'Cid')];
    // Cid completed the cases before being archived; the CME created after issues him its certificate.
    for (const doc of docs) await work.complete(cid, doc);
    await ctx.db.update(projectParticipants).set({ archived: true }).where(eq(projectParticipants.userId, cid.id));
    await createCme(p, 2);
    expect(await certificatesOf(cid)).toHaveLength(1);
    expect(await outboxOf(cid)).toEqual([]);

    const template = await emails.emailOf(p.id, 'certificate_issued', staff);
    const off = await call(ctx, 'POST', `/projects/${template.id}/email-status`, staff, { enabled: false });
    expect(off.statusCode).toBe(200);
    for (const doc of docs) await work.complete(ben, doc);
    expect(await certificatesOf(ben)).toHaveLength(1);
    expect(await outboxOf(ben)).toEqual([]);
  });

  it('goes to a project made before it existed, and when a CME created later issues certificates at once', async () => {
    const { p, docs } = await cmeProject('Older CME', false);
    const dan = await enrol(p, 'Dan');
    await ctx.db
      .delete(emailTemplates)
      .where(and(eq(emailTemplates.projectId, p.id), eq(emailTemplates.type, 'certificate_issued')));
    await work.complete(dan, docs[0]!);
    await createCme(p, 1);
    const [certificate] = await certificatesOf(dan);
    expect((await outboxOf(dan)).map((r) => r.certificateId)).toEqual([certificate!.id]);
    expect((await emails.emailOf(p.id, 'certificate_issued', staff)).enabled).toBe(true);
  });

  it('of a certificate revoked before its turn is cancelled, saying why', async () => {
    const { p, docs } = fixture;
    const eve = await enrol(p, 'Eve');
    await work.complete(eve, docs[0]!);
    await work.complete(eve, docs[1]!);
    await ctx.db
      .update(certificates)
      .set({ revokedAt: ctx.clock.now(), revokedReason: 'Issued in error' })
      .where(eq(certificates.userId, eve.id));
    capture.clear();
    await ctx.app.emails.drain();
    expect(sentTo(eve)).toEqual([]);
    expect((await outboxOf(eve)).map((r) => [r.status, r.lastError])).toEqual([
      ['CANCELLED', 'The certificate was revoked before the email went.'],
    ]);
  });

  it('is not queued by a submit that rolls back', async () => {
    const { p, docs } = fixture;
    const fay = await enrol(p, 'Fay');
    await work.complete(fay, docs[0]!);
    const attemptId = await work.attemptOf(fay, 'Two');
    const at = ctx.clock.now();
    const failure = new Error('the submit fails after issuing');
    const rolledBack = ctx.db.transaction(async (tx) => {
      await tx.execute(sql`
        update user_season_round_cases set status = 'COMPLETE', score = 100, submitted_at = ${at.toISOString()}::timestamptz
        where id = ${attemptId}::uuid`);
      expect(await issueEarnedCertificates(tx, attemptId, at)).toHaveLength(1);
      const inside = await tx.select().from(emailOutbox).where(eq(emailOutbox.userId, fay.id));
      expect(inside).toHaveLength(1);
      throw failure;
    });
    await expect(rolledBack).rejects.toBe(failure);
    expect(await certificatesOf(fay)).toEqual([]);
    expect(await outboxOf(fay)).toEqual([]);
  });

  it('still goes a few days late (a round email would not), and is cancelled more than a week late', async () => {
    const { p, docs } = await cmeProject('Late CME');
    const [gus, hal] = [await enrol(p, 'Gus'), await enrol(p, 'Hal')];
    // The sender is down (this test drains only when it says): Gus's email waits three days.
    ctx.clock.set('2026-03-03T10:00:00Z');
    for (const doc of docs) await work.complete(gus, doc);
    ctx.clock.set('2026-03-06T10:00:00Z');
    capture.clear();
    await ctx.app.emails.drain();
    expect(sentTo(gus)).toHaveLength(1);

    for (const doc of docs) await work.complete(hal, doc);
    ctx.clock.set('2026-03-14T10:00:00Z');
    await ctx.app.emails.drain();
    expect(sentTo(hal)).toEqual([]);
    expect((await outboxOf(hal)).map((r) => [r.ruleDay, r.status, r.lastError])).toEqual([
      ['2026-03-06', 'CANCELLED', 'It was more than 7 days late (issued 2026-03-06).'],
    ]);
    ctx.clock.set('2026-03-03T10:00:00Z');
  });
});

describe('sending the Certificate Email by hand', () => {
  it('is refused (it has no certificate to name); a test and the preview fill in a sample certificate', async () => {
    const { p } = await cmeProject('Sample CME');
    await enrol(p, 'Ivy');
    const template = await emails.emailOf(p.id, 'certificate_issued', staff);
    const before = (await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.projectId, p.id))).length;
    const refused = await call(ctx, 'POST', `/projects/${template.id}/send-email`, staff, { all: true });
    expectError(refused, 400, 'VALIDATION_ERROR');
    expect((await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.projectId, p.id))).length).toBe(before);

    const sample = `${ctx.config.publicUrl}/verify/XXXX-XXXX-XXXX-XXXX-XXXX`;
    const test = await call(ctx, 'POST', `/projects/${template.id}/send-email-test`, staff, {
      emails: ['cert-test@example.org'],
    });
    expect(test.statusCode).toBe(202);
    capture.clear();
    await ctx.app.emails.drain();
    const [message] = capture.sent.filter((m) => m.to === 'cert-test@example.org');
    expect(message!.text).toContain('your certificate for Sample CME is ready. CME credits earned: 1.5.');
    expect(message!.text).toContain(`genuine at ${sample} (certificate XXXX-XXXX-XXXX-XXXX-XXXX)`);

    const preview = await call(ctx, 'POST', `/projects/${template.id}/email-preview`, staff, {
      subject: template.subject,
      body: template.body,
      button_text: template.button_text,
      dashboard_url_text: template.dashboard_url_text,
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json<EmailPreview>().text).toContain(`genuine at ${sample}`);
    // Another email may hold the certificate's placeholders, but names no certificate: they are empty.
    const initial = await emails.emailOf(p.id, 'initial', staff);
    const other = await call(ctx, 'POST', `/projects/${initial.id}/email-preview`, staff, {
      subject: 'Credits: [{credits}]',
      body: '<p>Link: [{certificate_link}] [{certificate_code}]</p>',
      button_text: 'Open',
      dashboard_url_text: '',
    });
    expect(other.json<EmailPreview>()).toMatchObject({ subject: 'Credits: []' });
    // Its paragraph, whose placeholders are all empty, is left out; the editor is told why.
    expect(other.json<EmailPreview>().text).not.toContain('Link:');
    expect(
      other
        .json<EmailPreview>()
        .warnings.map((w) => w.placeholder)
        .sort(),
    ).toEqual(expect.arrayContaining(['{certificate_code}', '{certificate_link}', '{credits}']));
  });
});
