import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { importJobs, type ImportRowError } from '../../db/schema/index.js';

export type ImportJobRow = typeof importJobs.$inferSelect;
export type ImportKind = ImportJobRow['kind'];

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
     * Takes the oldest waiting job for this process. SKIP LOCKED: two processes asking at
     * once get two different jobs, never the same one.
     */
    async claimNext(now: Date, leaseUntil: Date): Promise<ImportJobRow | undefined> {
      const result = await db.execute(sql`
        update import_jobs set state = 'RUNNING', started_at = ${now.toISOString()}, lease_until = ${leaseUntil.toISOString()},
          attempts = attempts + 1
        where id = (
          select id from import_jobs where state = 'NOT_STARTED'
          order by created_at for update skip locked limit 1
        )
        returning id`);
      // Both drivers answer `{ rows }` for a raw statement.
      const id = (result as unknown as { rows: { id: string }[] }).rows[0]?.id;
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
    async renewLease(id: string, claimedAt: Date, leaseUntil: Date): Promise<boolean> {
      const rows = await db
        .update(importJobs)
        .set({ leaseUntil })
        .where(and(eq(importJobs.id, id), eq(importJobs.state, 'RUNNING'), eq(importJobs.startedAt, claimedAt)))
        .returning({ id: importJobs.id });
      return rows.length > 0;
    },
    /**
     * Gives a job whose run a lost database connection cut back to the lease rules at once,
     * as if its lease had run out: the next worker tick in any process (`recoverAbandoned`)
     * queues it again. The claim is not counted among its attempts, which limit files that
     * kill their process: a failover is not the file's doing. Only under this claim, and only
     * while it is still RUNNING.
     */
    async releaseClaim(id: string, claimedAt: Date, now: Date): Promise<boolean> {
      const rows = await db
        .update(importJobs)
        .set({ leaseUntil: new Date(now.getTime() - 1), attempts: sql`${importJobs.attempts} - 1` })
        .where(and(eq(importJobs.id, id), eq(importJobs.state, 'RUNNING'), eq(importJobs.startedAt, claimedAt)))
        .returning({ id: importJobs.id });
      return rows.length > 0;
    },
    /**
     * Ends a job under this process's claim (its `started_at`). A claim that ran out and was
     * taken up by another process ends nothing: the job is finished exactly once, by its
     * current claim. Answers whether it was this claim's to end.
     */
    async finish(
      id: string,
      claimedAt: Date | null,
      outcome: { state: 'COMPLETE' | 'ERROR'; errors: ImportRowError[]; processed: number; total: number },
      at: Date,
    ): Promise<boolean> {
      const rows = await db
        .update(importJobs)
        .set({
          state: outcome.state,
          errors: outcome.errors,
          processedRows: outcome.processed,
          totalRows: outcome.total,
          finishedAt: at,
          leaseUntil: null,
        })
        .where(
          and(
            eq(importJobs.id, id),
            eq(importJobs.state, 'RUNNING'),
            claimedAt ? eq(importJobs.startedAt, claimedAt) : undefined,
          ),
        )
        .returning({ id: importJobs.id });
      return rows.length > 0;
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
      const abandoned = and(eq(importJobs.state, 'RUNNING'), lt(importJobs.leaseUntil, now));
      const failed = await db
        .update(importJobs)
        .set({ state: 'ERROR', errors: [error], finishedAt: now, leaseUntil: null })
        .where(and(abandoned, gte(importJobs.attempts, maxAttempts)))
        .returning({ id: importJobs.id });
      const requeued = await db
        .update(importJobs)
        .set({ state: 'NOT_STARTED', startedAt: null, leaseUntil: null, processedRows: 0 })
        .where(and(abandoned, lt(importJobs.attempts, maxAttempts)))
        .returning({ id: importJobs.id });
      return { requeued: requeued.length, failed: failed.length };
    },
  };
}
export type ImportsRepository = ReturnType<typeof createImportsRepository>;
