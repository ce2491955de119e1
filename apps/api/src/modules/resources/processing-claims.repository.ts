import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.js';
import { resources, type ResourceMedia } from '../../db/schema/index.js';
import type { ResourceRecord } from './resources.repository.js';

/**
 * The claims of the background processing (thumbnails, media facts) on `resources`:
 * `processing`, its lease (`processing_claimed_at`) and how often it was claimed
 * (`processing_attempts`).
 */
export function createProcessingClaims(db: Executor) {
  return {
    /**
     * Claims the oldest file waiting for processing (or one whose claim's lease ran out),
     * `FOR UPDATE SKIP LOCKED`, so two processes never work on one file; never one already
     * claimed `maxAttempts` times. Each claim counts.
     */
    async claimProcessing(now: Date, staleBefore: Date, maxAttempts: number): Promise<ResourceRecord | undefined> {
      const result = await db.execute(sql`
        update resources
        set processing = 'RUNNING', processing_claimed_at = ${now.toISOString()},
          processing_attempts = processing_attempts + 1
        where id = (
          select id from resources
          where (processing = 'PENDING' or (processing = 'RUNNING' and processing_claimed_at < ${staleBefore.toISOString()}))
            and processing_attempts < ${maxAttempts}
          order by created_at, id
          limit 1
          for update skip locked
        )
        returning id`);
      const [claimed] = rowsOf<{ id: string }>(result);
      if (!claimed) return undefined;
      const [row] = await db.select().from(resources).where(eq(resources.id, claimed.id));
      return row;
    },

    /**
     * Ends FAILED the files whose last claim ran out after `maxAttempts` claims: each process
     * that took them died or hung while drawing. Answers their ids.
     */
    async giveUpProcessing(staleBefore: Date, maxAttempts: number): Promise<string[]> {
      const rows = await db
        .update(resources)
        .set({ processing: 'FAILED', processingClaimedAt: null })
        .where(
          and(
            eq(resources.processing, 'RUNNING'),
            lt(resources.processingClaimedAt, staleBefore),
            gte(resources.processingAttempts, maxAttempts),
          ),
        )
        .returning({ id: resources.id });
      return rows.map((row) => row.id);
    },

    /** Ends a claim; only the claim's holder may (its `claimed_at`). Answers whether it held it. */
    async finishProcessing(
      id: string,
      claimedAt: Date,
      outcome: { status: 'READY' | 'FAILED'; thumbnailKey: string | null; media: ResourceMedia | null },
    ): Promise<boolean> {
      const rows = await db
        .update(resources)
        .set({
          processing: outcome.status,
          thumbnailKey: outcome.thumbnailKey,
          media: outcome.media,
          processingClaimedAt: null,
        })
        .where(and(eq(resources.id, id), eq(resources.processingClaimedAt, claimedAt)))
        .returning({ id: resources.id });
      return rows.length > 0;
    },
  };
}
