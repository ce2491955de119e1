import { expect } from 'vitest';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import type { Reply } from './kit.js';

/** Reading a report back from CSV and from XLSX (no context of its own: any test file may import it). */

/** The rows of a CSV answer (header first): UTF-8 with its byte order mark, CRLF lines. */
export function csvRows(reply: Reply): string[][] {
  expect(reply.statusCode).toBe(200);
  expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
  const text = reply.rawPayload.toString('utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  return Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
}

/**
 * The rows of an XLSX answer, read with exceljs's reader, each cell as the CSV writes it
 * (numbers in JavaScript's spelling, dates as `YYYY-MM-DD`, moments as `YYYY-MM-DD HH:MM:SS`
 * UTC), after checking every cell is a plain value (text, number or date; never a formula).
 */
export async function xlsxRows(reply: Reply): Promise<string[][]> {
  expect(reply.statusCode).toBe(200);
  expect(reply.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const workbook = new ExcelJS.Workbook();
  const bytes = reply.rawPayload;
  await workbook.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  expect(workbook.worksheets).toHaveLength(1);
  const sheet = workbook.worksheets[0]!;
  const width = sheet.getRow(1).cellCount;
  const rows: string[][] = [];
  for (let r = 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const cells: string[] = [];
    for (let c = 1; c <= width; c++) {
      const cell = row.getCell(c);
      expect([
        ExcelJS.ValueType.Null,
        ExcelJS.ValueType.String,
        ExcelJS.ValueType.Number,
        ExcelJS.ValueType.Date,
      ]).toContain(cell.type);
      const value = cell.value;
      if (value instanceof Date) {
        const iso = value.toISOString();
        cells.push(cell.numFmt === 'yyyy-mm-dd' ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' '));
      } else cells.push(value === null || value === undefined ? '' : String(value));
    }
    rows.push(cells);
  }
  return rows;
}

/** The file name an answer's `Content-Disposition` gives. */
export function attachmentName(reply: Reply): string {
  const disposition = String(reply.headers['content-disposition'] ?? '');
  expect(disposition).toMatch(/^attachment; filename="[A-Za-z0-9._-]+"; filename\*=UTF-8''/);
  return /filename="([^"]+)"/.exec(disposition)![1]!;
}

/** The person columns of a participant: last name, first name, email, user ID, profession. */
