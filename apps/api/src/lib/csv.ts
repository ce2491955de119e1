import Papa from 'papaparse';

/** One data row of a CSV file, with its line number (the header is line 1). */
export interface CsvRow {
  line: number;
  /** Values by lower-cased, trimmed header name. */
  values: Record<string, string>;
}

export type CsvParseResult =
  | { ok: true; headers: string[]; rows: CsvRow[] }
  | { ok: false; reason: 'empty' | 'binary' | 'malformed' | 'missing-headers'; message: string; missing?: string[] };

/**
 * Reads an uploaded CSV: UTF-8 with or without BOM, comma or semicolon, quoted fields,
 * CRLF or LF. Header names are matched case-insensitively in any order; `required` names
 * must all be there. Blank lines are skipped but keep their place in line numbers.
 */
export function parseCsv(content: Buffer, required: readonly string[]): CsvParseResult {
  if (content.includes(0)) return { ok: false, reason: 'binary', message: 'The file is not a text CSV file.' };
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  if (!text.trim()) return { ok: false, reason: 'empty', message: 'The file is empty.' };
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
  const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: false });
  const structural = parsed.errors.find((e) => e.type === 'Quotes' || e.type === 'Delimiter');
  if (structural) {
    const line = (structural.row ?? 0) + 1;
    return { ok: false, reason: 'malformed', message: `Line ${line}: ${structural.message}.` };
  }
  const [headerRow, ...dataRows] = parsed.data;
  const headers = (headerRow ?? []).map((h) => h.trim().toLowerCase());
  const missing = required.filter((name) => !headers.includes(name));
  if (missing.length) {
    return {
      ok: false,
      reason: 'missing-headers',
      message: `Missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}. Check the header row and the delimiter (comma or semicolon).`,
      missing,
    };
  }
  const rows: CsvRow[] = [];
  dataRows.forEach((cells, index) => {
    if (cells.every((cell) => cell.trim() === '')) return;
    const values: Record<string, string> = {};
    headers.forEach((header, i) => {
      if (header) values[header] = (cells[i] ?? '').trim();
    });
    rows.push({ line: index + 2, values });
  });
  if (!rows.length) return { ok: false, reason: 'empty', message: 'The file has a header row but no data.' };
  return { ok: true, headers, rows };
}

/**
 * Makes a cell safe to open in a spreadsheet: a value starting with =, +, - or @ would be
 * run as a formula, so it is prefixed with an apostrophe. Quotes as CSV needs.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n;]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
