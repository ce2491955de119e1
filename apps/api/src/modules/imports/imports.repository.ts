import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { leasedQueue } from '../../db/leased-queue.js';
import { importJobs, type ImportRowError } from '../../db/schema/index.js';

export type ImportJobRow = typeof importJobs.$inferSelect;
export type ImportKind = ImportJobRow['kind'];

/**
 * The imports' queue: a job waits NOT_STARTED and runs RUNNING under a lease renewed while it
 * runs (`started_at` is its claim, kept once it ends); a job whose lease ran out is given back to
 * NOT_STARTED, or ends in ERROR after so many claims, by `recoverAbandoned`.
 */
const importQueue = leasedQueue({
  table: importJobs,
  id: importJobs.id,
  state: importJobs.state,
  waiting: 'NOT_STARTED',
  claimed: 'RUNNING',
  claimedAt: importJobs.startedAt,
  leaseUntil: importJobs.leaseUntil,
  order: [importJobs.createdAt],
  claims: importJobs.attempts,
  takeOver: false,
  keepsClaimedAt: true,
});

export function createImportsRepository(db: Db) {
  return {
    async insert(values: typeof importJobs.$inferInsert): Promise<ImportJobRow> {
      const [row] = await db.insert(importJobs).values(values).returning();
      if (!row) throw new Error('import job not created');
      return row;
    },
    async findById(id: string): Promise<ImportJobRow | undefined> {
      const [row] = await db.select().from(importJobs).where(eq(importJobs.id, id));
      return row;
    },
    async latest(kind: ImportKind, scopeId: string | null): Promise<ImportJobRow | undefined> {
      const [row] = await db
        .select()
        .from(importJobs)
        .where(and(eq(importJobs.kind, kind), scopeId ? eq(importJobs.scopeId, scopeId) : undefined))
        .orderBy(desc(importJobs.createdAt))
        .limit(1);
      return row;
    },
    async latestBy(userId: string): Promise<ImportJobRow | undefined> {
      const [row] = await db
        .select()
        .from(importJobs)
        .where(eq(importJobs.createdBy, userId))
        .orderBy(desc(importJobs.createdAt))
        .limit(1);
      return row;
    },
    async isRunning(kind: ImportKind, scopeId: string): Promise<boolean> {
      const rows = await db
        .select({ id: importJobs.id })
        .from(importJobs)
        .where(
          and(
            eq(importJobs.kind, kind),
            eq(importJobs.scopeId, scopeId),
            sql`${importJobs.state} in ('NOT_STARTED', 'RUNNING')`,
          ),
        )
        .limit(1);
      return rows.length > 0;
    },
    /**
     * Takes the oldest waiting job for this process (db/leased-queue.ts): two processes asking
     * at once get two different jobs, never the same one. Each claim counts in `attempts`.
     */
    async claimNext(now: Date, leaseUntil: Date): Promise<ImportJobRow | undefined> {
      const [id] = await importQueue.claim(db, { now, leaseMs: leaseUntil.getTime() - now.getTime(), limit: 1 });
      return id ? this.findById(id) : undefined;
    },
    async reportProgress(id: string, processed: number, total: number, leaseUntil: Date): Promise<void> {
      await db
        .update(importJobs)
        .set({ processedRows: processed, totalRows: total, leaseUntil })
        .where(eq(importJobs.id, id));
    },
    /**
     * Moves the lease of a job this process is running further out. Only while the job is
     * still RUNNING under the same claim (its `started_at`): a job another process has
     * already ended is never brought back. Answers whether it was renewed.
     */
    renewLease: (id: string, claimedAt: Date, leaseUntil: Date): Promise<boolean> =>
      importQueue.renew(db, id, claimedAt, leaseUntil),
    /**
     * Gives a job whose run a lost database connection cut back to the lease rules at once,
     * as if its lease had run out: the next worker tick in any process (`recoverAbandoned`)
     * queues it again. The claim is not counted among its attempts, which limit files that
     * kill their process: a failover is not the file's doing. Only under this claim, and only
     * while it is still RUNNING.
     */
    releaseClaim: (id: string, claimedAt: Date, now: Date): Promise<boolean> =>
      importQueue.lapse(db, id, claimedAt, now, { uncounted: true }),
    /**
     * Ends a job under this process's claim (its `started_at`). A claim that ran out and was
     * taken up by another process ends nothing: the job is finished exactly once, by its
     * current claim. Answers whether it was this claim's to end (never for a job not claimed).
     */
    async finish(
      id: string,
      claimedAt: Date | null,
      outcome: { state: 'COMPLETE' | 'ERROR'; errors: ImportRowError[]; processed: number; total: number },
      at: Date,
    ): Promise<boolean> {
      if (!claimedAt) return false;
      return importQueue.end(db, id, claimedAt, {
        state: outcome.state,
        errors: outcome.errors,
        processedRows: outcome.processed,
        totalRows: outcome.total,
        finishedAt: at,
      });
    },
    /**
     * Jobs whose worker stopped (crash, kill, lost host) without finishing: their lease ran
     * out. Each goes back to the queue for any process to run again — an import writes in one
     * transaction, so the dead process wrote nothing — unless it has had `maxAttempts` claims
     * already (a file that kills its process every time): then it ends in ERROR.
     */
    async recoverAbandoned(
      now: Date,
      maxAttempts: number,
      error: ImportRowError,
    ): Promise<{ requeued: number; failed: number }> {
      const { givenUp, givenBack } = await importQueue.recover(db, {
        now,
        maxClaims: maxAttempts,
        giveUp: { state: 'ERROR', errors: [error], finishedAt: now },
        giveBack: { processedRows: 0 },
      });
      return { requeued: givenBack.length, failed: givenUp.length };
    },
  };
}
export type ImportsRepository = ReturnType<typeof createImportsRepository>;
