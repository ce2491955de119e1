import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import type { ResourceMedia } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { createDrawingPool, type DrawingLimits } from '../../lib/drawing/drawing-pool.js';
// The THUMBNAIL kind of drawing is declared there (a module augmentation of DrawingKinds): a
// program that reaches this file must see it, whatever else it includes.
import type {} from './thumbnail-drawing.js';
import type { FileStorage } from '../../lib/storage.js';
import { topLevelAtoms, videoDuration } from './resource-content.js';
import { createProcessingClaims } from './processing-claims.repository.js';
import type { ResourceRecord } from './resources.repository.js';
import { afterCommit } from '../../db/unit-of-work.js';
import type { SystemRecorder } from '../audit/call-recorder.service.js';

/**
 * What is made from a file after its upload, in the background: a thumbnail for an image
 * and for a PDF's first page (drawn in a process of its own with time and memory limits:
 * `lib/drawing/drawing-pool.ts`), the pages of a PDF, the size of an image and the length of a
 * video. Every API process runs a worker that claims one waiting file at a time
 * (`FOR UPDATE SKIP LOCKED`, with a lease), so two processes never make one thumbnail twice,
 * and a file whose process died is taken over once its lease has run out, at most
 * `MAX_PROCESSING_ATTEMPTS` times in all: a file that takes every process that draws it
 * down ends FAILED instead of being taken again forever.
 */
export const PROCESSING_LEASE_MS = 5 * 60 * 1000;
export const MAX_PROCESSING_ATTEMPTS = 3;

/**
 * An ordinary first page draws in well under a second; ten seconds on a busy machine is
 * far past any page worth a thumbnail. The heap limit holds the operator lists of a heavy page.
 */
export const THUMBNAIL_DRAWING_LIMITS: DrawingLimits = { timeoutMs: 10_000, maxHeapMb: 256 };

export function createResourceProcessing(deps: {
  db: Db;
  storage: FileStorage;
  clock: Clock;
  log?: FastifyBaseLogger;
  leaseMs?: number;
  /** Records each file's processing in the audit trail (as the system). */
  audit?: SystemRecorder;
}) {
  const { storage } = deps;
  const repository = createProcessingClaims(deps.db);
  type Outcome = Parameters<typeof repository.finishProcessing>[2];
  /** Ends a claim, with its event (none when the claim was no longer this process's). */
  const finish = (id: string, claimedAt: Date, outcome: Outcome): Promise<boolean> => {
    const end = () => repository.finishProcessing(id, claimedAt, outcome);
    if (!deps.audit) return end();
    return deps.audit.system('resources.process', end, (kept) =>
      kept
        ? {
            target: { type: 'resource', id },
            changes: {
              processing: { before: 'RUNNING', after: outcome.status },
              thumbnail: { before: null, after: outcome.thumbnailKey !== null },
            },
          }
        : null,
    );
  };
  const leaseMs = deps.leaseMs ?? PROCESSING_LEASE_MS;
  // A pool of its own: a queue of uploads' thumbnails never delays a certificate's download.
  const pool = createDrawingPool({ name: 'thumbnail', limits: THUMBNAIL_DRAWING_LIMITS, log: deps.log });

  /** Makes what this file needs: its thumbnail (images, PDFs, drawn in the drawing process) and media facts. */
  async function process(row: ResourceRecord): Promise<{ thumbnail: Buffer | null; media: ResourceMedia }> {
    const file = row.file!;
    const sourceType = row.sourceType;
    if (sourceType === 'IMAGE' || sourceType === 'PDF') {
      const drawn = await storage.withLocalPath(file.key, (filePath) =>
        pool.draw('THUMBNAIL', { sourceType, path: filePath }),
      );
      const { buffer, byteOffset, byteLength } = drawn.thumbnail;
      return { thumbnail: Buffer.from(buffer, byteOffset, byteLength), media: drawn.media };
    }
    const atoms = await topLevelAtoms(storage, file.key, file.bytes);
    const duration = atoms ? await videoDuration(storage, file.key, atoms) : null;
    return { thumbnail: null, media: duration === null ? {} : { durationSeconds: duration } };
  }

  let running: Promise<number> | null = null;
  let closed = false;

  /** Processes every waiting file, one after the other; answers how many were taken. */
  async function runPending(): Promise<number> {
    let done = 0;
    for (;;) {
      if (closed) return done;
      const now = deps.clock.now();
      const staleBefore = new Date(now.getTime() - leaseMs);
      for (const id of await repository.giveUpProcessing(now, staleBefore, MAX_PROCESSING_ATTEMPTS)) {
        deps.log?.warn({ resourceId: id, attempts: MAX_PROCESSING_ATTEMPTS }, 'resource thumbnail given up');
      }
      const row = await repository.claimProcessing(now, staleBefore, MAX_PROCESSING_ATTEMPTS);
      if (!row) return done;
      done += 1;
      const claimedAt = now;
      let thumbnailKey: string | null = null;
      try {
        const made = await process(row);
        if (made.thumbnail) {
          thumbnailKey = `resources/thumbnails/${randomUUID()}.webp`;
          await storage.put(thumbnailKey, made.thumbnail);
        }
        const kept = await finish(row.id, claimedAt, {
          status: 'READY',
          thumbnailKey,
          media: made.media,
        });
        if (!kept && thumbnailKey) await storage.remove(thumbnailKey);
        if (kept && row.thumbnailKey && row.thumbnailKey !== thumbnailKey) await storage.remove(row.thumbnailKey);
      } catch (error) {
        if (thumbnailKey) await storage.remove(thumbnailKey);
        // Cut short by the app's close: the claim stays, and its lease brings the file back.
        if (closed) return done;
        deps.log?.warn({ err: error, resourceId: row.id }, 'resource thumbnail failed');
        await finish(row.id, claimedAt, { status: 'FAILED', thumbnailKey: null, media: null });
      }
    }
  }

  let started = false;
  let wakeUp: (() => void) | null = null;

  return {
    /** Runs what is waiting now (tests; the worker calls it too). One run at a time per process. */
    runPending(): Promise<number> {
      running ??= runPending().finally(() => {
        running = null;
      });
      return running;
    },

    /** Ends the drawing process (the app's close); a drawing under way is left to its lease. */
    async close(): Promise<void> {
      closed = true;
      await pool.close();
      await running?.catch(() => undefined);
    },

    /** Tells the worker an upload is waiting (nothing when no worker runs, as in tests). */
    wake(): void {
      if (started) afterCommit(() => wakeUp?.());
    },

    /** Runs in the background: at once when woken, and every `pollMs` for what another process left. */
    startWorker(pollMs = 5000): () => Promise<void> {
      started = true;
      let stopped = false;
      let timer: NodeJS.Timeout | null = null;
      let current: Promise<unknown> = Promise.resolve();
      const tick = () => {
        if (timer) clearTimeout(timer);
        timer = null;
        current = this.runPending()
          .catch((error: unknown) => deps.log?.error({ err: error }, 'resource worker tick failed'))
          .finally(() => {
            if (!stopped) timer = setTimeout(tick, pollMs);
          });
      };
      wakeUp = () => {
        if (!stopped && timer) tick();
      };
      tick();
      return async () => {
        stopped = true;
        started = false;
        if (timer) clearTimeout(timer);
        await current;
      };
    },
  };
}

export type ResourceProcessing = ReturnType<typeof createResourceProcessing>;
