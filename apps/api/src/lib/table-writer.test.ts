import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  attachmentDisposition,
  csvCell,
  csvCellValue,
  csvStream,
  xlsxStream,
  type Cell,
  type Column,
  type Table,
} from './table-writer.js';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}

async function* pages(...all: Cell[][][]): AsyncGenerator<Cell[][]> {
  for (const page of all) yield page;
}

const columns: Column[] = [
  { header: 'Name' },
  { header: 'Score', kind: 'number' },
  { header: 'Submitted (UTC)', kind: 'datetime' },
  { header: 'Start date', kind: 'date' },
];
const at = new Date('2026-03-02T09:05:07.123Z');
const table = (): Table => ({
  title: 'Scores: [all]',
  fileName: 'scores',
  columns,
  rows: pages([['=HYPERLINK("http://x")', 87.5, at, '2026-03-01']], [['-Ben, Jr.', -3, null, null]], []),
});

describe('cells', () => {
  it('neutralises formulas and quotes what needs quoting', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM')).toBe("'@SUM");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(3)).toBe('3');
  });

  it('writes numbers as numbers in number columns, and as text elsewhere', () => {
    expect(csvCell(-2, 'number')).toBe('-2');
    expect(csvCell(Number.NaN, 'number')).toBe('');
    expect(csvCell(-2, 'text')).toBe("'-2");
    expect(csvCell('-2', 'number')).toBe("'-2");
  });

  it('writes moments in UTC to the second and calendar days as they are', () => {
    expect(csvCell(at, 'datetime')).toBe('2026-03-02 09:05:07');
    expect(csvCell('2026-03-01', 'date')).toBe('2026-03-01');
    expect(csvCell('=1', 'date')).toBe("'=1");
    expect(csvCell(true)).toBe('yes');
  });

  it('reads back what it guarded, whatever apostrophes the value began with', () => {
    for (const value of ['=1+1', '-Ben', '+44', '@x', "'=quoted", "''+x", "'plain", 'plain', "'", '']) {
      const cell = csvCell(value);
      const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell;
      expect(csvCellValue(unquoted)).toBe(value);
    }
    expect(csvCell("'=quoted")).toBe("''=quoted");
  });
});

describe('files', () => {
  it('writes CSV with a byte order mark, a header row and CRLF lines, page by page', async () => {
    const text = (await bytesOf(csvStream(table()))).toString('utf8');
    expect(text).toBe(
      '\uFEFFName,Score,Submitted (UTC),Start date\r\n' +
        '"\'=HYPERLINK(""http://x"")",87.5,2026-03-02 09:05:07,2026-03-01\r\n' +
        '"\'-Ben, Jr.",-3,,\r\n',
    );
  });

  it('writes the same rows to XLSX: text neutralised, numbers and dates typed', async () => {
    const workbook = new ExcelJS.Workbook();
    const bytes = await bytesOf(await xlsxStream(table()));
    await workbook.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Scores   all ');
    expect(sheet.getRow(1).values).toEqual([undefined, 'Name', 'Score', 'Submitted (UTC)', 'Start date']);
    const first = sheet.getRow(2);
    expect(first.getCell(1).value).toBe('\'=HYPERLINK("http://x")');
    expect(first.getCell(1).type).toBe(ExcelJS.ValueType.String);
    expect(first.getCell(2).value).toBe(87.5);
    expect(first.getCell(3).value).toEqual(new Date('2026-03-02T09:05:07.123Z'));
    expect(first.getCell(3).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(first.getCell(4).value).toEqual(new Date('2026-03-01T00:00:00Z'));
    expect(sheet.getRow(3).getCell(1).value).toBe("'-Ben, Jr.");
    expect(sheet.getRow(3).getCell(2).value).toBe(-3);
    expect(sheet.rowCount).toBe(3);
  });

  it('stops reading rows when the client goes away', async () => {
    let read = 0;
    async function* endless(): AsyncGenerator<Cell[][]> {
      for (;;) {
        read += 1;
        yield Array.from({ length: 500 }, (_, i) => [`row ${i} ${'x'.repeat(200)}`, i, at, '2026-03-01']);
      }
    }
    const out = await xlsxStream({ title: 'x', fileName: 'x', columns, rows: endless() });
    const sink = new PassThrough({ highWaterMark: 1024 });
    out.pipe(sink);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = read;
    out.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Nobody reads the sink: the writer waited for the client after a few pages, and stopped.
    expect(before).toBeLessThan(50);
    expect(read - before).toBeLessThanOrEqual(1);
  });
});

describe('attachment names', () => {
  it('are safe ASCII, with the UTF-8 name beside', () => {
    expect(attachmentDisposition('Café "Pilot"/2026 — scores-2026-03-02', 'csv')).toBe(
      'attachment; filename="Cafe-Pilot-2026-scores-2026-03-02.csv"; ' +
        "filename*=UTF-8''Caf%C3%A9-Pilot-2026-scores-2026-03-02.csv",
    );
    expect(attachmentDisposition('\r\n../..', 'xlsx')).toBe(
      'attachment; filename="download.xlsx"; filename*=UTF-8\'\'download.xlsx',
    );
  });
});
