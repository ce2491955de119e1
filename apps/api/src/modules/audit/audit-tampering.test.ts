import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { asc, desc, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditChain, auditEvents } from '../../db/schema/index.js';
import { as, call } from '../../../test/kit.js';
import { createTestContext, createUser, type TestContext } from '../../../test/test-app.js';
import { appendAuditEvents, sealAuditChain, type AuditEventInput } from './audit-chain.js';
import { chainExportLines, verifyChainExport } from './audit-chain-export.js';
import { CHECKPOINTS_FILE, createCheckpointBook, type CheckpointBook } from './audit-checkpoints.js';
import { checkpointHolds, type Checkpoint } from './audit-seals.js';
import { keySealedTheChain, verifyAuditChain } from './audit-verify.js';

/**
 * Issue #46: each way of rewriting the trail behind the app's back — as a superuser with the
 * triggers off, the one who can — is named by the check with its kind, from the database and
 * from an export of it. Each case gets a database of its own.
 */

const work = mkdtempSync(path.join(os.tmpdir(), 'pss-audit-tampering-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const silent = { info: () => undefined, error: () => undefined };

let open: TestContext | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

interface Trail {
  ctx: TestContext;
  key: string;
  book: CheckpointBook;
  /** The events in chain order, each with its place. */
  events: { seq: number; id: string; chainSeq: number }[];
  verify(): ReturnType<typeof verifyAuditChain>;
  /** The same check on an export of the chain, as an auditor runs it offline. */
  verifyExport(): Promise<ReturnType<typeof verifyChainExport>>;
}

const actor = { id: null, email: 'someone@example.org', role: 'SUPERADMIN', clientId: null };
const event = (i: number): AuditEventInput => ({
  actor,
  action: `cases.update`,
  target: { type: 'case', id: `case-${i}` },
  changes: { name: { before: `A${i}`, after: `B${i}` } },
  at: new Date(Date.UTC(2026, 2, 2, 9, 0, i)),
});

/** A trail of eight events written and sealed by the app, and a checkpoint of its head. */
async function trail(): Promise<Trail> {
  const ctx = await createTestContext();
  open = ctx;
  const key = ctx.config.auditSigningKey;
  const book = createCheckpointBook({
    dataDir: mkdtempSync(path.join(work, 'data-')),
    key,
    log: silent,
    clock: ctx.clock,
  });
  for (let i = 1; i <= 8; i++) await ctx.db.transaction((tx) => appendAuditEvents(tx, [event(i)]));
  await sealAuditChain(ctx.db, key);
  expect(await book.record(ctx.db)).not.toBeNull();
  const events = await ctx.db
    .select({ seq: auditEvents.seq, id: auditEvents.id, chainSeq: auditChain.chainSeq })
    .from(auditEvents)
    .innerJoin(auditChain, sql`${auditChain.eventSeq} = ${auditEvents.seq}`)
    .orderBy(asc(auditChain.chainSeq));
  const verify = () => verifyAuditChain(ctx.db, { key, checkpoints: book.read() });
  const verifyExport = async () => {
    let text = '';
    for await (const piece of chainExportLines(ctx.db, ctx.clock.now())) text += piece;
    return verifyChainExport(text.split('\n'), key, book.read());
  };
  expect(await verify()).toMatchObject({ ok: true, checked: 8, problems: [] });
  return { ctx, key, book, events, verify, verifyExport };
}

/** Runs statements as the schema's owner (a superuser here) with the trail's triggers off. */
async function behindTheAppsBack(db: Db, ...statements: ReturnType<typeof sql>[]): Promise<void> {
  await db.execute(sql`alter table audit_events disable trigger user`);
  await db.execute(sql`alter table audit_chain disable trigger user`);
  try {
    for (const statement of statements) await db.execute(statement);
  } finally {
    await db.execute(sql`alter table audit_events enable trigger user`);
    await db.execute(sql`alter table audit_chain enable trigger user`);
  }
}

describe('verify names what was done behind the app’s back', () => {
  it('an event altered, and every link after it hashed again: ALTERED, at that event', async () => {
    const t = await trail();
    const third = t.events[2]!;
    await behindTheAppsBack(
      t.ctx.ownerDb,
      sql`update audit_events set changes = '{"name":{"before":"A3","after":"C3"}}' where seq = ${third.seq}`,
    );
    // What the database alone can compute: each link from the altered one on, made again with
    // the unkeyed hash, each following the one before (still marked keyed, then marked not).
    for (const keyed of [true, false]) {
      for (const link of t.events.slice(2)) {
        await behindTheAppsBack(
          t.ctx.ownerDb,
          sql`update audit_chain c set hash = audit_event_hash(c.prev_hash, e), keyed = ${keyed}
              from audit_events e where e.seq = c.event_seq and c.chain_seq = ${link.chainSeq}`,
          sql`update audit_chain n set prev_hash = c.hash from audit_chain c
              where c.chain_seq = ${link.chainSeq} and n.chain_seq = ${link.chainSeq + 1}`,
        );
      }
      for (const verdict of [await t.verify(), await t.verifyExport()]) {
        expect(verdict).toMatchObject({ ok: false, checked: 2, first_broken_id: third.id });
        expect(verdict.problems[0]).toMatchObject({ kind: 'ALTERED', id: third.id });
        // Every later link is named too: none holds its seal.
        expect(verdict.problems.filter((p) => p.kind === 'ALTERED').map((p) => p.id)).toEqual(
          expect.arrayContaining(t.events.slice(2).map((e) => e.id)),
        );
      }
    }
  });

  it('a middle event deleted, with its link or without: MISSING', async () => {
    const t = await trail();
    const [fifth, sixth] = [t.events[4]!, t.events[5]!];
    await behindTheAppsBack(t.ctx.ownerDb, sql`delete from audit_events where seq = ${fifth.seq}`);
    for (const verdict of [await t.verify(), await t.verifyExport()]) {
      expect(verdict).toMatchObject({ ok: false, checked: 4, first_broken_id: fifth.id });
      expect(verdict.problems).toEqual([expect.objectContaining({ kind: 'MISSING', id: fifth.id })]);
    }
    await behindTheAppsBack(t.ctx.ownerDb, sql`delete from audit_chain where chain_seq = ${fifth.chainSeq}`);
    for (const verdict of [await t.verify(), await t.verifyExport()]) {
      expect(verdict.problems).toEqual([
        expect.objectContaining({ kind: 'MISSING', id: sixth.id, detail: expect.stringContaining('place 5') }),
      ]);
    }
  });

  it('the newest events deleted with their links: TAIL_MISSING, past the last checkpoint', async () => {
    const t = await trail();
    const [, , , , , sixth, seventh, eighth] = t.events;
    await behindTheAppsBack(
      t.ctx.ownerDb,
      sql`delete from audit_chain where chain_seq >= ${seventh!.chainSeq}`,
      sql`delete from audit_events where seq in (${seventh!.seq}, ${eighth!.seq})`,
    );
    for (const verdict of [await t.verify(), await t.verifyExport()]) {
      expect(verdict).toMatchObject({ ok: false, checked: 6, first_broken_id: sixth!.id });
      expect(verdict.problems).toEqual([
        expect.objectContaining({
          kind: 'TAIL_MISSING',
          id: sixth!.id,
          detail: expect.stringContaining('the chain ends at place 6'),
        }),
      ]);
    }
    // No new checkpoint is written over the cut: it would take the evidence away.
    expect(await t.book.record(t.ctx.db, { always: true })).toBeNull();
    expect((await t.verify()).problems[0]!.kind).toBe('TAIL_MISSING');
  });

  it('an event inserted with no seal: NOT_ON_CHAIN, at a place the sealer has passed or beyond any given', async () => {
    const t = await trail();
    const forged = ['00000000-0000-7000-8000-00000000f001', '00000000-0000-7000-8000-00000000f002'];
    for (const [i, seq] of [0, 9_000_000_000].entries()) {
      await t.ctx.ownerDb.execute(sql`
        insert into audit_events (seq, id, at, actor_role, action, changes, outcome)
        overriding system value
        values (${seq}, ${forged[i]}, now(), 'SUPERADMIN', 'users.update', '{}', 'success')`);
    }
    // The sealer does not take them: they are not where it looks.
    await sealAuditChain(t.ctx.db, t.key);
    for (const verdict of [await t.verify(), await t.verifyExport()]) {
      expect(verdict).toMatchObject({ ok: false, checked: 8, first_broken_id: forged[0] });
      expect(verdict.problems.map((p) => [p.kind, p.id])).toEqual([
        ['NOT_ON_CHAIN', forged[0]],
        ['NOT_ON_CHAIN', forged[1]],
      ]);
    }
  });

  it('an event inserted with a time months back: TIME_BACKWARDS, once the sealer has chained it', async () => {
    const t = await trail();
    const [forged] = await t.ctx.ownerDb
      .insert(auditEvents)
      .values({
        id: '00000000-0000-7000-8000-00000000f003',
        at: new Date('2025-11-02T09:00:00Z'),
        actorRole: 'SUPERADMIN',
        action: 'users.update',
        changes: {},
        outcome: 'success',
      })
      .returning();
    await sealAuditChain(t.ctx.db, t.key);
    for (const verdict of [await t.verify(), await t.verifyExport()]) {
      expect(verdict).toMatchObject({ ok: false, checked: 8, first_broken_id: forged!.id });
      expect(verdict.problems).toEqual([
        expect.objectContaining({
          kind: 'TIME_BACKWARDS',
          id: forged!.id,
          detail: expect.stringContaining('2025-11-02'),
        }),
      ]);
    }
  });

  it('a checkpoint not signed with the key: CHECKPOINT_FORGED, and it does not count', async () => {
    const t = await trail();
    const [last] = await t.book.list(t.ctx.db, 1);
    appendFileSync(t.book.file, `${JSON.stringify({ ...last, place: 99, signature: 'f'.repeat(64) })}\nnot json\n`);
    const verdict = await t.verify();
    expect(verdict.problems.map((p) => p.kind)).toEqual(['CHECKPOINT_FORGED', 'CHECKPOINT_FORGED']);
    expect(verdict.problems.some((p) => p.kind === 'TAIL_MISSING')).toBe(false);
  });
});

describe('checkpoints', () => {
  it('a verify that holds writes the head as a signed checkpoint, to the file and the list', async () => {
    const t = await trail();
    const superadmin = await as(t.ctx, await createUser(t.ctx.db, { role: 'SUPERADMIN' }));
    const verdict = await call(t.ctx, 'GET', '/audit-events/verify', superadmin);
    expect(verdict.json()).toMatchObject({ ok: true, problems: [] });
    const [head] = await t.ctx.db.select().from(auditChain).orderBy(desc(auditChain.chainSeq)).limit(1);
    const listed = await call(t.ctx, 'GET', '/audit-events/checkpoints', superadmin);
    const [newest] = listed.json<{ items: Checkpoint[] }>().items;
    expect(newest).toMatchObject({ place: head!.chainSeq, hash: head!.hash });
    expect(checkpointHolds(t.key, newest!)).toBe(true);
    expect(checkpointHolds('another-key-long-enough-for-hmac-sha256!', newest!)).toBe(false);
    const file = path.join(t.ctx.config.dataDir, CHECKPOINTS_FILE);
    expect(readFileSync(file, 'utf8')).toContain(JSON.stringify(newest));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('tells a process whether its key sealed the chain (the start logs it when not)', async () => {
    const t = await trail();
    expect(await keySealedTheChain(t.ctx.db, t.key)).toBe(true);
    expect(await keySealedTheChain(t.ctx.db, 'another-key-long-enough-for-hmac-sha256!')).toBe(false);
  });
});
