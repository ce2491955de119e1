import { Readable } from 'node:stream';
import Papa from 'papaparse';

/** A data row of a streamed CSV: its cells by position, and its line (the header is line 1). */
export interface CsvStreamRow {
  line: number;
  cells: string[];
}

/** A CSV file open for reading row by row (see `openCsvStream`). */
export interface CsvStream {
  /** Lower-cased, trimmed header names, in file order. */
  headers: string[];
  /** The position of each header name (of a name given twice, the later). */
  columnAt: Record<string, number>;
  /** The trimmed cell of a named column, or '' (a column the file lacks, a short row). */
  value(row: CsvStreamRow, name: string): string;
  /**
   * The data rows, blank ones skipped (they keep their place in line numbers). Throws
   * `CsvFormatError` where the file turns out to be malformed (an unclosed quote).
   * Breaking off the loop closes the file.
   */
  rows: AsyncIterable<CsvStreamRow>;
}

export type CsvStreamProblem = {
  ok: false;
  reason: 'empty' | 'binary' | 'missing-headers';
  message: string;
  missing?: string[];
};

/** A file found malformed part-way through: the rows read so far mean nothing. */
export class CsvFormatError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`Line ${line}: ${message}.`);
  }
}

/** Parsed rows held at most before the parser waits for the reader. */
const STREAM_HIGH_WATER_ROWS = 1024;

/**
 * Opens an uploaded CSV for reading as a stream, never holding the file in memory. Every
 * import reads this way: UTF-8 with or without BOM, comma or semicolon, quoted fields, CRLF
 * or LF. Header names are matched case-insensitively in any order; `required` names must
 * all be there. `openStream` is called twice: once for the header line (to tell the
 * delimiter and refuse binary files), once to read.
 */
export async function openCsvStream(
  openStream: () => Readable,
  required: readonly string[],
): Promise<({ ok: true } & CsvStream) | CsvStreamProblem> {
  const first = await firstChunkOf(openStream());
  if (
    !first ||
    !first
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
  ) {
    return { ok: false, reason: 'empty', message: 'The file is empty.' };
  }
  if (first.includes(0)) return { ok: false, reason: 'binary', message: 'The file is not a text CSV file.' };
  const firstLine =
    first
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)[0] ?? '';
  const delimiter = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';

  const records = csvRecords(openStream(), delimiter);
  const iterator = records[Symbol.asyncIterator]() as AsyncIterator<ParsedRecord>;
  const head = await iterator.next().catch(async (error: unknown) => {
    records.destroy();
    throw error;
  });
  const headerCells = head.done ? [] : head.value.cells;
  const headers = headerCells.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h).trim().toLowerCase());
  const columnAt: Record<string, number> = Object.create(null) as Record<string, number>;
  headers.forEach((h, i) => {
    if (h) columnAt[h] = i;
  });
  const missing = required.filter((name) => !(name in columnAt));
  if (missing.length) {
    records.destroy();
    return {
      ok: false,
      reason: 'missing-headers',
      message: `Missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}. Check the header row and the delimiter (comma or semicolon).`,
      missing,
    };
  }

  async function* rows(): AsyncGenerator<CsvStreamRow> {
    let line = 1;
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        line += 1;
        if (next.value.problem) throw new CsvFormatError(line, next.value.problem);
        const cells = next.value.cells;
        if (cells.every((c) => c.trim() === '')) continue;
        yield { line, cells };
      }
    } finally {
      records.destroy();
    }
  }
  return {
    ok: true,
    headers,
    columnAt,
    value: (row, name) => {
      const at = columnAt[name];
      return at === undefined ? '' : (row.cells[at] ?? '').trim();
    },
    rows: rows(),
  };
}

interface ParsedRecord {
  cells: string[];
  /** Set where the parser found the quotes broken. */
  problem?: string;
}

/**
 * The records of a CSV stream, each with the structural problem the parser found in it.
 * (Papa Parse's own stream mode drops those, so an unclosed quote would go unnoticed.)
 * The source is decoded as UTF-8 before parsing, so a character split between two
 * chunks stays whole.
 */
function csvRecords(source: Readable, delimiter: string): Readable {
  let parser: Papa.Parser | null = null;
  let paused = false;
  const out = new Readable({
    objectMode: true,
    highWaterMark: STREAM_HIGH_WATER_ROWS,
    read() {
      if (paused && parser) {
        paused = false;
        source.resume();
        parser.resume();
      }
    },
    destroy(error, callback) {
      parser?.abort();
      source.destroy();
      callback(error);
    },
  });
  source.setEncoding('utf8');
  source.on('error', (error) => out.destroy(error));
  Papa.parse<string[]>(source, {
    delimiter,
    skipEmptyLines: false,
    step(results, stepParser) {
      parser = stepParser;
      if (out.destroyed) return;
      const structural = results.errors.find((e) => e.type === 'Quotes' || e.type === 'Delimiter');
      const record: ParsedRecord = structural
        ? { cells: results.data, problem: structural.message }
        : { cells: results.data };
      if (!out.push(record) && !paused) {
        // Pausing the parser only stops parsing; the file would still be read into its
        // queue, so the source is paused too.
        paused = true;
        source.pause();
        stepParser.pause();
      }
    },
    complete() {
      if (!out.destroyed) out.push(null);
    },
    error(error) {
      out.destroy(error);
    },
  });
  return out;
}

/** The first chunk of a stream (then closed), or null for an empty one. */
async function firstChunkOf(stream: Readable): Promise<Buffer | null> {
  for await (const chunk of stream) {
    stream.destroy();
    return Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
  }
  return null;
}
