import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.js';
import { ensureEmailTemplates } from '../../db/email-templates.js';
import { projects } from '../../db/schema/index.js';
import { createClient, createUser } from '../../../test/test-app.js';
import { testContext } from '../../../test/kit.js';
import { createEmailOutboxRepository, type OutboxEntry } from './email-outbox.repository.js';

const ctx = testContext();
const NOW = new Date('2026-03-02T09:00:00Z');
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

/** The rows a claim takes, as the claim first read them: due or abandoned, by turn then id. */
async function expectedClaim(at: Date, limit: number): Promise<string[]> {
  return rowsOf<{ id: string }>(
    await ctx.db.execute(sql`
      select id from email_outbox
      where (status = 'QUEUED' and next_attempt_at <= ${at.toISOString()}::timestamptz)
         or (status = 'SENDING' and lease_until < ${at.toISOString()}::timestamptz)
      order by next_attempt_at, id
      limit ${limit}`),
  ).map((r) => r.id);
}

describe('claiming outbox rows', () => {
  it('takes the due and the abandoned rows by turn then id, never a leased or a later one, each once', async () => {
    const client = await createClient(ctx.db);
    const [project] = await ctx.db.insert(projects).values({ clientId: client.id, name: 'Claims' }).returning();
    await ensureEmailTemplates(ctx.db, project!.id);
    const [template] = rowsOf<{ id: string }>(
      await ctx.db.execute(
        sql`select id from email_templates where project_id = ${project!.id}::uuid and type = 'reminder'`,
      ),
    );
    const user = await createUser(ctx.db, { role: 'USER', clientId: client.id });
    const outbox = createEmailOutboxRepository(ctx.db);
    const entry = (n: number): OutboxEntry => ({
      projectId: project!.id,
      templateId: template!.id,
      seasonId: null,
      roundNumber: null,
      userId: user.id,
      toAddress: user.email,
      kind: 'MANUAL',
      ruleDay: '2026-03-02',
      dedupeKey: `claim-test:${n}`,
    });
    // 40 rows: many sharing a turn (as a scheduler run queues them), some not due yet.
    for (let n = 0; n < 40; n++) await outbox.queue([entry(n)], minutes((n % 5) * 10 - 30));
    // Some were claimed by a sender that died (lease over), some by one still sending.
    await ctx.db.execute(sql`
      update email_outbox set status = 'SENDING', claimed_at = ${minutes(-20).toISOString()}::timestamptz,
        lease_until = ${minutes(-1).toISOString()}::timestamptz
      where dedupe_key in ('claim-test:3', 'claim-test:7', 'claim-test:12', 'claim-test:9')`);
    await ctx.db.execute(sql`
      update email_outbox set status = 'SENDING', claimed_at = ${minutes(-2).toISOString()}::timestamptz,
        lease_until = ${minutes(3).toISOString()}::timestamptz
      where dedupe_key in ('claim-test:5', 'claim-test:15')`);
    await ctx.db.execute(sql`update email_outbox set status = 'SENT' where dedupe_key = 'claim-test:10'`);

    const taken: string[] = [];
    for (;;) {
      const expected = await expectedClaim(NOW, 3);
      const claimed = await outbox.claim(NOW, minutes(5), 3);
      expect(claimed.map((c) => c.id).sort()).toEqual(expected.sort());
      if (!claimed.length) break;
      taken.push(...claimed.map((c) => c.id));
    }
    // Due now: turns -30, -20, -10 and 0 (32 rows) and the abandoned one whose turn is +10
    // (9), less the SENT one and the two still leased.
    expect(taken).toHaveLength(30);
    expect(new Set(taken).size).toBe(30);
    const states = rowsOf<{ status: string; n: number }>(
      await ctx.db.execute(sql`
        select status, count(*)::int as n from email_outbox
        where project_id = ${project!.id}::uuid and lease_until = ${minutes(5).toISOString()}::timestamptz
        group by status`),
    );
    expect(states).toEqual([{ status: 'SENDING', n: 30 }]);

    // Two senders asking at once get different rows.
    await ctx.db.execute(sql`update email_outbox set status = 'QUEUED' where project_id = ${project!.id}::uuid`);
    const [a, b] = await Promise.all([outbox.claim(NOW, minutes(5), 10), outbox.claim(NOW, minutes(5), 10)]);
    const both = [...a!, ...b!].map((c) => c.id);
    expect(both).toHaveLength(20);
    expect(new Set(both).size).toBe(20);
  });
});
