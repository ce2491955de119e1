import { randomUUID } from 'node:crypto';
import type { ImportJob } from '@pss/contract';
import type { Clock } from '../../lib/clock.js';
import type { FileStorage } from '../../lib/storage.js';
import { runImportJob, type ImportLog, type ImportRunner } from './import-job-run.js';
import { LEASE_MS } from './import-lease.js';
import type { ImportJobRow, ImportKind, ImportsRepository } from './imports.repository.js';
import { afterCommit } from '../../db/unit-of-work.js';
import type { SystemRecorder } from '../audit/call-recorder.service.js';

// Other modules reach these through this service (their import runners read files with them).
export { MAX_LISTED_ROW_ERRORS, RowErrors, readCsvRows, type ImportOutcome } from './import-rows.js';
export type { ImportLog, ImportRunContext, ImportRunner } from './import-job-run.js';

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
  /** Records each job's end in the audit trail (as the system). */
  audit?: SystemRecorder;
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

  const runJob = (job: ImportJobRow) =>
    runImportJob(
      {
        imports: deps.imports,
        storage: deps.storage,
        clock: deps.clock,
        log: deps.log,
        leaseMs,
        runners,
        audit: deps.audit,
      },
      job,
    );

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
      afterCommit(() => wake?.());
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
