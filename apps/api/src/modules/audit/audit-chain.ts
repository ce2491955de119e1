import { sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../../db/client.js';
import { auditChain, auditEvents, type AuditChanges } from '../../db/schema/index.js';
import { orderedId } from '../../lib/ordered-ids.js';

/**
 * The audit trail's hash chain: appending events, sealing them into one chain, and walking
 * the chain to find the first link that does not hold.
 *
 * Appending is a plain insert in the transaction of the change the event records: it commits
 * with it or not at all, and it takes no lock, so writers never wait on one another (a lock
 * held to each commit would put every answer of every participant in one queue, behind each
 * one's disk flush). The sealer then chains what has committed, in the database (`audit_seal`,
 * migrations 0036 and 0037, which say how it finds them without a queue): under a
 * transaction-scoped advisory lock (one sealer at a time, whatever the number of processes) it
 * reads the chain's tail and gives each event committed since, in the order they were inserted, the next
 * link (`audit_chain`: its place, the tail's hash as `prev_hash`, its own hash,
 * `audit_event_hash`). Each process runs it within moments of a call that wrote events, and
 * every few seconds for the others' events.
 */

/** The first event's `prev_hash` (as `audit_seal` starts the chain). */
export const GENESIS_HASH = '0'.repeat(64);

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

/** Places read a round by the sealer (`audit_seal` goes on, round after round, to the last). */
const SEAL_BATCH = 500;

/**
 * Chains the committed events that are not chained yet, in the order they were inserted, in
 * the database (`audit_seal`, migrations 0036 and 0037: the events never read back into the
 * app). Answers how many it sealed; 0 also when another process holds the sealer's lock (it is
 * sealing them).
 */
export async function sealAuditChain(db: Db): Promise<number> {
  const [row] = rowsOf<{ sealed: number }>(await db.execute(sql`select audit_seal(${SEAL_BATCH}) as sealed`));
  return Number(row?.sealed ?? 0);
}

export interface ChainVerdict {
  ok: boolean;
  /** Events checked up to the first broken one (all of them when the chain holds). */
  checked: number;
  /** The id of the first event whose link does not hold (altered, inserted, or after a removed one). */
  first_broken_id: string | null;
}

/** Events read at a time while walking the chain. */
const VERIFY_BATCH = 1000;

/**
 * Walks the chain from its first link: each must be the next place (no gap), carry the
 * previous link's hash, and hash its event, as it reads now, to its own. Names the first event
 * where that fails (an event removed is named by the id its link kept). Events not sealed yet
 * are not on the chain: `sealAuditChain` first to check them too.
 */
export async function verifyAuditChain(db: Executor): Promise<ChainVerdict> {
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  let checked = 0;
  for (;;) {
    // Each link's hash recomputed where the events are, by the function that sealed it.
    const batch = rowsOf<ChainCheckRow>(
      await db.execute(sql`
        select c.chain_seq, c.event_id, c.prev_hash, c.hash, e.id as found_id,
          case when e.seq is null then null else audit_event_hash(c.prev_hash, e) end as recomputed
        from ${auditChain} c left join ${auditEvents} e on e.seq = c.event_seq
        where c.chain_seq >= ${expectedSeq}
        order by c.chain_seq
        limit ${VERIFY_BATCH}`),
    );
    for (const link of batch) {
      const holds =
        link.found_id === link.event_id &&
        Number(link.chain_seq) === expectedSeq &&
        link.prev_hash === prevHash &&
        link.hash === link.recomputed;
      if (!holds) return { ok: false, checked, first_broken_id: link.event_id };
      prevHash = link.hash;
      expectedSeq += 1;
      checked += 1;
    }
    if (batch.length < VERIFY_BATCH) return { ok: true, checked, first_broken_id: null };
  }
}

/** A link as the chain's check reads it, with its event's hash as the event reads now. */
interface ChainCheckRow {
  chain_seq: number | string;
  event_id: string;
  prev_hash: string;
  hash: string;
  found_id: string | null;
  recomputed: string | null;
}
