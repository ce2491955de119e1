import { randomUUID } from 'node:crypto';
import { errorCatalogue, type ErrorCode, type ImportJob } from '@pss/contract';
import type { ImportRowError } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { CsvFormatError, openCsvStream, type CsvStream, type CsvStreamRow } from '../../lib/csv.js';
import type { Readable } from 'node:stream';
import type { FileStorage } from '../../lib/storage.js';
import { isConnectionLost } from '../../db/connection-loss.js';
import type { ImportJobRow, ImportKind, ImportsRepository } from './imports.repository.js';

/** What a runner answers: row errors (then nothing was written) or the rows imported. */
export interface ImportOutcome {
  total: number;
  errors: ImportRowError[];
}

/** Past this many, rejected rows are counted but not listed (the job's answer stays readable). */
export const MAX_LISTED_ROW_ERRORS = 500;

/**
 * The rejected rows of an import: every one counted, the first MAX_LISTED_ROW_ERRORS kept,
 * so a file with a wrong row in every line costs neither memory nor a huge job answer.
 */
export class RowErrors<T extends ImportRowError = ImportRowError> {
  listed: T[] = [];
  count = 0;

  add(found: T | readonly T[]): void {
    for (const error of Array.isArray(found) ? (found as readonly T[]) : [found as T]) {
      this.count += 1;
      if (this.listed.length < MAX_LISTED_ROW_ERRORS) this.listed.push(error);
    }
  }

  /** What the job answers: the listed rows, then one entry counting the rest. */
  toList(): ImportRowError[] {
    const errors: ImportRowError[] = this.listed.map((e) => ({
      line: e.line,
      errorCode: e.errorCode,
      message: e.message,
    }));
    if (this.count > this.listed.length) {
      errors.push({
        line: 0,
        errorCode: 'IMPORT_VALIDATION_FAILED',
        message: `…and ${this.count - this.listed.length} more rejected rows.`,
      });
    }
    return errors;
  }
}

/**
 * Streams an import file's rows to `check`, which adds the row's errors. Answers the row
 * count and the capped errors; a file that cannot be read as CSV (empty, binary, headers
 * missing, or malformed part-way) is one error on its line, whatever rows came before.
 */
export async function readCsvRows(
  openStream: () => Readable,
  headers: readonly string[],
  check: (row: CsvStreamRow, csv: CsvStream, errors: RowErrors) => void,
): Promise<ImportOutcome> {
  const csv = await openCsvStream(openStream, headers);
  if (!csv.ok) {
    const errorCode: ErrorCode =
      csv.reason === 'missing-headers' ? 'CSV_HEADERS_OR_DELIMITER_INVALID' : 'IMPORT_VALIDATION_FAILED';
    return { errors: [{ line: 1, errorCode, message: csv.message }], total: 0 };
  }
  const errors = new RowErrors();
  let total = 0;
  try {
    for await (const row of csv.rows) {
      total += 1;
      check(row, csv, errors);
    }
  } catch (error) {
    if (!(error instanceof CsvFormatError)) throw error;
    return {
      errors: [{ line: error.line, errorCode: 'CSV_HEADERS_OR_DELIMITER_INVALID', message: error.message }],
      total: 0,
    };
  }
  if (total === 0) {
    return {
      errors: [{ line: 1, errorCode: 'IMPORT_VALIDATION_FAILED', message: 'The file has a header row but no data.' }],
      total: 0,
    };
  }
  return { errors: errors.toList(), total };
}

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

/** How long a claim holds without renewal; a running job renews it every third of this. */
const LEASE_MS = 5 * 60_000;

/**
 * True for an error PostgreSQL answered (it carries a SQLSTATE code); Drizzle wraps the
 * driver's error in its own, with the driver's as its `cause`.
 */
function isDatabaseError(error: unknown): boolean {
  const codeOf = (e: unknown) => (typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined);
  const cause = typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined;
  return typeof codeOf(error) === 'string' || typeof codeOf(cause) === 'string';
}

export function toImportJob(row: ImportJobRow): ImportJob {
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    file_name: row.fileName,
    total_rows: row.totalRows,
    processed_rows: row.processedRows,
    errors: row.errors,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

export function createImportsService(deps: {
  imports: ImportsRepository;
  storage: FileStorage;
  clock: Clock;
  log?: ImportLog;
  /** Tests shorten it to see renewals without waiting minutes (IMPORT_LEASE_SECONDS). */
  leaseMs?: number;
  /** Claims a job gets before an abandoned one ends in ERROR (IMPORT_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** The id of the request being served, if any: stored on a job it queues (lib/request-context.ts). */
  requestId?: () => string | undefined;
}) {
  const leaseMs = deps.leaseMs ?? LEASE_MS;
  const maxAttempts = deps.maxAttempts ?? 3;
  const runners = new Map<ImportKind, ImportRunner>();
  const maintenance: (() => Promise<void>)[] = [];
  let wake: (() => void) | null = null;

  /** Catch-up work registered by modules; a failure is logged and tried again next tick. */
  async function runMaintenance(): Promise<void> {
    for (const task of maintenance) {
      await task().catch((error: unknown) => deps.log?.error({ err: error }, 'import maintenance failed'));
    }
  }

  /**
   * Keeps a running job's lease from running out while its runner works (a long import
   * writes for minutes without reporting progress), so that no process takes it for
   * abandoned. Stops when the runner ends, or when the job is no longer this claim's.
   */
  function keepLease(job: ImportJobRow, lease: () => Date): { stop(): Promise<void> } {
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

  async function runJob(job: ImportJobRow): Promise<void> {
    const runner = runners.get(job.kind);
    const lease = () => new Date(deps.clock.now().getTime() + leaseMs);
    const followUps: (() => Promise<void>)[] = [];
    // Every line about this job carries its id and the id of the request that queued it.
    const log = deps.log?.child?.({ jobId: job.id, reqId: job.requestId ?? undefined }) ?? deps.log;
    log?.info?.({ kind: job.kind, attempt: job.attempts }, 'import started');
    try {
      if (!runner) throw new Error(`no runner for ${job.kind} imports`);
      const leaseKeeper = keepLease(job, lease);
      const outcome = await runner({
        job,
        openStream: () => deps.storage.stream(job.filePath),
        reportProgress: (processed, total) => deps.imports.reportProgress(job.id, processed, total, lease()),
        afterComplete: (task) => followUps.push(task),
      }).finally(() => leaseKeeper.stop());
      // Finished before the file goes: a process that dies in between leaves a finished job
      // and a stray file, never a queued job without its file.
      const ended = await deps.imports.finish(
        job.id,
        job.startedAt,
        {
          state: outcome.errors.length ? 'ERROR' : 'COMPLETE',
          errors: outcome.errors,
          processed: outcome.errors.length ? 0 : outcome.total,
          total: outcome.total,
        },
        deps.clock.now(),
      );
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
      const ended = await deps.imports.finish(
        job.id,
        job.startedAt,
        {
          state: 'ERROR',
          errors: [{ line: 0, errorCode: code, message: errorCatalogue[code].message }],
          processed: 0,
          total: job.totalRows,
        },
        deps.clock.now(),
      );
      if (ended) await deps.storage.remove(job.filePath).catch(() => undefined);
    }
  }

  return {
    registerRunner(kind: ImportKind, runner: ImportRunner): void {
      runners.set(kind, runner);
    },

    /**
     * Work the worker does on every tick after the waiting jobs (catching up after a
     * restart, for example), so that nothing depends on a follow-up that a crash cut short.
     */
    registerMaintenance(task: () => Promise<void>): void {
      maintenance.push(task);
    },

    /** Queues the import of a stored file; answers the job as it stands (NOT_STARTED). */
    async enqueue(input: {
      kind: ImportKind;
      scopeId: string | null;
      createdBy: string;
      fileName: string | null;
      /** Where the upload was stored (see lib/uploads.ts), or the content to store. */
      file: { key: string } | { content: Buffer };
    }): Promise<ImportJob> {
      let filePath: string;
      if ('key' in input.file) {
        filePath = input.file.key;
      } else {
        filePath = `imports/${randomUUID()}.csv`;
        await deps.storage.put(filePath, input.file.content);
      }
      const row = await deps.imports.insert({
        kind: input.kind,
        scopeId: input.scopeId,
        createdBy: input.createdBy,
        fileName: input.fileName,
        filePath,
        requestId: deps.requestId?.() ?? null,
      });
      wake?.();
      return toImportJob(row);
    },

    async latest(kind: ImportKind, scopeId: string | null): Promise<ImportJob | null> {
      const row = await deps.imports.latest(kind, scopeId);
      return row ? toImportJob(row) : null;
    },

    isRunning: (kind: ImportKind, scopeId: string) => deps.imports.isRunning(kind, scopeId),

    async latestBy(userId: string): Promise<ImportJob | null> {
      const row = await deps.imports.latestBy(userId);
      return row ? toImportJob(row) : null;
    },

    /** Runs waiting jobs until none is left; answers how many ran. Tests call this directly. */
    async runPending(): Promise<number> {
      let ran = 0;
      for (;;) {
        const now = deps.clock.now();
        const job = await deps.imports.claimNext(now, new Date(now.getTime() + leaseMs));
        if (!job) return ran;
        await runJob(job);
        ran += 1;
      }
    },

    /**
     * Takes up jobs a dead worker left RUNNING (lease run out): back to the queue, or ERROR
     * after IMPORT_MAX_ATTEMPTS claims. Every worker tick does it, in every process.
     */
    recoverAbandoned: () =>
      deps.imports.recoverAbandoned(deps.clock.now(), maxAttempts, {
        line: 0,
        errorCode: 'IMPORT_FAILED',
        message: `The import stopped its server ${maxAttempts} times and nothing was imported. Please check the file and upload it again.`,
      }),

    /**
     * Polls for jobs in the background; enqueue wakes it at once. Answers a stop function,
     * which takes no new job and waits for the one running (graceful shutdown).
     */
    startWorker(pollMs = 2000): () => Promise<void> {
      let stopped = false;
      let current: Promise<unknown> = Promise.resolve();
      let timer: NodeJS.Timeout | undefined;
      const tick = () => {
        if (stopped) return;
        current = this.recoverAbandoned()
          .then(() => this.runPending())
          .then(() => runMaintenance())
          .catch((error: unknown) => deps.log?.error({ err: error }, 'import worker tick failed'))
          .finally(() => {
            if (!stopped) timer = setTimeout(tick, pollMs);
          });
      };
      wake = () => {
        clearTimeout(timer);
        void current.then(() => {
          if (!stopped) {
            clearTimeout(timer);
            tick();
          }
        });
      };
      tick();
      return async () => {
        stopped = true;
        wake = null;
        clearTimeout(timer);
        await current;
      };
    },
  };
}
export type ImportsService = ReturnType<typeof createImportsService>;
