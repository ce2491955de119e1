import { describe, expect, it } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import { auditEvents } from '../../db/schema/index.js';
import { testContext } from '../../../test/kit.js';
import {
  appendAuditEvents,
  canonicalJson,
  eventHash,
  GENESIS_HASH,
  verifyAuditChain,
  type AuditEventInput,
} from './audit-chain.js';

const ctx = testContext();

const staff = {
  id: '00000000-0000-4000-8000-0000000000aa',
  email: 'a@example.org',
  role: 'SUPERADMIN',
  clientId: null,
};
const event = (action: string, changes = {}): AuditEventInput => ({
  actor: staff,
  action,
  target: { type: 'case', id: '00000000-0000-4000-8000-0000000000c1' },
  changes,
});

const allEvents = () => ctx.db.select().from(auditEvents).orderBy(asc(auditEvents.seq));

/** Runs `statement` with the append-only trigger switched off, as only a superuser could. */
async function behindTheAppsBack(statement: ReturnType<typeof sql>): Promise<void> {
  await ctx.db.execute(sql`alter table audit_events disable trigger audit_events_no_change`);
  try {
    await ctx.db.execute(statement);
  } finally {
    await ctx.db.execute(sql`alter table audit_events enable trigger audit_events_no_change`);
  }
}

describe('the audit chain', () => {
  it('appends events in one linear chain, each hashing the one before, and verify walks it', async () => {
    const before = (await allEvents()).length;
    await ctx.db.transaction((tx) =>
      appendAuditEvents(tx, [event('cases.update', { name: { before: 'A', after: 'B' } })]),
    );
    await ctx.db.transaction((tx) => appendAuditEvents(tx, [event('cases.status'), event('cases.preview')]));
    const rows = await allEvents();
    expect(rows).toHaveLength(before + 3);
    rows.forEach((row, i) => {
      expect(row.seq).toBe(i + 1);
      expect(row.prevHash).toBe(i === 0 ? GENESIS_HASH : rows[i - 1]!.hash);
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    });
    expect(rows.at(-3)!.changes).toEqual({ name: { before: 'A', after: 'B' } });
    expect(await verifyAuditChain(ctx.db)).toEqual({ ok: true, checked: rows.length, first_broken_id: null });
  });

  it('keeps one chain when many transactions append at once', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => ctx.db.transaction((tx) => appendAuditEvents(tx, [event(`parallel.${i}`)]))),
    );
    const verdict = await verifyAuditChain(ctx.db);
    expect(verdict.ok).toBe(true);
    expect(verdict.checked).toBe((await allEvents()).length);
  });

  it('leaves no event, and no hole in the chain, for a change that rolled back', async () => {
    const before = await allEvents();
    await expect(
      ctx.db.transaction(async (tx) => {
        await appendAuditEvents(tx, [event('cases.update')]);
        throw new Error('the change failed after its event was written');
      }),
    ).rejects.toThrow('the change failed');
    expect(await allEvents()).toEqual(before);
    await ctx.db.transaction((tx) => appendAuditEvents(tx, [event('cases.update')]));
    expect((await allEvents()).at(-1)!.seq).toBe(before.length + 1);
    expect((await verifyAuditChain(ctx.db)).ok).toBe(true);
  });

  it('is refused UPDATE, DELETE and TRUNCATE by the database itself', async () => {
    await ctx.db.transaction((tx) => appendAuditEvents(tx, [event('cases.update')]));
    const before = await allEvents();
    for (const statement of [
      sql`update audit_events set outcome = 'FORBIDDEN' where seq = 1`,
      sql`delete from audit_events where seq = 1`,
      sql`truncate audit_events`,
    ]) {
      const refusal = await ctx.db.execute(statement).then(
        () => null,
        (error: unknown) => error,
      );
      // Drizzle wraps the database's error: its cause says why.
      expect(String((refusal as { cause?: unknown } | null)?.cause)).toMatch(
        /append-only: (UPDATE|DELETE|TRUNCATE) refused/,
      );
    }
    expect(await allEvents()).toEqual(before);
  });

  it('names the first event altered, or the one after an event removed, behind the app’s back', async () => {
    await ctx.db.transaction((tx) => appendAuditEvents(tx, [event('a'), event('b'), event('c'), event('d')]));
    const rows = await allEvents();
    const [, second, third] = rows.slice(-4);

    await behindTheAppsBack(sql`update audit_events set actor_email = 'someone@else.org' where seq = ${second!.seq}`);
    expect(await verifyAuditChain(ctx.db)).toEqual({
      ok: false,
      checked: second!.seq - 1,
      first_broken_id: second!.id,
    });
    // Put back as it was, the chain holds again.
    await behindTheAppsBack(
      sql`update audit_events set actor_email = ${second!.actorEmail} where seq = ${second!.seq}`,
    );
    expect((await verifyAuditChain(ctx.db)).ok).toBe(true);

    // A removed event: the next one is out of place.
    await behindTheAppsBack(sql`delete from audit_events where seq = ${second!.seq}`);
    expect(await verifyAuditChain(ctx.db)).toMatchObject({ ok: false, first_broken_id: third!.id });
  });
});

describe('canonical content', () => {
  it('is the same text whatever the order of keys, at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [2, { e: 0, f: 1 }] }, b: 1 }),
    );
    expect(canonicalJson({ at: new Date('2026-11-26T10:00:00.000Z'), gone: undefined })).toBe(
      '{"at":"2026-11-26T10:00:00.000Z"}',
    );
  });

  it('changes the hash with any field, and with the previous hash', () => {
    const content = {
      seq: 1,
      id: '0190f0b0-0000-7000-8000-000000000001',
      at: new Date('2026-11-26T10:00:00.000Z'),
      actorId: null,
      actorEmail: null,
      actorRole: 'SYSTEM',
      actorClientId: null,
      action: 'scheduler.send',
      targetType: null,
      targetId: null,
      projectId: null,
      clientId: null,
      requestId: null,
      ip: null,
      changes: {},
      outcome: 'success',
    };
    const hash = eventHash(GENESIS_HASH, content);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(eventHash(GENESIS_HASH, { ...content, outcome: 'NOT_FOUND' })).not.toBe(hash);
    expect(eventHash('1'.repeat(64), content)).not.toBe(hash);
  });
});
