import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildApp, type App } from '../../app.js';
import { ConfigError, loadConfig } from '../../config.js';
import { emailOutbox } from '../../db/schema/index.js';
import { capturingMailer, emailCalls } from '../../../test/email-calls.js';
import { madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

/**
 * EMAIL_MAX_PER_MINUTE: here 3 a minute, counted in the database by every process together
 * (two apps on one database stand for two server processes). What is beyond the pace waits
 * for the next minute, untried; nothing fails for it.
 */
const capture = capturingMailer();
const { ctx, f } = twoClientsContext({ mailer: capture.mailer, env: { EMAIL_MAX_PER_MINUTE: '3' } });
const other = madeBefore(
  async () => {
    const app = await buildApp({
      config: ctx.config,
      database: ctx.database,
      clock: ctx.clock,
      mailer: capture.mailer,
      logger: false,
    });
    await app.ready();
    return app;
  },
  (app: App) => app.close(),
);
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);

describe('EMAIL_MAX_PER_MINUTE', () => {
  it('sends at most that many a minute across processes; the rest wait for a later minute and never fail', async () => {
    const p = await work.project(f.clientA.id, { name: 'Paced Program' });
    const initial = await emailCalls(ctx).emailOf(p.id, 'initial', f.asAdminA);
    const now = ctx.clock.now();
    const people = [];
    for (let i = 0; i < 8; i++) people.push(await work.enrol(p, f.clientA.id));
    await ctx.db.insert(emailOutbox).values(
      people.map((u, i) => ({
        projectId: p.id,
        templateId: initial.id,
        userId: u.id,
        toAddress: u.email,
        kind: 'MANUAL' as const,
        ruleDay: now.toISOString().slice(0, 10),
        dedupeKey: `pace-test:${i}`,
        nextAttemptAt: now,
      })),
    );
    const rows = () => ctx.db.select().from(emailOutbox).where(eq(emailOutbox.projectId, p.id));
    const nextMinute = new Date((Math.floor(now.getTime() / 60_000) + 1) * 60_000);

    // This minute: three, whichever process sends them.
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 3, failed: 0, retried: 0 });
    expect(capture.sent).toHaveLength(3);
    const waiting = (await rows()).filter((r) => r.status === 'QUEUED');
    expect(waiting).toHaveLength(5);
    for (const row of waiting) {
      // Back in the queue as they were: not tried, nothing in their log, their turn the next minute.
      expect([row.attempts, row.attemptLog, row.lastError, row.nextAttemptAt]).toEqual([0, [], null, nextMinute]);
    }
    expect(await other.emails.drain()).toMatchObject({ sent: 0 });
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 0 });
    ctx.clock.advance(30_000);
    expect(await other.emails.drain()).toMatchObject({ sent: 0 });

    // The next minute: three more, by the other process; then the last two.
    ctx.clock.set(nextMinute);
    expect(await other.emails.drain()).toMatchObject({ sent: 3 });
    expect(await ctx.app.emails.drain()).toMatchObject({ sent: 0 });
    ctx.clock.advance(60_000);
    const last = [await ctx.app.emails.drain(), await other.emails.drain()];
    expect(last[0]!.sent + last[1]!.sent).toBe(2);

    const done = await rows();
    expect(done.map((r) => [r.status, r.attempts, r.attemptLog.map((a) => a.outcome)])).toEqual(
      Array(8).fill(['SENT', 1, ['SENT']]),
    );
    expect(new Set(capture.sent.map((m) => m.to)).size).toBe(8);
  });

  it('is optional, and a whole positive number when set', () => {
    const base = { SESSION_SECRET: 'x'.repeat(40), DATA_DIR: ctx.config.dataDir };
    expect(loadConfig(base).emailMaxPerMinute).toBeUndefined();
    expect(loadConfig({ ...base, EMAIL_MAX_PER_MINUTE: '600' }).emailMaxPerMinute).toBe(600);
    for (const bad of ['0', '-5', '2.5', 'fast']) {
      expect(() => loadConfig({ ...base, EMAIL_MAX_PER_MINUTE: bad })).toThrow(ConfigError);
    }
  });
});
