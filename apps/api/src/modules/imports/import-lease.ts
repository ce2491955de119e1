import { keepLease as keepClaim } from '../../db/leased-queue.js';
import type { ImportJobRow, ImportsRepository } from './imports.repository.js';

/** How long a claim holds without renewal; a running job renews it every third of this. */
export const LEASE_MS = 5 * 60_000;

/**
 * Keeps a running job's lease from running out while its runner works (a long import writes
 * for minutes without reporting progress), so that no process takes it for abandoned. Stops
 * when the runner ends, or when the job is no longer this claim's.
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
  const claimedAt = job.startedAt;
  return keepClaim({
    leaseMs: deps.leaseMs,
    renew: () => (claimedAt ? deps.imports.renewLease(job.id, claimedAt, lease()) : Promise.resolve(true)),
    onLost: () => deps.log?.error({ jobId: job.id }, 'import lease lost: the job was ended by another process'),
    onError: (error) => deps.log?.error({ err: error, jobId: job.id }, 'import lease renewal failed'),
  });
}
