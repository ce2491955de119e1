import type { Readable } from 'node:stream';
import { PARTICIPANT_REQUIRED_COLUMNS } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { connectionOf } from '../../db/copy-rows.js';
import { openCsvStream, CsvFormatError, type CsvStream } from '../../lib/csv.js';
import { MAX_LISTED_ROW_ERRORS, RowErrors, type ImportOutcome } from '../imports/imports.service.js';
import {
  appendRows,
  beginWrites,
  copyRows,
  createImportTable,
  dropImportTable,
  findExistingUsers,
  finishWrites,
  importConflicts,
  lookUpByIndex,
  writeImport,
  type ImportScope,
} from './import-writes.js';
import {
  createParticipantRowChecker,
  type CheckedRow,
  type ImportSeason,
  type RowProblem,
} from './participant-rows.js';

const BATCH_ROWS = 10000;

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
 * Each row is checked as it is read; checked rows go, a batch at a time and while the
 * parser reads on, into the connection's import table (import-writes.ts). Then the whole
 * file is checked against existing users and written, set-based. On PostgreSQL all of it
 * is one transaction, and any rejected row rolls it back. The embedded database has a
 * single connection, which a transaction holds whole; there the file is read and checked
 * outside any transaction (other requests go on between batches), and only the writes
 * take one.
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
  const read = (append: (rows: CheckedRow[]) => Promise<void>) =>
    readFile({ append, csv, target, reportProgress: input.reportProgress });

  if (database.singleConnection) {
    const db = database.db;
    return withImportTable(db, async () => {
      // Each batch in a short transaction of its own, for its planner setting.
      const result = await read((rows) =>
        db.transaction(async (tx) => {
          await lookUpByIndex(tx);
          await appendRows(tx, rows);
        }),
      );
      if (!result.failure && result.problems.count === 0) {
        const conflicts = await db.transaction(async (tx) => {
          await lookUpByIndex(tx);
          return checkAgainstUsers(tx, target.clientId);
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
      // On node-postgres the rows are loaded by COPY; the users they name are found after.
      const connection = connectionOf(tx);
      return withImportTable(tx, async () => {
        const result = await read((rows) => (connection ? copyRows(connection, rows) : appendRows(tx, rows)));
        if (result.failure || result.problems.count > 0) throw new RejectedFile(result);
        if (connection) await findExistingUsers(tx);
        result.problems.add(await checkAgainstUsers(tx, target.clientId));
        if (result.problems.count > 0) throw new RejectedFile(result);
        await writeImport(tx, scope, triggersOff);
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

/** The rows that would change their existing users as an import may not. */
async function checkAgainstUsers(tx: Executor, clientId: string): Promise<RowProblem[]> {
  const conflicts = await importConflicts(tx, clientId, MAX_LISTED_ROW_ERRORS);
  return conflicts.map((c) => ({ line: c.line, errorCode: c.code as RowProblem['errorCode'], message: c.message }));
}

/**
 * Reads the file once: checks each row as it comes and appends each batch of checked rows
 * to the import table while the next batch is parsed. After the first rejected row nothing
 * more is appended (nothing will be written); the rest of the file is still checked, so
 * that every rejected row is reported.
 */
async function readFile(input: {
  /** Sends a batch of checked rows to the import table. */
  append: (rows: CheckedRow[]) => Promise<void>;
  csv: CsvStream;
  target: ParticipantImportTarget;
  reportProgress: (processed: number, total: number) => Promise<void>;
}): Promise<ReadResult> {
  const problems = new RowErrors<RowProblem>();
  const checkRow = createParticipantRowChecker(input.target.seasons);

  // One batch is on its way to the database while the next is parsed; never more.
  let appending: Promise<unknown> | null = null;
  const waitForAppend = async () => {
    const current = appending;
    appending = null;
    await current;
  };
  const append = async (batch: CheckedRow[], rowsSoFar: number) => {
    await waitForAppend();
    if (problems.count > 0 || batch.length === 0) return;
    const done = input.append(batch).then(() => input.reportProgress(rowsSoFar, 0));
    done.catch(() => undefined); // rethrown where it is awaited, not reported as unhandled meanwhile
    appending = done;
  };

  let rows = 0;
  let batch: CheckedRow[] = [];
  try {
    for await (const { line, cells } of input.csv.rows) {
      rows += 1;
      const checked = checkRow(line, cells, input.csv.columnAt);
      if (checked.problems.length) problems.add(checked.problems);
      else if (problems.count === 0) batch.push(checked.row!);
      if (batch.length >= BATCH_ROWS) {
        await append(batch, rows);
        batch = [];
      }
    }
    if (rows === 0) {
      return {
        rows: 0,
        problems,
        failure: { line: 1, errorCode: 'EMPTY_USER_FILE', message: 'The file has no participants.' },
      };
    }
    await append(batch, rows);
    await waitForAppend();
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
    await waitForAppend().catch(() => undefined);
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
