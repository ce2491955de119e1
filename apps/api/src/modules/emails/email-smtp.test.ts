import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { emailOutbox } from '../../db/schema/index.js';
import { emailCalls } from '../../../test/email-calls.js';
import { twoClients } from '../../../test/fixtures.js';
import { call } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { freePort, startSmtpPeer } from '../../../test/smtp-peer.js';
import { createTestContext, createUser, type TestContext } from '../../../test/test-app.js';

/** The outbox through the real mailer (nodemailer) to a real SMTP server the test starts and stops. */
describe('sending through a real SMTP server', () => {
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    // The app first: it closes its pooled connections, which the server otherwise waits 30 s for.
    for (const close of closing) await close();
  });

  it('SMTP down, then up: every due email is delivered exactly once', async () => {
    const port = await freePort();
    const ctx: TestContext = await createTestContext({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    closing.push(() => ctx.close());
    const f = await twoClients(ctx);
    const work = participantWork(ctx, await createUser(ctx.db, { role: 'SUPERADMIN' }));
    const p = await work.project(f.clientA.id, { name: 'SMTP Program' });
    const participants: { email: string }[] = [];
    for (let i = 0; i < 5; i++) participants.push(await work.enrol(p, f.clientA.id));
    const initial = await emailCalls(ctx).emailOf(p.id, 'initial', f.asAdminA);
    const all = await call(ctx, 'POST', `/projects/${initial.id}/send-email`, f.asAdminA, { all: true });
    const test = await call(ctx, 'POST', `/projects/${initial.id}/send-email-test`, f.asAdminA, {
      emails: ['one@example.org', 'two@example.org'],
    });
    expect([all.json(), test.json()]).toEqual([{ queued: 5, skipped: [] }, { queued: 2 }]);

    // Nobody listens: each email waits for a retry, with the failure recorded.
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 0, retried: 7, failed: 0 });
    const waiting = await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.projectId, p.id));
    expect(waiting.map((r) => [r.status, r.attempts])).toEqual(Array(7).fill(['QUEUED', 1]));
    expect(waiting[0]!.lastError).toMatch(/ECONNREFUSED/);

    const smtp = await startSmtpPeer(port);
    closing.push(() => smtp.close());
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 0 }); // not before the retry is due
    ctx.clock.advance(31_000);
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 7, retried: 0 });
    ctx.clock.advance(10 * 60_000);
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 0 });

    const recipients = smtp.received.flatMap((m) => m.to).sort();
    expect(recipients).toEqual([...participants.map((u) => u.email), 'one@example.org', 'two@example.org'].sort());
    expect(new Set(smtp.received.map((m) => m.messageId)).size).toBe(7);
    // Both parts, and the participant's own link in the message.
    const toFirst = smtp.received.find((m) => m.to[0] === participants[0]!.email)!;
    expect(toFirst.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(toFirst.raw).toMatch(/Content-Type: text\/plain/i);
    expect(toFirst.raw).toMatch(/Content-Type: text\/html/i);
    expect(toFirst.raw.replace(/=\r?\n/g, '')).toContain('/participant/link/');
    const sent = await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.projectId, p.id));
    expect(sent.map((r) => [r.status, r.attempts, r.attemptLog.map((a) => a.outcome)])).toEqual(
      Array(7).fill(['SENT', 2, ['RETRY', 'SENT']]),
    );
  }, 60_000);
});
