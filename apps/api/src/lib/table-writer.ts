import { PassThrough, Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { reportContentTypes, type ReportFormat } from '@pss/contract';

/**
 * The one writer of tabular files: every export and report (`modules/reports`, the
 * participants export) hands it columns and pages of rows, and it writes them as CSV or
 * XLSX, one page at a time as the client reads, so memory does not grow with the file.
 * Every cell goes through here: text is formula-neutralised, numbers stay numbers, and
 * moments and calendar days are written the same way in both formats.
 */

/**
 * What a column holds, which says how its cells are written:
 *  - text: as given (a number or a yes/no is written as text);
 *  - number: a finite number (anything else is written as text);
 *  - datetime: a `Date`, written in UTC as `YYYY-MM-DD HH:MM:SS` (an XLSX date cell);
 *  - date: a calendar day `YYYY-MM-DD` (an XLSX date cell).
 */
export type ColumnKind = 'text' | 'number' | 'datetime' | 'date';

export interface Column {
  header: string;
  kind?: ColumnKind;
  /** The XLSX column width in characters (a default from the header otherwise). */
  width?: number;
}

export type Cell = string | number | boolean | Date | null | undefined;

/** A file to send: its columns, and its rows in pages, read lazily as the file is written. */
export interface Table {
  /** The XLSX sheet's name. */
  title: string;
  /** The attachment's file name, without its extension (made safe when sent). */
  fileName: string;
  columns: Column[];
  rows: AsyncIterable<Cell[][]>;
}

export type TableFormat = ReportFormat;

/* ---------- cells ---------- */

/**
 * A value a spreadsheet would run as a formula (=, +, -, @, or a tab or carriage return
 * before one), or one that already begins with apostrophes before such a character.
 */
const FORMULA_GUARDED = /^'*[=+\-@\t\r]/;

/**
 * Text made safe to open in a spreadsheet: a value starting with =, +, - or @ would be run
 * as a formula, so it is prefixed with an apostrophe. So that `csvCellValue` can take the
 * apostrophe off again, a value that already starts with apostrophes before such a
 * character gets one more. The same text is written to CSV and XLSX.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_GUARDED.test(text) ? `'${text}` : text;
}

/**
 * A cell of a file this platform exported, as it was before `neutraliseFormula` guarded it:
 * one apostrophe before =, +, -, @ is taken off (a spreadsheet saves it back as part of
 * the text). So an exported file, imported again, reads the values that were exported.
 */
export function csvCellValue(cell: string): string {
  return cell.charCodeAt(0) === 39 /* ' */ && FORMULA_GUARDED.test(cell.slice(1)) ? cell.slice(1) : cell;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A moment as the files write it: UTC, to the second. */
function utcText(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A cell's value as the column's kind writes it: a number, a Date (UTC; a calendar day at
 * midnight UTC), or text (already neutralised); null for an empty cell.
 */
function cellValue(value: Cell, kind: ColumnKind): string | number | Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (kind === 'number' && typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (kind === 'datetime' && value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (kind === 'date' && typeof value === 'string' && DAY.test(value)) return new Date(`${value}T00:00:00Z`);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : utcText(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return neutraliseFormula(String(value));
}

/** One CSV cell: neutralised, quoted where CSV needs it. */
export function csvCell(value: Cell, kind: ColumnKind = 'text'): string {
  const written = cellValue(value, kind);
  if (written === null) return '';
  if (typeof written === 'number') return String(written);
  if (written instanceof Date) return kind === 'date' ? written.toISOString().slice(0, 10) : utcText(written);
  return /[",\r\n;]/.test(written) ? `"${written.replaceAll('"', '""')}"` : written;
}

/** One CSV line (CRLF-terminated) of cells under the columns. */
export function csvLine(cells: readonly Cell[], columns: readonly Column[]): string {
  return columns.map((column, i) => csvCell(cells[i], column.kind)).join(',') + '\r\n';
}

/* ---------- files ---------- */

/** The table as CSV: UTF-8 with a byte order mark (so spreadsheets read it as such), CRLF, a header row. */
export function csvStream(table: Table): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield '\uFEFF' + table.columns.map((c) => csvCell(c.header)).join(',') + '\r\n';
    for await (const page of table.rows) {
      let text = '';
      for (const row of page) text += csvLine(row, table.columns);
      if (text) yield text;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

/** XLSX number formats of the kinds that have one. */
const NUMBER_FORMATS: Partial<Record<ColumnKind, string>> = {
  datetime: 'yyyy-mm-dd hh:mm:ss',
  date: 'yyyy-mm-dd',
};

/**
 * The table as an XLSX workbook of one sheet (bold, frozen header row), written by exceljs's
 * streaming writer: each page of rows is committed as it is read, text as inline strings
 * (no shared-string table growing in memory), and the next page is read only once the
 * client has taken what was written.
 */
export async function xlsxStream(table: Table): Promise<Readable> {
  // Loaded on first use: most processes never write a workbook.
  const { default: ExcelJS } = await import('exceljs');
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName(table.title), { views: [{ state: 'frozen', ySplit: 1 }] });
  const kinds = table.columns.map((c) => c.kind ?? 'text');
  sheet.columns = table.columns.map((column, i) => {
    const numFmt = NUMBER_FORMATS[kinds[i]!];
    return {
      key: `c${i}`,
      width: column.width ?? Math.min(40, Math.max(10, column.header.length + 2)),
      ...(numFmt ? { style: { numFmt } } : {}),
    };
  });
  const header = sheet.addRow(table.columns.map((c) => neutraliseFormula(c.header)));
  header.font = { bold: true };
  header.commit();

  const closed = new Promise<void>((resolve) => out.once('close', resolve));
  void (async () => {
    try {
      for await (const page of table.rows) {
        if (out.destroyed) return;
        for (const row of page) sheet.addRow(kinds.map((kind, i) => cellValue(row[i], kind))).commit();
        // The rows reach `out` through the zip's compression, asynchronously: let them
        // through, then, while the client reads slower than rows are made, wait for it
        // (or for it to leave) before reading the next page.
        await new Promise((resolve) => setImmediate(resolve));
        while (out.writableNeedDrain && !out.destroyed) {
          await Promise.race([new Promise((resolve) => out.once('drain', resolve)), closed]);
        }
      }
      if (out.destroyed) return;
      sheet.commit();
      await workbook.commit();
    } catch (error) {
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  return out;
}

/** An XLSX sheet name: at most 31 characters, none of []:*?/\. */
function sheetName(title: string): string {
  return title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Report';
}

/**
 * A `Content-Disposition` for an attachment: an ASCII file name (letters, digits, dots,
 * hyphens and underscores only; accents dropped) and the same name in UTF-8 for clients
 * that read `filename*`.
 */
export function attachmentDisposition(stem: string, extension: string): string {
  const ascii =
    stem
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 120) || 'download';
  const unicode =
    stem
      .normalize('NFC')
      .replace(/[^\p{L}\p{N}._-]+/gu, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 120) || ascii;
  return `attachment; filename="${ascii}.${extension}"; filename*=UTF-8''${encodeURIComponent(`${unicode}.${extension}`)}`;
}

/** Sends the table as an attachment in the format asked for. */
export async function sendTable(reply: FastifyReply, table: Table, format: TableFormat): Promise<FastifyReply> {
  const body = format === 'xlsx' ? await xlsxStream(table) : csvStream(table);
  return reply
    .header('content-type', reportContentTypes[format])
    .header('content-disposition', attachmentDisposition(table.fileName, format))
    .send(body);
}
