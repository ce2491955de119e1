import type { ImportJobRow, ImportsRepository } from './imports.repository.js';

/** How long a claim holds without renewal; a running job renews it every third of this. */
export const LEASE_MS = 5 * 60_000;

/**
 * Keeps a running job's lease from running out while its runner works (a long import
 * writes for minutes without reporting progress), so that no process takes it for
 * abandoned. Stops when the runner ends, or when the job is no longer this claim's.
 */
export function keepLease(
  deps: {
    imports: Pick<ImportsRepository, 'renewLease'>;
    log?: { error(obj: unknown, msg: string): void };
    leaseMs: number;
  },
  job: ImportJobRow,
  lease: () => Date,
): { stop(): Promise<void> } {
  const { leaseMs } = deps;
  const claimedAt = job.startedAt;
  let renewing: Promise<void> | null = null;
  const renew = async () => {
    if (!claimedAt) return;
    const renewed = await deps.imports.renewLease(job.id, claimedAt, lease());
    if (!renewed) {
      clearInterval(timer);
      deps.log?.error({ jobId: job.id }, 'import lease lost: the job was ended by another process');
    }
  };
  const timer = setInterval(() => {
    if (renewing) return; // the last renewal is still waiting for the database
    renewing = renew()
      .catch((error: unknown) => deps.log?.error({ err: error, jobId: job.id }, 'import lease renewal failed'))
      .finally(() => {
        renewing = null;
      });
  }, leaseMs / 3);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await renewing;
    },
  };
}
