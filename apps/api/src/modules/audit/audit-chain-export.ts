import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { auditChain, auditEvents } from '../../db/schema/index.js';
import { createChainWalk, type ChainVerdict } from './audit-chain-walk.js';
import type { CheckpointFile } from './audit-checkpoints.js';
import { contentDigest, unkeyedLinkHash } from './audit-seals.js';
import { eventsOffTheChain } from './audit-verify.js';

/**
 * The chain as an auditor keeps it and checks it away from the database (issue #46): one JSON
 * object a line — a header, then every link in place order with its event's canonical content
 * (the text its seal covers, `audit_event_content`), then the events the sealer should have
 * chained and did not. `npm run audit:verify -- --export FILE --checkpoints FILE` checks it with
 * the key alone, by the same rules as the check of the database (`createChainWalk`).
 */

export const CHAIN_EXPORT_FORMAT = 'pss-audit-chain';

/** A link of the export: `content` null when its event is gone. */
export interface ExportedLink {
  chain_seq: number;
  event_seq: number;
  event_id: string;
  prev_hash: string;
  hash: string;
  keyed: boolean;
  content: string | null;
}

/** An event on no link that should be on one. */
export interface ExportedOffChain {
  chain_seq: null;
  event_id: string;
  at: string;
}

const EXPORT_BATCH = 1000;

export async function* chainExportLines(db: Db, now: Date): AsyncGenerator<string> {
  yield `${JSON.stringify({ format: CHAIN_EXPORT_FORMAT, version: 1, exported_at: now.toISOString() })}\n`;
  let after = 0;
  for (;;) {
    const rows = rowsOf<{
      chain_seq: string | number;
      event_seq: string | number;
      event_id: string;
      prev_hash: string;
      hash: string;
      keyed: boolean;
      content: string | null;
    }>(
      await db.execute(sql`
        select c.chain_seq, c.event_seq, c.event_id, c.prev_hash, c.hash, c.keyed,
          case when e.seq is null then null else audit_event_content(e) end as content
        from ${auditChain} c left join ${auditEvents} e on e.seq = c.event_seq
        where c.chain_seq > ${after} order by c.chain_seq limit ${EXPORT_BATCH}`),
    );
    let page = '';
    for (const row of rows) {
      const link: ExportedLink = { ...row, chain_seq: Number(row.chain_seq), event_seq: Number(row.event_seq) };
      page += `${JSON.stringify(link)}\n`;
    }
    if (page) yield page;
    if (rows.length < EXPORT_BATCH) break;
    after = Number(rows.at(-1)!.chain_seq);
  }
  for (const event of await eventsOffTheChain(db)) {
    const line: ExportedOffChain = { chain_seq: null, event_id: event.id, at: new Date(event.at).toISOString() };
    yield `${JSON.stringify(line)}\n`;
  }
}

/** Checks an export's lines (as `chainExportLines` wrote them) with the key and the checkpoints. */
export function verifyChainExport(lines: Iterable<string>, key: string, checkpoints: CheckpointFile): ChainVerdict {
  const walk = createChainWalk(key, checkpoints.kept);
  for (const detail of checkpoints.forged) walk.forgedCheckpoint(detail);
  let header = false;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const value = JSON.parse(line) as Record<string, unknown>;
    if (!header) {
      if (value.format !== CHAIN_EXPORT_FORMAT)
        throw new Error(`not an export of the audit chain (${CHAIN_EXPORT_FORMAT})`);
      header = true;
      continue;
    }
    if (value.chain_seq === null) {
      const off = value as unknown as ExportedOffChain;
      walk.notOnChain({ id: off.event_id, at: new Date(off.at) });
      continue;
    }
    const link = value as unknown as ExportedLink;
    walk.add({
      chainSeq: link.chain_seq,
      eventId: link.event_id,
      prevHash: link.prev_hash,
      hash: link.hash,
      keyed: link.keyed,
      event: link.content === null ? null : eventOf(link.content, link.prev_hash),
    });
  }
  if (!header) throw new Error('the export is empty');
  return walk.finish();
}

/** The event a content text describes: [seq, id, at, …] as `audit_event_content` writes it. */
function eventOf(content: string, prevHash: string) {
  const fields = JSON.parse(content) as unknown[];
  return {
    id: String(fields[1]),
    at: new Date(String(fields[2])),
    digest: contentDigest(content),
    unkeyedHash: unkeyedLinkHash(prevHash, content),
  };
}
