import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.js';
import { auditChain, auditEvents, auditSealState } from '../../db/schema/index.js';
import { createChainWalk, MAX_PROBLEMS, type ChainVerdict } from './audit-chain-walk.js';
import type { CheckpointFile } from './audit-checkpoints.js';
import { linkHash, sameHex } from './audit-seals.js';

/** Links read at a time while walking the chain. */
const VERIFY_BATCH = 1000;

/**
 * Checks the trail as the database holds it (issue #46): walks the chain in place order with
 * each event as it reads now — its digest and, for a link made before the chain was keyed, its
 * unkeyed hash, both computed where the rows are by the functions that sealed them — then
 * looks for events the sealer should have chained and did not, and holds the chain against
 * the checkpoints kept outside the database (`createChainWalk` says every rule). Seal first
 * (`sealAuditChain`) to check the newest events too.
 */
export async function verifyAuditChain(
  db: Executor,
  options: { key: string; checkpoints?: CheckpointFile },
): Promise<ChainVerdict> {
  const walk = createChainWalk(options.key, options.checkpoints?.kept ?? []);
  for (const detail of options.checkpoints?.forged ?? []) walk.forgedCheckpoint(detail);
  let after = 0;
  for (;;) {
    const batch = rowsOf<ChainCheckRow>(
      await db.execute(sql`
        select c.chain_seq, c.event_id, c.prev_hash, c.hash, c.keyed, e.id as found_id, e.at,
          case when e.seq is not null and c.keyed then audit_event_digest(e) end as digest,
          case when e.seq is not null and not c.keyed then audit_event_hash(c.prev_hash, e) end as unkeyed_hash
        from ${auditChain} c left join ${auditEvents} e on e.seq = c.event_seq
        where c.chain_seq > ${after}
        order by c.chain_seq
        limit ${VERIFY_BATCH}`),
    );
    for (const link of batch) {
      walk.add({
        chainSeq: Number(link.chain_seq),
        eventId: link.event_id,
        prevHash: link.prev_hash,
        hash: link.hash,
        keyed: link.keyed,
        event:
          link.found_id === null
            ? null
            : {
                id: link.found_id,
                at: new Date(link.at!),
                digest: link.digest ?? '',
                unkeyedHash: link.unkeyed_hash ?? '',
              },
      });
    }
    if (batch.length < VERIFY_BATCH) break;
    after = Number(batch.at(-1)!.chain_seq);
  }
  for (const event of await eventsOffTheChain(db)) walk.notOnChain({ id: event.id, at: new Date(event.at) });
  return walk.finish();
}

/**
 * Events on no link that should be on one: at a place the sealer has looked at and not kept as
 * a hole (an event inserted behind its back, at a place it had passed), or beyond any place the
 * sequence has given (an event inserted with a place of its own). An event committed since the
 * last seal is at neither.
 */
export async function eventsOffTheChain(db: Executor): Promise<{ id: string; at: string | Date }[]> {
  return rowsOf<{ id: string; at: string | Date }>(
    await db.execute(sql`
      select e.id, e.at
      from ${auditEvents} e, ${auditSealState} s,
        (select last_value from audit_events_seq_seq) q
      where s.id = 1
        and not exists (select 1 from ${auditChain} c where c.event_seq = e.seq)
        and ((e.seq <= s.examined_through and e.seq <> all (s.holes)) or e.seq > q.last_value)
      order by e.seq
      limit ${MAX_PROBLEMS}`),
  );
}

/** A link as the check reads it, with its event as it reads now. */
interface ChainCheckRow {
  chain_seq: number | string;
  event_id: string;
  prev_hash: string;
  hash: string;
  keyed: boolean;
  found_id: string | null;
  at: string | Date | null;
  digest: string | null;
  unkeyed_hash: string | null;
}

/**
 * Whether `key` sealed the chain's newest keyed link: a process given another key than the
 * others (or than before) would seal links no check can accept, so the start says so at once.
 * Null when there is no keyed link, or its event is gone (the check names that).
 */
export async function keySealedTheChain(db: Executor, key: string): Promise<boolean | null> {
  const [link] = rowsOf<{ prev_hash: string; hash: string; digest: string | null }>(
    await db.execute(sql`
      select c.prev_hash, c.hash, (select audit_event_digest(e) from ${auditEvents} e where e.seq = c.event_seq) as digest
      from ${auditChain} c where c.keyed order by c.chain_seq desc limit 1`),
  );
  if (!link?.digest) return null;
  return sameHex(link.hash, linkHash(key, link.prev_hash, link.digest));
}
