import { sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../../db/client.js';
import { auditChain, auditEvents, type AuditChanges } from '../../db/schema/index.js';
import { orderedId } from '../../lib/ordered-ids.js';
import { GENESIS_HASH, linkHash } from './audit-seals.js';

/**
 * The audit trail's hash chain: appending events and sealing them into one chain (the check
 * is `audit-verify.ts`, the rules it walks by `audit-chain-walk.ts`).
 *
 * Appending is a plain insert in the transaction of the change the event records: it commits
 * with it or not at all, and it takes no lock, so writers never wait on one another (a lock
 * held to each commit would put every answer of every participant in one queue, behind each
 * one's disk flush). The sealer then chains what has committed: under a transaction-scoped
 * advisory lock (one sealer at a time, whatever the number of processes) the database finds
 * the events committed since, in the order they were inserted, with their digests
 * (`audit_seal_collect`, migrations 0037 and 0045), and the app gives each the next link
 * (`audit_chain`: its place, the tail's hash as `prev_hash`, and its seal under the app's key,
 * `linkHash`). Each process runs it within moments of a call that wrote events, and every few
 * seconds for the others' events.
 */

/** An event as its writer gives it; the chain adds its place, id, hashes and (unless given) time. */
export interface AuditEventInput {
  at?: Date;
  actor: { id: string | null; email: string | null; role: string; clientId: string | null };
  action: string;
  target?: { type: string; id: string } | null;
  projectId?: string | null;
  clientId?: string | null;
  requestId?: string | null;
  ip?: string | null;
  changes?: AuditChanges;
  outcome?: string;
}

export type AuditEventRow = typeof auditEvents.$inferSelect;

/** An event with its link of the chain: null hashes for an event not sealed yet. */
export type ChainedEventRow = AuditEventRow & { prevHash: string | null; hash: string | null };

/**
 * JSON with object keys sorted at every depth: the same content gives the same text however
 * its keys were ordered (what a change's before and after are compared by).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/**
 * Writes events in the caller's transaction (`tx`): they commit with the change they record,
 * or not at all. They join the hash chain when the sealer reaches them.
 */
export async function appendAuditEvents(tx: Executor, events: AuditEventInput[]): Promise<void> {
  if (events.length === 0) return;
  // In a transaction of their own when `tx` is the pool (a savepoint in a transaction), whose
  // id is taken before the events' `seq`s: the sealer's rule (`audit_seal`, migration 0037).
  await tx.transaction(async (inner) => {
    await inner.execute(TAKE_TRANSACTION_ID);
    await inner.insert(auditEvents).values(events.map(eventRow));
  });
}

/**
 * What every writer of events runs before taking an event's `seq`, in the same transaction: the
 * sealer reads the sequence, then a snapshot, and counts on every `seq` below having been taken
 * by a transaction below the snapshot's xmax. (The answer's one statement needs none: it saves
 * the answer, which takes the id, before it inserts the event, `SAVE_CHECKED_ANSWER_RECORDED`.)
 */
const TAKE_TRANSACTION_ID = sql`select pg_current_xact_id()`;

/** The row an event is inserted as (no place in the chain and no hashes yet). */
export function eventRow(event: AuditEventInput): typeof auditEvents.$inferInsert {
  return {
    // UUID v7 from the app's pool of random bytes (uuid's v7 reads the system's per id).
    id: orderedId(),
    // Milliseconds: what the app reads back is what was hashed.
    at: new Date((event.at ?? new Date()).getTime()),
    actorId: event.actor.id,
    actorEmail: event.actor.email,
    actorRole: event.actor.role,
    actorClientId: event.actor.clientId,
    action: event.action,
    targetType: event.target?.type ?? null,
    targetId: event.target?.id ?? null,
    projectId: event.projectId ?? null,
    clientId: event.clientId ?? null,
    requestId: event.requestId ?? null,
    ip: event.ip ?? null,
    changes: wellFormed(event.changes ?? {}) as AuditChanges,
    outcome: event.outcome ?? 'success',
  };
}

/** A UTF-16 surrogate without its pair (code units, so no `u` flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The value with every string made well-formed (a lone surrogate, as a hostile body can send,
 * becomes U+FFFD): JSON.stringify writes one as an escape that jsonb refuses, and the call
 * answered 500. Values already well-formed are kept as they are, without copying.
 */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') {
    LONE_SURROGATE.lastIndex = 0;
    return LONE_SURROGATE.test(value) ? value.replace(LONE_SURROGATE, '\uFFFD') : value;
  }
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (Array.isArray(value)) {
    const items = value.map(wellFormed);
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  const entries = Object.entries(value);
  const mended = entries.map(([key, inner]) => [wellFormed(key), wellFormed(inner)] as const);
  return mended.some(([key, inner], i) => key !== entries[i]![0] || inner !== entries[i]![1])
    ? Object.fromEntries(mended)
    : value;
}

/** Places read a round by the sealer (`audit_seal_collect` goes on, round after round). */
const SEAL_BATCH = 500;
/** Events linked by one transaction at most: a backlog is sealed in several, each short. */
const SEAL_MOST = 5000; // six parameters a link: well within a statement's 65,535

/**
 * Chains the committed events that are not chained yet, in the order they were inserted. The
 * database finds them and gives each one's digest (`audit_seal_collect`, migration 0045, whose
 * rules for finding them are migration 0037's); each link is made here, under the app's key
 * (`linkHash`), and inserted in the same transaction, which holds the sealer's lock. Answers how
 * many it sealed; 0 also when another process holds the lock (it is sealing them).
 */
export async function sealAuditChain(db: Db, key: string): Promise<number> {
  let sealed = 0;
  for (;;) {
    const linked = await db.transaction(async (tx) => {
      const found = rowsOf<{ event_seq: string | number; event_id: string; digest: string }>(
        await tx.execute(sql`select event_seq, event_id, digest from audit_seal_collect(${SEAL_BATCH}, ${SEAL_MOST})`),
      );
      if (found.length === 0) return 0;
      const [tail] = rowsOf<{ chain_seq: string | number; hash: string }>(
        await tx.execute(sql`select chain_seq, hash from ${auditChain} order by chain_seq desc limit 1`),
      );
      let place = Number(tail?.chain_seq ?? 0);
      let prevHash = tail?.hash ?? GENESIS_HASH;
      const links = found.map((event) => {
        const hash = linkHash(key, prevHash, event.digest);
        const link = { chainSeq: ++place, eventSeq: Number(event.event_seq), eventId: event.event_id, prevHash, hash };
        prevHash = hash;
        return link;
      });
      await tx.insert(auditChain).values(links.map((link) => ({ ...link, keyed: true })));
      return links.length;
    });
    sealed += linked;
    if (linked < SEAL_MOST) return sealed;
  }
}
