import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { leasedQueue } from '../../db/leased-queue.js';
import { resources, type ResourceMedia } from '../../db/schema/index.js';
import type { ResourceRecord } from './resources.repository.js';

/**
 * The background processing (thumbnails, media facts) as a queue on `resources`: a file waits
 * PENDING and is RUNNING while a worker holds it, from its claim (`processing_claimed_at`) for
 * a lease of fixed length; one whose claim ran out is taken over, and each claim counts
 * (`processing_attempts`), so a file that kills every process drawing it is given up.
 */
const processingQueue = leasedQueue({
  table: resources,
  id: resources.id,
  state: resources.processing,
  waiting: 'PENDING',
  claimed: 'RUNNING',
  claimedAt: resources.processingClaimedAt,
  order: [resources.createdAt, resources.id],
  claims: resources.processingAttempts,
  takeOver: true,
});

/** The claims of the background processing on `resources` (db/leased-queue.ts). */
export function createProcessingClaims(db: Executor) {
  return {
    /**
     * Claims the oldest file waiting for processing (or one whose claim's lease ran out: claimed
     * before `staleBefore`), so two processes never work on one file; never one already claimed
     * `maxAttempts` times. Each claim counts.
     */
    async claimProcessing(now: Date, staleBefore: Date, maxAttempts: number): Promise<ResourceRecord | undefined> {
      const leaseMs = now.getTime() - staleBefore.getTime();
      const [id] = await processingQueue.claim(db, { now, leaseMs, limit: 1, maxClaims: maxAttempts });
      if (!id) return undefined;
      const [row] = await db.select().from(resources).where(eq(resources.id, id));
      return row;
    },

    /**
     * Ends FAILED the files whose last claim ran out (claimed before `staleBefore`) after
     * `maxAttempts` claims: each process that took them died or hung while drawing. Answers
     * their ids.
     */
    async giveUpProcessing(now: Date, staleBefore: Date, maxAttempts: number): Promise<string[]> {
      const leaseMs = now.getTime() - staleBefore.getTime();
      const { givenUp } = await processingQueue.recover(db, {
        now,
        leaseMs,
        maxClaims: maxAttempts,
        giveUp: { processing: 'FAILED' },
      });
      return givenUp;
    },

    /** Ends a claim; only the claim's holder may (its `claimed_at`). Answers whether it held it. */
    finishProcessing(
      id: string,
      claimedAt: Date,
      outcome: { status: 'READY' | 'FAILED'; thumbnailKey: string | null; media: ResourceMedia | null },
    ): Promise<boolean> {
      return processingQueue.end(db, id, claimedAt, {
        processing: outcome.status,
        thumbnailKey: outcome.thumbnailKey,
        media: outcome.media,
      });
    },
  };
}
