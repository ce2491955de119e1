import type { Db } from '../../db/client.js';
import { sealAuditChain } from './audit-chain.js';
import type { CheckpointBook } from './audit-checkpoints.js';

/**
 * How long after a write the sealer runs: the writes of a burst are sealed together. A seal is
 * eight round trips whatever its size, so while participants answer by the hundred a second,
 * a seal every second costs a few statements a second, not a few for every fifty answers.
 * Reading the chain's check seals first, so nothing waits for it.
 */
const SEAL_DELAY_MS = 1000;

/** How often the chain's head is written as a checkpoint, when it has moved (issue #46). */
const CHECKPOINT_EVERY_MS = 60_000;

/**
 * Seals the events this process writes soon after they commit, and every `intervalMs` what
 * other processes wrote (their sealer may have stopped with their process). One seal runs at
 * a time here; across processes the sealer's advisory lock keeps it to one. Every minute, the
 * chain's head goes into the checkpoints (`audit-checkpoints.ts`).
 */
export function createAuditSealer(deps: {
  db: Db;
  key: string;
  checkpoints: CheckpointBook;
  log: { error(obj: unknown, msg: string): void };
}) {
  let soon: NodeJS.Timeout | null = null;
  let every: NodeJS.Timeout | null = null;
  let checkpointEvery: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  function seal(): void {
    soon = null;
    running = running
      .then(() => sealAuditChain(deps.db, deps.key))
      .then(
        () => undefined,
        (error: unknown) => deps.log.error({ err: error }, 'audit trail: sealing failed (tried again soon)'),
      );
  }

  function checkpoint(): void {
    running = running
      .then(() => deps.checkpoints.record(deps.db))
      .then(
        () => undefined,
        (error: unknown) => deps.log.error({ err: error }, 'audit trail: the checkpoint failed (tried again soon)'),
      );
  }

  return {
    /** Events were written: seal them shortly. */
    written(): void {
      if (stopped || soon) return;
      soon = setTimeout(seal, SEAL_DELAY_MS);
      soon.unref();
    },

    start(intervalMs = 5000): void {
      every = setInterval(() => {
        if (!soon) seal();
      }, intervalMs);
      every.unref();
      checkpointEvery = setInterval(checkpoint, CHECKPOINT_EVERY_MS);
      checkpointEvery.unref();
    },

    /** Stops the timers and seals what is left (the app's close), waiting for a seal under way. */
    async stop(): Promise<void> {
      stopped = true;
      if (soon) clearTimeout(soon);
      if (every) clearInterval(every);
      if (checkpointEvery) clearInterval(checkpointEvery);
      soon = null;
      seal();
      await running;
    },
  };
}

export type AuditSealer = ReturnType<typeof createAuditSealer>;
