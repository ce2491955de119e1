import { errorCatalogue } from '@pss/contract';
import type { Readable } from 'node:stream';
import type { Clock } from '../../lib/clock.js';
import type { FileStorage } from '../../lib/storage.js';
import { isConnectionLost } from '../../db/connection-loss.js';
import { keepLease } from './import-lease.js';
import type { ImportOutcome } from './import-rows.js';
import type { ImportJobRow, ImportKind, ImportsRepository } from './imports.repository.js';
import type { SystemRecorder } from '../audit/call-recorder.service.js';

export interface ImportRunContext {
  job: ImportJobRow;
  /** The stored file, read as a stream (never whole: an import file may be large). */
  openStream(): Readable;
  reportProgress(processed: number, total: number): Promise<void>;
  /** Work to do once the job is marked finished (maintenance that need not hold it up). */
  afterComplete(task: () => Promise<void>): void;
}

/**
 * Imports one file, all or nothing: the writes happen in one transaction, committed only
 * when every row has passed its checks.
 */
export type ImportRunner = (context: ImportRunContext) => Promise<ImportOutcome>;

/** The logger a job's lines go to; `child` binds the job's and its request's ids to every line. */
export interface ImportLog {
  error(obj: unknown, msg: string): void;
  info?(obj: unknown, msg: string): void;
  child?(bindings: Record<string, unknown>): ImportLog;
}

/**
 * True for an error PostgreSQL answered (it carries a SQLSTATE code); Drizzle wraps the
 * driver's error in its own, with the driver's as its `cause`.
 */
function isDatabaseError(error: unknown): boolean {
  const codeOf = (e: unknown) => (typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined);
  const cause = typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined;
  return typeof codeOf(error) === 'string' || typeof codeOf(cause) === 'string';
}

/**
 * Runs one claimed job with its kind's runner and records how it ended: COMPLETE, ERROR with
 * the rows' errors or the failure, or (a lost database connection) given back to the queue.
 */
export async function runImportJob(
  deps: {
    imports: ImportsRepository;
    storage: FileStorage;
    clock: Clock;
    log?: ImportLog;
    leaseMs: number;
    runners: ReadonlyMap<ImportKind, ImportRunner>;
    /** Records the job's end in the audit trail, as the system, with the end itself. */
    audit?: SystemRecorder;
  },
  job: ImportJobRow,
): Promise<void> {
  const { leaseMs, runners } = deps;
  type Outcome = Parameters<ImportsRepository['finish']>[2];
  /** Ends the job under this claim, with its event (none when the claim was no longer this process's). */
  const finish = (outcome: Outcome): Promise<boolean> => {
    const end = () => deps.imports.finish(job.id, job.startedAt, outcome, deps.clock.now());
    if (!deps.audit) return end();
    return deps.audit.system('imports.run', end, (ended) =>
      ended
        ? {
            target: { type: 'import', id: job.id },
            changes: {
              kind: { before: null, after: job.kind },
              state: { before: 'RUNNING', after: outcome.state },
              rows: { before: null, after: outcome.total },
              rejected: { before: null, after: outcome.errors.length },
            },
          }
        : null,
    );
  };
  const runner = runners.get(job.kind);
  const lease = () => new Date(deps.clock.now().getTime() + leaseMs);
  const followUps: (() => Promise<void>)[] = [];
  // Every line about this job carries its id and the id of the request that queued it.
  const log = deps.log?.child?.({ jobId: job.id, reqId: job.requestId ?? undefined }) ?? deps.log;
  log?.info?.({ kind: job.kind, attempt: job.attempts }, 'import started');
  try {
    if (!runner) throw new Error(`no runner for ${job.kind} imports`);
    const leaseKeeper = keepLease(deps, job, lease);
    const outcome = await runner({
      job,
      openStream: () => deps.storage.stream(job.filePath),
      reportProgress: (processed, total) => deps.imports.reportProgress(job.id, processed, total, lease()),
      afterComplete: (task) => followUps.push(task),
    }).finally(() => leaseKeeper.stop());
    // Finished before the file goes: a process that dies in between leaves a finished job
    // and a stray file, never a queued job without its file.
    const ended = await finish({
      state: outcome.errors.length ? 'ERROR' : 'COMPLETE',
      errors: outcome.errors,
      processed: outcome.errors.length ? 0 : outcome.total,
      total: outcome.total,
    });
    if (!ended) {
      log?.error({}, 'import finished after its claim was taken up by another process; its end is not recorded');
      return;
    }
    await deps.storage.remove(job.filePath).catch(() => undefined);
    log?.info?.({ total: outcome.total, rejected: outcome.errors.length }, 'import finished');
    for (const task of followUps) {
      await task().catch((error: unknown) => log?.error({ err: error }, 'post-import task failed'));
    }
  } catch (error) {
    if (isConnectionLost(error) && job.startedAt) {
      // Not the file's fault: its transaction died with its connection and wrote nothing.
      // The lease rules run it again, this claim uncounted; if the database cannot be told
      // now, the lease runs out on its own (and that claim counts).
      log?.error(
        { reason: error instanceof Error ? error.message : String(error) },
        'import cut by a lost database connection',
      );
      await deps.imports.releaseClaim(job.id, job.startedAt, deps.clock.now()).catch(() => undefined);
      return;
    }
    log?.error({ err: error }, 'import failed');
    const code = isDatabaseError(error) ? 'IMPORT_DATABASE_ERROR' : 'IMPORT_FAILED';
    const ended = await finish({
      state: 'ERROR',
      errors: [{ line: 0, errorCode: code, message: errorCatalogue[code].message }],
      processed: 0,
      total: job.totalRows,
    });
    if (ended) await deps.storage.remove(job.filePath).catch(() => undefined);
  }
}
