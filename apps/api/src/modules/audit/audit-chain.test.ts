import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.js';
import { auditChain, auditEvents } from '../../db/schema/index.js';
import { testContext } from '../../../test/kit.js';
import { appendAuditEvents, canonicalJson, sealAuditChain, type AuditEventInput } from './audit-chain.js';
import { contentDigest, GENESIS_HASH, linkHash } from './audit-seals.js';
import { verifyAuditChain } from './audit-verify.js';

const ctx = testContext();
const key = () => ctx.config.auditSigningKey;
const verify = () => verifyAuditChain(ctx.db, { key: key() });

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

/** Every event with its link (null before it is sealed), in the chain's order, then unsealed ones. */
const allEvents = () =>
  ctx.db
    .select({
      ...getTableColumns(auditEvents),
      chainSeq: auditChain.chainSeq,
      prevHash: auditChain.prevHash,
      hash: auditChain.hash,
    })
    .from(auditEvents)
    .leftJoin(auditChain, eq(auditChain.eventSeq, auditEvents.seq))
    .orderBy(asc(auditChain.chainSeq), asc(auditEvents.seq));

/** Runs `statement` with the append-only triggers switched off, as only a superuser could. */
async function behindTheAppsBack(statement: ReturnType<typeof sql>): Promise<void> {
  await ctx.ownerDb.execute(sql`alter table audit_events disable trigger user`);
  await ctx.ownerDb.execute(sql`alter table audit_chain disable trigger user`);
  try {
    await ctx.ownerDb.execute(statement);
  } finally {
    await ctx.ownerDb.execute(sql`alter table audit_events enable trigger user`);
    await ctx.ownerDb.execute(sql`alter table audit_chain enable trigger user`);
  }
}

/** Appends events in a transaction of their own, then seals what is unsealed. */
async function appendAndSeal(...events: AuditEventInput[]): Promise<void> {
  await ctx.db.transaction((tx) => appendAuditEvents(tx, events));
  await sealAuditChain(ctx.db, key());
}

describe('the audit chain', () => {
  it('appends events, then seals them in one linear chain, each hashing the one before', async () => {
    const before = (await allEvents()).length;
    await ctx.db.transaction((tx) =>
      appendAuditEvents(tx, [event('cases.update', { name: { before: 'A', after: 'B' } })]),
    );
    await ctx.db.transaction((tx) => appendAuditEvents(tx, [event('cases.status'), event('cases.preview')]));
    expect((await allEvents()).slice(-3).map((row) => [row.chainSeq, row.hash])).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ]);
    expect(await sealAuditChain(ctx.db, key())).toBe(3);
    expect(await sealAuditChain(ctx.db, key())).toBe(0);
    const rows = await allEvents();
    expect(rows).toHaveLength(before + 3);
    rows.forEach((row, i) => {
      expect(row.chainSeq).toBe(i + 1);
      expect(row.prevHash).toBe(i === 0 ? GENESIS_HASH : rows[i - 1]!.hash);
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    });
    expect(rows.at(-3)!.changes).toEqual({ name: { before: 'A', after: 'B' } });
    expect(await verify()).toEqual({ ok: true, checked: rows.length, first_broken_id: null, problems: [] });
  });

  it('keeps one chain when many transactions append at once', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => ctx.db.transaction((tx) => appendAuditEvents(tx, [event(`parallel.${i}`)]))),
    );
    // Sealers racing (as several processes would): one seals, the others find the lock taken.
    await Promise.all([sealAuditChain(ctx.db, key()), sealAuditChain(ctx.db, key()), sealAuditChain(ctx.db, key())]);
    await sealAuditChain(ctx.db, key());
    const verdict = await verify();
    expect(verdict.ok).toBe(true);
    expect(verdict.checked).toBe((await allEvents()).length);
  });

  // Two transactions at once need two connections: PostgreSQL only (PGlite has one).
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'links an event whose transaction took its place before a seal and committed after it, and a later one only once',
    async () => {
      let commit!: () => void;
      const held = new Promise<void>((resolve) => (commit = resolve));
      let written!: () => void;
      const inserted = new Promise<void>((resolve) => (written = resolve));
      const late = ctx.db.transaction(async (tx) => {
        await appendAuditEvents(tx, [event('late.committed')]);
        written();
        await held;
      });
      await inserted;
      // A later place, committed and sealed while the first is still open: the first is a hole.
      await appendAndSeal(event('sealed.meanwhile'));
      const [state] = rowsOf<{ holes: string[] }>(await ctx.db.execute(sql`select holes from audit_seal_state`));
      expect(state!.holes).toHaveLength(1);
      commit();
      await late;
      expect(await sealAuditChain(ctx.db, key())).toBe(1);
      expect(await sealAuditChain(ctx.db, key())).toBe(0);
      const rows = await allEvents();
      const chainSeqOf = (action: string) => rows.find((row) => row.action === action)!.chainSeq!;
      expect(chainSeqOf('late.committed')).toBe(chainSeqOf('sealed.meanwhile') + 1);
      expect(await verify()).toMatchObject({ ok: true, checked: rows.length });
    },
  );

  it('leaves no event, and no hole in the chain, for a change that rolled back', async () => {
    const before = await allEvents();
    await expect(
      ctx.db.transaction(async (tx) => {
        await appendAuditEvents(tx, [event('cases.update')]);
        throw new Error('the change failed after its event was written');
      }),
    ).rejects.toThrow('the change failed');
    expect(await allEvents()).toEqual(before);
    await appendAndSeal(event('cases.update'));
    expect((await allEvents()).at(-1)!.chainSeq).toBe(before.length + 1);
    expect((await verify()).ok).toBe(true);
  });

  it('is refused UPDATE, DELETE and TRUNCATE by the database itself, on the events and on the chain', async () => {
    await appendAndSeal(event('cases.update'));
    const before = await allEvents();
    const fakeHash = 'f'.repeat(64);
    for (const statement of [
      sql`update audit_events set outcome = 'FORBIDDEN' where seq = 1`,
      sql`delete from audit_events where seq = 1`,
      sql`truncate audit_events`,
      sql`update audit_chain set hash = ${fakeHash} where chain_seq = 1`,
      sql`delete from audit_chain where chain_seq = 1`,
      sql`truncate audit_chain`,
    ]) {
      // The triggers refuse even the schema's owner; the role the app serves with on PostgreSQL
      // is refused before them, by its privileges (audit-protection.test.ts).
      for (const db of [ctx.ownerDb, ctx.db]) {
        const refusal = await db.execute(statement).then(
          () => null,
          (error: unknown) => error,
        );
        // Drizzle wraps the database's error: its cause says why.
        expect(String((refusal as { cause?: unknown } | null)?.cause)).toMatch(
          db === ctx.ownerDb
            ? /audit_(events|chain) is append-only: (UPDATE|DELETE|TRUNCATE) refused/
            : /audit_(events|chain) is append-only: (UPDATE|DELETE|TRUNCATE) refused|permission denied for table audit_(events|chain)/,
        );
      }
    }
    expect(await allEvents()).toEqual(before);
  });

  it('names the first event altered or removed, or the one after a link removed, behind the app’s back', async () => {
    await appendAndSeal(event('a'), event('b'), event('c'), event('d'));
    const rows = await allEvents();
    const [, second, third] = rows.slice(-4);

    await behindTheAppsBack(sql`update audit_events set actor_email = 'someone@else.org' where seq = ${second!.seq}`);
    expect(await verify()).toMatchObject({
      ok: false,
      checked: second!.chainSeq! - 1,
      first_broken_id: second!.id,
      problems: [{ kind: 'ALTERED', id: second!.id }],
    });
    // Put back as it was, the chain holds again.
    await behindTheAppsBack(
      sql`update audit_events set actor_email = ${second!.actorEmail} where seq = ${second!.seq}`,
    );
    expect((await verify()).ok).toBe(true);

    // A link removed with its event: the next one is out of place.
    await behindTheAppsBack(sql`delete from audit_chain where event_seq = ${third!.seq}`);
    await behindTheAppsBack(sql`delete from audit_events where seq = ${third!.seq}`);
    expect(await verify()).toMatchObject({
      ok: false,
      first_broken_id: rows.at(-1)!.id,
      problems: [{ kind: 'MISSING', id: rows.at(-1)!.id }],
    });

    // An event removed from under its link: the link names it.
    await behindTheAppsBack(sql`delete from audit_events where seq = ${second!.seq}`);
    expect(await verify()).toMatchObject({ ok: false, first_broken_id: second!.id });
    expect((await verify()).problems[0]).toMatchObject({ kind: 'MISSING', id: second!.id });
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

  it('hashes an event as docs/design/audit-trail.md says: every column in order, its time in UTC, whatever the session’s zone', async () => {
    await ctx.db.transaction((tx) =>
      appendAuditEvents(tx, [
        { ...event('cases.update', { name: { before: 'A', after: 'B' } }), at: new Date('2026-11-26T10:00:00.123Z') },
      ]),
    );
    const [row] = await ctx.db
      .select()
      .from(auditEvents)
      .orderBy(sql`seq desc`)
      .limit(1);
    const read = async (zone: string) => {
      await ctx.db.execute(sql`select set_config('TimeZone', ${zone}, false)`);
      const [hashed] = rowsOf<{ content: string; hash: string; digest: string }>(
        await ctx.db.execute(sql`
          select audit_event_content(e) as content, audit_event_hash(${GENESIS_HASH}, e) as hash,
            audit_event_digest(e) as digest
          from audit_events e where seq = ${row!.seq}`),
      );
      return hashed!;
    };
    const utc = await read('UTC');
    const elsewhere = await read('America/New_York');
    await ctx.db.execute(sql`select set_config('TimeZone', 'UTC', false)`);
    expect(elsewhere).toEqual(utc);
    expect(JSON.parse(utc.content)).toEqual([
      row!.seq,
      row!.id,
      '2026-11-26T10:00:00.123000Z',
      staff.id,
      staff.email,
      staff.role,
      null,
      'cases.update',
      'case',
      '00000000-0000-4000-8000-0000000000c1',
      null,
      null,
      null,
      null,
      { name: { before: 'A', after: 'B' } },
      'success',
    ]);
    // A link made before the chain was keyed: SHA-256 of the previous hash, a newline, the content.
    expect(utc.hash).toBe(createHash('sha256').update(`${GENESIS_HASH}\n${utc.content}`).digest('hex'));
    // A keyed link: the digest is the content's SHA-256, the link an HMAC under the app's key.
    expect(utc.digest).toBe(contentDigest(utc.content));
    await sealAuditChain(ctx.db, key());
    const [link] = await ctx.db.select().from(auditChain).where(eq(auditChain.eventSeq, row!.seq));
    expect(link!.keyed).toBe(true);
    expect(link!.hash).toBe(linkHash(key(), link!.prevHash, utc.digest));
    const expected = createHmac('sha256', key())
      .update(`pss-audit-link\n${link!.prevHash}\n${utc.digest}`)
      .digest('hex');
    expect(link!.hash).toBe(expected);
  });
});
