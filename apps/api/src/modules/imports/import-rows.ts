import type { ErrorCode } from '@pss/contract';
import type { Readable } from 'node:stream';
import type { ImportRowError } from '../../db/schema/index.js';
import { CsvFormatError, openCsvStream, type CsvStream, type CsvStreamRow } from '../../lib/csv.js';

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
