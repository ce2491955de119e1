import type { Readable } from 'node:stream';
import Papa from 'papaparse';
import { PARTICIPANT_REQUIRED_COLUMNS } from '@pss/contract';
import type { ImportOutcome } from '../imports/imports.service.js';
import type { ParticipantsRepository, StagedRow } from './participants.repository.js';
import { createParticipantRowChecker, type ImportSeason, type RowProblem } from './participant-rows.js';

const BATCH_ROWS = 5000;
/** Past this many, rejected rows are counted but not listed (the list stays readable). */
const MAX_LISTED_PROBLEMS = 500;

export interface ParticipantImportTarget {
  /** Null for a NEW_USERS import: users of the client, in no project yet. */
  projectId: string | null;
  clientId: string;
  seasons: ImportSeason[];
}

/** The first chunk of a stream (then closed), or null for an empty one. */
async function firstChunkOf(stream: Readable): Promise<Buffer | null> {
  for await (const chunk of stream) {
    stream.destroy();
    return Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
  }
  return null;
}

/** Reads the first line of a stream's text, to choose the delimiter before parsing. */
function delimiterOf(headerLine: string): ',' | ';' {
  return headerLine.split(';').length > headerLine.split(',').length ? ';' : ',';
}

/**
 * Imports a participant file, all or nothing, with memory bounded by the batch size: the
 * file is streamed, each row checked as it comes and staged; then the staged rows are
 * checked against existing participants and applied in one transaction, or not at all.
 */
export async function importParticipants(input: {
  jobId: string;
  openStream: () => Readable;
  target: ParticipantImportTarget;
  repository: ParticipantsRepository;
  reportProgress(processed: number, total: number): Promise<void>;
}): Promise<ImportOutcome> {
  const { jobId, target, repository } = input;
  const problems: RowProblem[] = [];
  let problemCount = 0;
  const addProblems = (found: RowProblem[]) => {
    problemCount += found.length;
    for (const p of found) if (problems.length < MAX_LISTED_PROBLEMS) problems.push(p);
  };

  const checkRow = createParticipantRowChecker(target.seasons);
  // Read the head of the file for the delimiter, then stream the whole file through the parser.
  const firstChunk = await firstChunkOf(input.openStream());
  if (!firstChunk) return fail(1, 'EMPTY_USER_FILE', 'The file is empty.');
  if (firstChunk.includes(0)) return fail(1, 'CSV_HEADERS_OR_DELIMITER_INVALID', 'The file is not a text CSV file.');
  const head = firstChunk.toString('utf8').replace(/^\uFEFF/, '');
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, {
    delimiter: delimiterOf(head.split(/\r?\n/)[0] ?? ''),
    skipEmptyLines: false,
  });
  const source = input.openStream();
  source.pipe(parser);

  let headers: string[] | null = null;
  let line = 0;
  let rows = 0;
  let batch: StagedRow[] = [];
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      line += 1;
      if (!headers) {
        headers = cells.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h).trim().toLowerCase());
        const missing = PARTICIPANT_REQUIRED_COLUMNS.filter((c) => !headers!.includes(c));
        if (missing.length) {
          source.destroy();
          return fail(
            1,
            'CSV_HEADERS_OR_DELIMITER_INVALID',
            `Missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}. Check the header row and the delimiter (comma or semicolon).`,
          );
        }
        continue;
      }
      if (cells.every((c) => c.trim() === '')) continue;
      rows += 1;
      const values: Record<string, string> = {};
      headers.forEach((h, i) => {
        if (h) values[h] = cells[i] ?? '';
      });
      const checked = checkRow(line, values);
      if (checked.problems.length) addProblems(checked.problems);
      // Once a row is wrong nothing will be written; keep checking, stop staging.
      else if (problemCount === 0) batch.push(checked.row!);
      if (batch.length >= BATCH_ROWS) {
        await repository.stage(jobId, batch);
        batch = [];
        await input.reportProgress(rows, 0);
      }
    }
    if (!headers || rows === 0) return fail(1, 'EMPTY_USER_FILE', 'The file has no participants.');
    if (problemCount > 0) return rejected(rows);
    await repository.stage(jobId, batch);
    await input.reportProgress(rows, rows);

    const conflicts = await repository.conflicts(jobId, target.clientId, MAX_LISTED_PROBLEMS);
    if (conflicts.length) {
      addProblems(
        conflicts.map((c) => ({ line: c.line, errorCode: c.code as RowProblem['errorCode'], message: c.message })),
      );
      return rejected(rows);
    }
    if (target.projectId) await repository.applyStaged(jobId, target.projectId, target.clientId);
    else await repository.applyStagedUsers(jobId, target.clientId);
    return { total: rows, errors: [] };
  } finally {
    await repository.clearStaged(jobId);
  }

  function rejected(total: number): ImportOutcome {
    const errors = problems.map((p) => ({ line: p.line, errorCode: p.errorCode, message: p.message }));
    if (problemCount > problems.length) {
      errors.push({
        line: 0,
        errorCode: 'IMPORT_VALIDATION_FAILED',
        message: `…and ${problemCount - problems.length} more rejected rows.`,
      });
    }
    return { total, errors };
  }

  function fail(failedLine: number, errorCode: RowProblem['errorCode'], message: string): ImportOutcome {
    return { total: 0, errors: [{ line: failedLine, errorCode, message }] };
  }
}
