import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { buildApp, type App } from '../../app.js';
import { emailOutbox, emailTestSends } from '../../db/schema/index.js';
import { capturingMailer, emailCalls } from '../../../test/email-calls.js';
import { as, call, expectError, madeBefore, type Reply, testContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createClient, createUser } from '../../../test/test-app.js';
import { secondsUntilFits } from './email-test-limits.js';

/**
 * Test sends go to any address from the platform's sender, so they are limited: here 20
 * emails a person and 40 a project within an hour (the smallest the configuration takes: one
 * whole send). Over either: 429 TEST_EMAIL_LIMIT_REACHED with Retry-After, nothing queued or
 * recorded. Each send is recorded (who, which texts, to whom) in the transaction that counts.
 */
const capture = capturingMailer();
const ctx = testContext({
  mailer: capture.mailer,
  env: { TEST_EMAILS_PER_PERSON_PER_HOUR: '20', TEST_EMAILS_PER_PROJECT_PER_HOUR: '40' },
});
/** A second app on the same database: another process, as far as the count can tell. */
const other = madeBefore(
  async () => {
    const app = await buildApp({ config: ctx.config, database: ctx.database, clock: ctx.clock, logger: false });
    await app.ready();
    return app;
  },
  (app: App) => app.close(),
);
const people = madeBefore(async () => {
  const client = await createClient(ctx.db, 'Alpha Health');
  const admin = () => createUser(ctx.db, { role: 'ADMIN', clientId: client.id });
  const superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
  return { client, superadmin, ann: await admin(), ben: await admin(), cid: await admin(), dee: await admin() };
});

async function newEmail(): Promise<string> {
  const p = await participantWork(ctx, people.superadmin).project(people.client.id);
  return (await emailCalls(ctx).emailOf(p.id, 'initial', people.superadmin)).id;
}

const addresses = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}@outside.test`);
const sendTest = (emailId: string, user: Parameters<typeof call>[3], emails: string[]) =>
  call(ctx, 'POST', `/projects/${emailId}/send-email-test`, user, { emails });
const counts = async () => ({
  outbox: (await ctx.db.select({ n: count() }).from(emailOutbox))[0]!.n,
  records: (await ctx.db.select({ n: count() }).from(emailTestSends))[0]!.n,
});

function expectLimited(reply: Reply, scope: 'person' | 'project', retryAfter: number): void {
  expectError(reply, 429, 'TEST_EMAIL_LIMIT_REACHED');
  expect(reply.json().details).toEqual({ scope, limit: scope === 'person' ? 20 : 40, retry_after_seconds: retryAfter });
  expect(reply.headers['retry-after']).toBe(String(retryAfter));
  expect(reply.json().message).toMatch(/At most \d+ test emails an hour/);
}

describe('the hour a limit counts', () => {
  const at = (minutes: number, n: number) => ({ sentAt: new Date(Date.UTC(2026, 2, 2, 9, minutes)), count: n });
  const now = new Date(Date.UTC(2026, 2, 2, 9, 50));

  it('lets a send through while it fits, else waits until enough of the oldest have left the hour', () => {
    expect(secondsUntilFits([], 20, 20, now)).toBe(0);
    expect(secondsUntilFits([at(0, 5), at(10, 5)], 10, 20, now)).toBe(0);
    // 5 at 9:00 and 10 at 9:10; 10 more fit once the 9:00 send leaves, at 10:00.
    expect(secondsUntilFits([at(0, 5), at(10, 10)], 10, 20, now)).toBe(10 * 60);
    // 20 fit only once both have left, at 10:10.
    expect(secondsUntilFits([at(0, 5), at(10, 10)], 20, 20, now)).toBe(20 * 60);
  });
});

describe('test sends', () => {
  it('are limited per person an hour: 20 pass, the 21st waits for the hour to turn, nothing queued meanwhile', async () => {
    const emailId = await newEmail();
    expect((await sendTest(emailId, people.ann, addresses(12, 'a'))).statusCode).toBe(202);
    ctx.clock.advance(10 * 60_000);
    expect((await sendTest(emailId, people.ann, addresses(8, 'b'))).json()).toEqual({ queued: 8 });
    const before = await counts();
    // Ten requests of 20 addresses (200 emails) was the open relay; each is now refused.
    // 20 more fit only once both sends have left the hour; one more once the first has.
    for (let i = 0; i < 10; i++)
      expectLimited(await sendTest(emailId, people.ann, addresses(20, `c${i}`)), 'person', 3600);
    expectLimited(await sendTest(emailId, people.ann, ['one@outside.test']), 'person', 50 * 60);
    expect(await counts()).toEqual(before);

    // 50 minutes on, the first send (12) has left the hour: 12 fit, 13 do not yet.
    ctx.clock.advance(50 * 60_000);
    expectLimited(await sendTest(emailId, people.ann, addresses(13, 'd')), 'person', 10 * 60);
    expect((await sendTest(emailId, people.ann, addresses(12, 'd'))).statusCode).toBe(202);
  });

  it('are limited per project an hour, whoever sends them', async () => {
    const emailId = await newEmail();
    expect((await sendTest(emailId, people.ben, addresses(20, 'e'))).statusCode).toBe(202);
    expect((await sendTest(emailId, people.cid, addresses(20, 'f'))).statusCode).toBe(202);
    expectLimited(await sendTest(emailId, people.superadmin, ['g@outside.test']), 'project', 3600);
    // Another project still has room for the superadmin.
    expect((await sendTest(await newEmail(), people.superadmin, ['g@outside.test'])).statusCode).toBe(202);
  });

  it('are counted once however many arrive at once, on two processes', async () => {
    const emailId = await newEmail();
    const headers = await as(ctx, people.dee);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? other : ctx.app).inject({
          method: 'POST',
          url: `/api/projects/${emailId}/send-email-test`,
          headers,
          payload: { emails: addresses(5, `h${i}-`) },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 202, 202, 202, 429, 429]);
    const [sent] = await ctx.db
      .select({ n: count() })
      .from(emailTestSends)
      .where(eq(emailTestSends.senderId, people.dee.id));
    expect(sent!.n).toBe(4);
  });

  it('are recorded: who sent which texts to whom, kept when the project is deleted', async () => {
    const p = await participantWork(ctx, people.superadmin).project(people.client.id, { name: 'Recorded' });
    const email = await emailCalls(ctx).emailOf(p.id, 'initial', people.superadmin);
    await ctx.app.emails.drain();
    capture.clear();
    const sent = await sendTest(email.id, people.superadmin, ['Someone@Outside.test', 'other@outside.test']);
    expect(sent.statusCode).toBe(202);
    const [record] = await ctx.db.select().from(emailTestSends).where(eq(emailTestSends.templateId, email.id));
    expect(record).toMatchObject({
      senderId: people.superadmin.id,
      senderEmail: people.superadmin.email,
      projectId: p.id,
      recipients: ['someone@outside.test', 'other@outside.test'],
      recipientCount: 2,
      subject: email.subject,
      body: email.body,
      buttonText: email.button_text,
      dashboardUrlText: email.dashboard_url_text,
    });
    expect(record!.sentAt.toISOString()).toBe(ctx.clock.now().toISOString());
    await ctx.app.emails.drain();
    expect(capture.sent.map((m) => m.to).sort()).toEqual(['other@outside.test', 'someone@outside.test']);

    // The project goes; the record stays (and keeps counting against its sender).
    expect((await call(ctx, 'DELETE', `/projects/${p.id}`, people.superadmin)).statusCode).toBeLessThan(300);
    const [kept] = await ctx.db.select().from(emailTestSends).where(eq(emailTestSends.id, record!.id));
    expect(kept).toMatchObject({ projectId: null, templateId: null, senderId: people.superadmin.id });
  });

  it('cannot be limited below one whole send: the configuration refuses it', async () => {
    const { loadConfig } = await import('../../config.js');
    expect(() => loadConfig({ TEST_EMAILS_PER_PERSON_PER_HOUR: '19' })).toThrow(/TEST_EMAILS_PER_PERSON_PER_HOUR/);
    expect(() => loadConfig({ TEST_EMAILS_PER_PROJECT_PER_HOUR: '0' })).toThrow(/TEST_EMAILS_PER_PROJECT_PER_HOUR/);
  });
});
