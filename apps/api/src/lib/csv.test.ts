import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CsvFormatError, openCsvStream, type CsvStreamRow } from './csv.js';

describe('CSV reading as a stream', () => {
  const chunks =
    (...parts: (string | Buffer)[]) =>
    () =>
      Readable.from(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));

  async function all(rows: AsyncIterable<CsvStreamRow>): Promise<CsvStreamRow[]> {
    const read: CsvStreamRow[] = [];
    for await (const row of rows) read.push(row);
    return read;
  }

  it('reads comma files with CRLF, a BOM, quoted fields and headers in any case and order', async () => {
    const csv = await openCsvStream(
      chunks('\uFEFFName,CAP_ID,status\r\n"Smith, Jones",CAP-1, Active \r\n\r\nRiver,CAP-2,"Inactive"\r\n'),
      ['cap_id', 'name', 'status'],
    );
    if (!csv.ok) throw new Error(csv.message);
    expect(csv.headers).toEqual(['name', 'cap_id', 'status']);
    const rows = await all(csv.rows);
    expect(rows.map((r) => [r.line, ...['name', 'cap_id', 'status'].map((n) => csv.value(r, n))])).toEqual([
      [2, 'Smith, Jones', 'CAP-1', 'Active'],
      [4, 'River', 'CAP-2', 'Inactive'],
    ]);
  });

  it('reads semicolon files by position with their lines, skipping blank ones', async () => {
    const csv = await openCsvStream(chunks('\uFEFFName;CAP_ID\r\n"Smith; Jones";CAP-1\r\n\r\n', 'River;CAP-2\r\n'), [
      'cap_id',
    ]);
    if (!csv.ok) throw new Error(csv.message);
    expect(csv.headers).toEqual(['name', 'cap_id']);
    const rows = await all(csv.rows);
    expect(rows).toEqual([
      { line: 2, cells: ['Smith; Jones', 'CAP-1'] },
      { line: 4, cells: ['River', 'CAP-2'] },
    ]);
    expect(csv.value(rows[0]!, 'cap_id')).toBe('CAP-1');
    expect(csv.value(rows[0]!, 'absent')).toBe('');
  });

  it('keeps a character whole when a chunk boundary splits it', async () => {
    const text = Buffer.from('name\nRenée Müller\n');
    const at = text.indexOf(0xc3) + 1; // inside the two bytes of é
    const csv = await openCsvStream(chunks(text.subarray(0, at), text.subarray(at)), ['name']);
    if (!csv.ok) throw new Error(csv.message);
    expect((await all(csv.rows)).map((r) => r.cells)).toEqual([['Renée Müller']]);
  });

  it('refuses empty, binary and header-less files before reading rows', async () => {
    expect(await openCsvStream(chunks(''), ['a'])).toMatchObject({ ok: false, reason: 'empty' });
    expect(await openCsvStream(chunks(' \n'), ['a'])).toMatchObject({ ok: false, reason: 'empty' });
    expect(await openCsvStream(chunks(Buffer.from([0x50, 0x4b, 0, 1])), ['a'])).toMatchObject({ reason: 'binary' });
    expect(await openCsvStream(chunks('b;c\n1;2\n'), ['a', 'c'])).toMatchObject({
      reason: 'missing-headers',
      missing: ['a'],
    });
  });

  it('throws CsvFormatError, with its line, at an unclosed quote', async () => {
    const csv = await openCsvStream(chunks('a,b\n1,2\n3,"open\n4,5\n'), ['a']);
    if (!csv.ok) throw new Error(csv.message);
    await expect(all(csv.rows)).rejects.toBeInstanceOf(CsvFormatError);
    const again = await openCsvStream(chunks('a,b\n1,2\n3,"open\n'), ['a']);
    if (!again.ok) throw new Error(again.message);
    await expect(all(again.rows)).rejects.toMatchObject({ line: 3 });
  });

  it('reads no further ahead of its reader than a bounded number of rows', async () => {
    const total = 200_000;
    let produced = 0;
    const source = () =>
      Readable.from(
        (function* () {
          yield Buffer.from('a,b\n');
          for (let i = 0; i < total; i += 1) {
            produced += 1;
            yield Buffer.from(`${i},row ${i}\n`);
          }
        })(),
      );
    const csv = await openCsvStream(source, ['a']);
    if (!csv.ok) throw new Error(csv.message);
    let read = 0;
    for await (const row of csv.rows) {
      read += 1;
      if (read === 10) {
        await new Promise((resolve) => setTimeout(resolve, 50)); // let the parser run ahead if it would
        expect(produced).toBeLessThan(10_000);
      }
      expect(row.cells[0]).toBe(String(read - 1));
    }
    expect(read).toBe(total);
  });

  it('closes the file when the reader stops early', async () => {
    const stream = Readable.from(['a\n', '1\n', '2\n', '3\n']);
    const csv = await openCsvStream(() => (stream.destroyed ? Readable.from(['a\n']) : stream), ['a']);
    if (!csv.ok) throw new Error(csv.message);
    for await (const row of csv.rows) if (row.line === 2) break;
    expect(stream.destroyed).toBe(true);
  });
});
