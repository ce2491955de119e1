import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PARTICIPANT_REQUIRED_COLUMNS } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { connectionOf } from '../../db/copy-rows.js';
import { openCsvStream, CsvFormatError, type CsvStream } from '../../lib/csv.js';
import { MAX_LISTED_ROW_ERRORS, RowErrors, type ImportOutcome } from '../imports/imports.service.js';
import { createBatchWriter } from './batch-writer.js';
import { CopyTextBatch, RowListBatch, type ImportBatch } from './import-batch.js';
import {
  appendRows,
  beginWrites,
  createImportTable,
  dropImportTable,
  finishWrites,
  importConflicts,
  lookUpByIndex,
  writeImport,
  type ImportScope,
} from './import-writes.js';
import { createParticipantRowChecker, type ImportSeason, type RowProblem } from './participant-rows.js';

/**
 * Rows a batch takes. The first is small so that the database starts writing soon after
 * the file is opened; later ones are larger, as each costs a few statements whatever its size.
 */
const FIRST_BATCH_ROWS = 2000;
const BATCH_ROWS = 10000;
/**
 * Rows checked between two turns of the event loop. Checking is synchronous, and the parser
 * otherwise gives way only when it needs more of the file: each statement of the batch
 * being written waited that long for its answer to be read (about half a second over
 * 100,000 rows).
 */
const ROWS_BETWEEN_TURNS = 250;

export interface ParticipantImportTarget {
  /** Null for a NEW_USERS import: users of the client, in no project yet. */
  projectId: string | null;
  clientId: string;
  seasons: ImportSeason[];
}

export interface ImportDatabase {
  db: Db;
  /**
   * True for the embedded database: one connection, which a transaction holds whole, so
   * nothing else (not even the job's progress) can be written while it is open.
   */
  singleConnection: boolean;
}

type Executor = Pick<Db, 'execute'>;

/** Rolls the import's transaction back when the file turns out to have rejected rows. */
class RejectedFile extends Error {
  constructor(readonly result: ReadResult) {
    super('the file has rejected rows');
  }
}

/**
 * Imports a participant file, all or nothing, with memory bounded by the batch size (the
 * file is streamed, never read whole).
 *
 * Each row is checked as it is read, and checked rows go, a batch at a time and while the
 * parser reads on, to the connection's import table (import-writes.ts). On PostgreSQL all
 * of it is one transaction: each batch is also checked against existing users and written
 * there and then (batch-writer.ts), and any rejected row, in any batch, rolls the whole
 * transaction back. The embedded database has a single connection, which a transaction
 * holds whole; there the file is read and checked outside any transaction (other requests
 * go on between batches), then checked against existing users and written, set-based, in
 * one transaction.
 */
export async function importParticipants(input: {
  openStream: () => Readable;
  target: ParticipantImportTarget;
  database: ImportDatabase;
  reportProgress(processed: number, total: number): Promise<void>;
}): Promise<ImportOutcome> {
  const { target, database } = input;
  const scope: ImportScope = {
    clientId: target.clientId,
    projectId: target.projectId,
    seasonIds: target.seasons.map((s) => s.id),
  };
  const csv = await openCsvStream(input.openStream, PARTICIPANT_REQUIRED_COLUMNS);
  if (!csv.ok) {
    return csv.reason === 'empty'
      ? failure(1, 'EMPTY_USER_FILE', csv.message)
      : failure(1, 'CSV_HEADERS_OR_DELIMITER_INVALID', csv.message);
  }
  const read = <B extends ImportBatch>(newBatch: () => B, send: (batch: B) => Promise<void>) =>
    readFile({ newBatch, send, csv, target, reportProgress: input.reportProgress });

  if (database.singleConnection) {
    const db = database.db;
    return withImportTable(db, async () => {
      // Each batch in a short transaction of its own, for its planner setting.
      const result = await read(
        () => new RowListBatch(),
        (batch) =>
          db.transaction(async (tx) => {
            await lookUpByIndex(tx);
            await appendRows(tx, batch.rows);
          }),
      );
      if (!result.failure && result.problems.count === 0) {
        const conflicts = await db.transaction(async (tx) => {
          await lookUpByIndex(tx);
          return importConflicts(tx, target.clientId, MAX_LISTED_ROW_ERRORS);
        });
        result.problems.add(conflicts);
      }
      if (result.failure || result.problems.count > 0) return outcomeOf(result);
      await db.transaction(async (tx) => {
        const triggersOff = await beginWrites(tx, scope);
        await writeImport(tx, scope, triggersOff);
        await finishWrites(tx, scope, triggersOff);
      });
      return outcomeOf(result);
    });
  }

  try {
    const written = await database.db.transaction(async (tx) => {
      const triggersOff = await beginWrites(tx, scope);
      // On node-postgres the rows are loaded by COPY.
      const connection = connectionOf(tx);
      return withImportTable(tx, async () => {
        const writer = createBatchWriter({ tx, connection, scope, triggersOff });
        const result = await read<ImportBatch>(
          () => (connection ? new CopyTextBatch() : new RowListBatch()),
          (batch) => writer.write(batch),
        );
        if (result.failure || result.problems.count > 0) throw new RejectedFile(result);
        result.problems.add(writer.conflicts());
        if (result.problems.count > 0) throw new RejectedFile(result);
        if (writer.failure() !== null) throw writer.failure();
        await finishWrites(tx, scope, triggersOff);
        return result;
      });
    });
    return outcomeOf(written);
  } catch (error) {
    if (error instanceof RejectedFile) return outcomeOf(error.result);
    throw error;
  }
}

interface ReadResult {
  rows: number;
  /** A problem with the file as a whole (empty, wrong header): no row was read. */
  failure: RowProblem | null;
  problems: RowErrors<RowProblem>;
}

/**
 * Reads the file once: checks each row as it comes, adds it to the current batch, and
 * sends each full batch to the database while the next is filled. After the first
 * rejected row nothing more is sent (nothing will be written); the rest of the file is
 * still checked, so that every rejected row is reported.
 */
async function readFile<B extends ImportBatch>(input: {
  newBatch: () => B;
  /** Sends a batch of checked rows to the database. */
  send: (batch: B) => Promise<void>;
  csv: CsvStream;
  target: ParticipantImportTarget;
  reportProgress: (processed: number, total: number) => Promise<void>;
}): Promise<ReadResult> {
  const problems = new RowErrors<RowProblem>();
  const checkRow = createParticipantRowChecker(input.target.seasons);

  // One batch is on its way to the database while the next is filled; never more.
  let sending: Promise<unknown> | null = null;
  const waitForSend = async () => {
    const current = sending;
    sending = null;
    await current;
  };
  const send = async (batch: B, rowsSoFar: number) => {
    await waitForSend();
    if (problems.count > 0 || batch.size === 0) return;
    const done = input.send(batch).then(() => input.reportProgress(rowsSoFar, 0));
    done.catch(() => undefined); // rethrown where it is awaited, not reported as unhandled meanwhile
    sending = done;
  };

  let rows = 0;
  let batch = input.newBatch();
  let batchRows = FIRST_BATCH_ROWS;
  try {
    for await (const { line, cells } of input.csv.rows) {
      rows += 1;
      const checked = checkRow(line, cells, input.csv.columnAt);
      if (checked.row === undefined) problems.add(checked.problems);
      else if (problems.count === 0) batch.add(checked.row);
      if (batch.size >= batchRows) {
        await send(batch, rows);
        batch = input.newBatch();
        batchRows = BATCH_ROWS;
      }
      if (rows % ROWS_BETWEEN_TURNS === 0) await nextTurn();
    }
    if (rows === 0) {
      return {
        rows: 0,
        problems,
        failure: { line: 1, errorCode: 'EMPTY_USER_FILE', message: 'The file has no participants.' },
      };
    }
    await send(batch, rows);
    await waitForSend();
    if (problems.count === 0) await input.reportProgress(rows, rows);
    return { rows, problems, failure: null };
  } catch (error) {
    if (!(error instanceof CsvFormatError)) throw error;
    return {
      rows: 0,
      problems,
      failure: { line: error.line, errorCode: 'CSV_HEADERS_OR_DELIMITER_INVALID', message: error.message },
    };
  } finally {
    // A batch still on its way must land before anything else uses the connection.
    await waitForSend().catch(() => undefined);
  }
}

/** Runs `work` with the connection's import table in place, and removes it afterwards. */
async function withImportTable<T>(x: Executor, work: () => Promise<T>): Promise<T> {
  await createImportTable(x);
  try {
    return await work();
  } finally {
    await dropImportTable(x).catch(() => undefined);
  }
}

function outcomeOf(result: ReadResult): ImportOutcome {
  if (result.failure) return { total: 0, errors: [result.failure] };
  return { total: result.rows, errors: result.problems.toList() };
}

function failure(line: number, errorCode: RowProblem['errorCode'], message: string): ImportOutcome {
  return { total: 0, errors: [{ line, errorCode, message }] };
}
