import { createHash } from 'node:crypto';
import { asc, desc, gt, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '../../db/client.js';
import { auditEvents, type AuditChanges } from '../../db/schema/index.js';

/**
 * The audit trail's hash chain: appending events to it, and walking it to find the first
 * link that does not hold.
 *
 * One linear chain, whatever the number of processes: an event's place (`seq`) and its
 * `prev_hash` are taken under a transaction-scoped advisory lock, in the transaction that
 * makes the change it records. The lock is held to the commit, so the next writer reads a
 * committed tail; a transaction that rolls back takes its events (and its place) with it.
 * Appending comes last in its transaction, so the lock is held for as short a time as it can.
 */

/** `pg_advisory_xact_lock` key of the chain (any number unique to this purpose). */
const AUDIT_CHAIN_LOCK = 73_110_033;
/** The first event's `prev_hash`. */
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

/** The fields an event's hash covers: everything but the hash itself. */
type HashedContent = Omit<AuditEventRow, 'hash' | 'prevHash'>;

/**
 * JSON with object keys sorted at every depth: the same content gives the same text however
 * its keys were ordered (jsonb gives them back in an order of its own).
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

/** SHA-256 (hex) of the previous event's hash and this event's canonical content. */
export function eventHash(prevHash: string, content: HashedContent): string {
  return createHash('sha256').update(prevHash).update('\n').update(canonicalJson(content)).digest('hex');
}

function contentOf(row: AuditEventRow | (HashedContent & { prevHash?: string; hash?: string })): HashedContent {
  return {
    seq: row.seq,
    id: row.id,
    at: row.at,
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    actorRole: row.actorRole,
    actorClientId: row.actorClientId,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    projectId: row.projectId,
    clientId: row.clientId,
    requestId: row.requestId,
    ip: row.ip,
    changes: row.changes,
    outcome: row.outcome,
  };
}

/**
 * Appends events to the chain, in the caller's transaction (`tx`): they commit with the
 * change they record, or not at all. Answers the rows written.
 */
export async function appendAuditEvents(tx: Executor, events: AuditEventInput[]): Promise<AuditEventRow[]> {
  if (events.length === 0) return [];
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
  const [tail] = await tx
    .select({ seq: auditEvents.seq, hash: auditEvents.hash })
    .from(auditEvents)
    .orderBy(desc(auditEvents.seq))
    .limit(1);
  let seq = tail?.seq ?? 0;
  let prevHash = tail?.hash ?? GENESIS_HASH;
  const rows: AuditEventRow[] = [];
  for (const event of events) {
    seq += 1;
    const content: HashedContent = {
      seq,
      id: uuidv7(),
      // Milliseconds, as the database gives them back: the hash is computed again from the row.
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
      changes: event.changes ?? {},
      outcome: event.outcome ?? 'success',
    };
    const hash = eventHash(prevHash, content);
    rows.push({ ...content, prevHash, hash });
    prevHash = hash;
  }
  await tx.insert(auditEvents).values(rows);
  return rows;
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
 * Walks the chain from its first event: each must be the next place (no gap), carry the
 * previous event's hash, and hash to its own. Names the first event where that fails.
 */
export async function verifyAuditChain(db: Executor): Promise<ChainVerdict> {
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  let checked = 0;
  for (;;) {
    const batch = await db
      .select()
      .from(auditEvents)
      .where(gt(auditEvents.seq, expectedSeq - 1))
      .orderBy(asc(auditEvents.seq))
      .limit(VERIFY_BATCH);
    for (const row of batch) {
      const holds =
        row.seq === expectedSeq && row.prevHash === prevHash && row.hash === eventHash(prevHash, contentOf(row));
      if (!holds) return { ok: false, checked, first_broken_id: row.id };
      prevHash = row.hash;
      expectedSeq += 1;
      checked += 1;
    }
    if (batch.length < VERIFY_BATCH) return { ok: true, checked, first_broken_id: null };
  }
}
