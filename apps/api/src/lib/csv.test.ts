import { describe, expect, it } from 'vitest';
import { csvCell, parseCsv } from './csv.js';

const csv = (text: string) => Buffer.from(text, 'utf8');

describe('CSV reading', () => {
  it('reads comma files with CRLF, a BOM, quoted fields and headers in any case and order', () => {
    const result = parseCsv(
      csv('\uFEFFName,CAP_ID,status\r\n"Smith, Jones",CAP-1,Active\r\n\r\nRiver,CAP-2,"Inactive"\r\n'),
      ['cap_id', 'name', 'status'],
    );
    expect(result).toEqual({
      ok: true,
      headers: ['name', 'cap_id', 'status'],
      rows: [
        { line: 2, values: { name: 'Smith, Jones', cap_id: 'CAP-1', status: 'Active' } },
        { line: 4, values: { name: 'River', cap_id: 'CAP-2', status: 'Inactive' } },
      ],
    });
  });

  it('reads semicolon files', () => {
    const result = parseCsv(csv('cap_id;name;status\nCAP-1;North; Active \n'), ['cap_id']);
    expect(result.ok && result.rows[0]!.values).toEqual({ cap_id: 'CAP-1', name: 'North', status: 'Active' });
  });

  it('names missing headers', () => {
    const result = parseCsv(csv('cap;name\nx;y\n'), ['cap_id', 'name', 'status']);
    expect(result).toMatchObject({ ok: false, reason: 'missing-headers', missing: ['cap_id', 'status'] });
  });

  it('refuses empty, header-only, binary and badly quoted files', () => {
    expect(parseCsv(csv('  \n'), [])).toMatchObject({ ok: false, reason: 'empty' });
    expect(parseCsv(csv('cap_id,name\n'), ['cap_id'])).toMatchObject({ ok: false, reason: 'empty' });
    expect(parseCsv(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00]), [])).toMatchObject({ ok: false, reason: 'binary' });
    expect(parseCsv(csv('cap_id,name\n"CAP-1,North\n'), ['cap_id'])).toMatchObject({ ok: false, reason: 'malformed' });
  });
});

describe('CSV writing', () => {
  it('neutralises formulas and quotes what needs quoting', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM')).toBe("'@SUM");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(3)).toBe('3');
  });
});
