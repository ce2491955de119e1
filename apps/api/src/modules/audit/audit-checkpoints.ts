import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.js';
import { auditChain } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { checkpointHolds, signCheckpoint, type Checkpoint } from './audit-seals.js';

/**
 * The chain's checkpoints (issue #46): its head — which chain, the place and hash of its last
 * link, when — signed with the app's key and kept outside the database, in an append-only file
 * under DATA_DIR and in the log. Removing the newest events with their links leaves a chain that
 * holds link by link; only what remembers where it ended shows the cut (`TAIL_MISSING`). An
 * auditor may keep copies (`GET /api/audit-events/checkpoints`, or the file itself).
 */
export const CHECKPOINTS_FILE = 'audit-checkpoints.jsonl';

export interface CheckpointFile {
  /** Checkpoints whose signatures hold, in the file's order. */
  kept: Checkpoint[];
  /** What is wrong with each line that is not one (a forged or garbled line). */
  forged: string[];
}

/** Reads a checkpoints file (none yet: nothing kept). */
export function readCheckpointFile(file: string, key: string): CheckpointFile {
  const kept: Checkpoint[] = [];
  const forged: string[] = [];
  if (!existsSync(file)) return { kept, forged };
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const checkpoint = parseCheckpoint(line);
    if (checkpoint && checkpointHolds(key, checkpoint)) kept.push(checkpoint);
    else forged.push(`line ${index + 1} of ${path.basename(file)} is not a checkpoint signed with this key`);
  });
  return { kept, forged };
}

function parseCheckpoint(line: string): Checkpoint | null {
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    const { chain, place, hash, at, signature } = value;
    if (typeof chain !== 'string' || typeof hash !== 'string' || typeof at !== 'string') return null;
    if (typeof signature !== 'string' || typeof place !== 'number' || !Number.isSafeInteger(place)) return null;
    return { chain, place, hash, at, signature };
  } catch {
    return null;
  }
}

/** The chain's head and first link as the database holds them now (null: no link yet). */
async function readHead(db: Executor): Promise<{ chain: string; place: number; hash: string } | null> {
  const [row] = rowsOf<{ chain: string | null; place: string | number; hash: string }>(
    await db.execute(sql`
      select (select hash from ${auditChain} where chain_seq = 1) as chain, h.chain_seq as place, h.hash
      from (select chain_seq, hash from ${auditChain} order by chain_seq desc limit 1) h`),
  );
  if (!row?.chain) return null;
  return { chain: row.chain, place: Number(row.place), hash: row.hash };
}

async function hashAt(db: Executor, place: number): Promise<string | null> {
  const [row] = rowsOf<{ hash: string }>(
    await db.execute(sql`select hash from ${auditChain} where chain_seq = ${place}`),
  );
  return row?.hash ?? null;
}

export function createCheckpointBook(deps: {
  dataDir: string;
  key: string;
  log: { info(obj: unknown, msg: string): void; error(obj: unknown, msg: string): void };
  /** The app's clock: a checkpoint's time. */
  clock: Clock;
}) {
  const file = path.join(deps.dataDir, CHECKPOINTS_FILE);
  // The furthest checkpoint of each chain this process knows of: read from the file once, then
  // kept as it writes (a year of checkpoints a minute is not read every minute).
  let furthest: Map<string, Checkpoint> | null = null;

  function furthestOf(chain: string): Checkpoint | undefined {
    if (!furthest) {
      furthest = new Map();
      for (const checkpoint of readCheckpointFile(file, deps.key).kept) remember(checkpoint);
    }
    return furthest.get(chain);
  }

  function remember(checkpoint: Checkpoint): void {
    const known = furthest!.get(checkpoint.chain);
    if (!known || checkpoint.place >= known.place) furthest!.set(checkpoint.chain, checkpoint);
  }

  return {
    file,
    read: (): CheckpointFile => readCheckpointFile(file, deps.key),

    /**
     * Writes the head as a checkpoint when it has moved on (`always`: at a verify, even when
     * not), and only when the chain still reaches the furthest checkpoint with the hash it saw
     * there: a head written after a cut would take the cut's evidence away.
     */
    async record(db: Executor, options: { always?: boolean } = {}): Promise<Checkpoint | null> {
      const head = await readHead(db);
      if (!head) return null;
      const last = furthestOf(head.chain);
      if (last) {
        if (head.place < last.place || (await hashAt(db, last.place)) !== last.hash) {
          deps.log.error(
            { checkpoint: last, head },
            'audit trail: the chain no longer holds what its last checkpoint saw; no checkpoint written (run the verify)',
          );
          return null;
        }
        if (head.place === last.place && !options.always) return null;
      }
      const checkpoint = signCheckpoint(deps.key, { ...head, at: deps.clock.now().toISOString() });
      appendFileSync(file, `${JSON.stringify(checkpoint)}\n`, { mode: 0o600 });
      remember(checkpoint);
      deps.log.info({ audit_checkpoint: checkpoint }, 'audit trail checkpoint');
      return checkpoint;
    },

    /** This chain's checkpoints, newest first. */
    async list(db: Executor, limit: number): Promise<Checkpoint[]> {
      const head = await readHead(db);
      if (!head) return [];
      return readCheckpointFile(file, deps.key)
        .kept.filter((checkpoint) => checkpoint.chain === head.chain)
        .reverse()
        .slice(0, limit);
    },
  };
}

export type CheckpointBook = ReturnType<typeof createCheckpointBook>;
