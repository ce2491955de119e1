import { crc32 } from 'node:zlib';

/**
 * Files for the Season Results Summary's uploads: a small real PDF and XLSX (a ZIP with a
 * workbook's parts), a Word document (a ZIP too, but no spreadsheet), and the heads of
 * MP4 and MOV videos (their first atom is what is checked).
 */

/** A one-page PDF that says `text`. */
export function smallPdf(text = 'Season results'): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  return Buffer.from(
    [
      '%PDF-1.4',
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' +
        '/Resources << /Font << /F1 5 0 R >> >> >> endobj',
      `4 0 obj << /Length ${stream.length} >> stream`,
      stream,
      'endstream endobj',
      '5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj',
      'trailer << /Root 1 0 R >>',
      '%%EOF',
      '',
    ].join('\n'),
    'latin1',
  );
}

/** A ZIP archive of the entries, stored uncompressed (CRCs and central directory included). */
export function zipOf(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const data = Buffer.from(text, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const OOXML = 'http://schemas.openxmlformats.org';

/** A workbook of one sheet whose first column holds the rows, as a spreadsheet program opens it. */
export function smallXlsx(rows: string[] = ['Season results', 'Completion 82%']): Buffer {
  const cells = rows
    .map((text, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>${text}</t></is></c></row>`)
    .join('');
  return zipOf({
    '[Content_Types].xml':
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="${OOXML}/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '</Types>',
    '_rels/.rels':
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${OOXML}/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="${OOXML}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>` +
      '</Relationships>',
    'xl/workbook.xml':
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${OOXML}/spreadsheetml/2006/main" ` +
      `xmlns:r="${OOXML}/officeDocument/2006/relationships"><sheets><sheet name="Results" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels':
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${OOXML}/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="${OOXML}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
      '</Relationships>',
    'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${OOXML}/spreadsheetml/2006/main"><sheetData>${cells}</sheetData></worksheet>`,
  });
}

/** A Word document's parts: a ZIP, an Office file, but not a spreadsheet. */
export function smallDocx(): Buffer {
  return zipOf({
    '[Content_Types].xml': `<?xml version="1.0"?><Types xmlns="${OOXML}/package/2006/content-types"/>`,
    'word/document.xml': `<?xml version="1.0"?><w:document xmlns:w="${OOXML}/wordprocessingml/2006/main"/>`,
  });
}

function atom(type: string, body: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + body.length);
  return Buffer.concat([size, Buffer.from(type, 'latin1'), body]);
}

/** The start of an MP4 (ftyp isom) or a MOV (ftyp qt), followed by `padding` bytes of media data. */
export function videoHead(kind: 'mp4' | 'mov', padding = 64): Buffer {
  const brand = kind === 'mp4' ? 'isom' : 'qt  ';
  const ftyp = atom('ftyp', Buffer.concat([Buffer.from(brand, 'latin1'), Buffer.alloc(4), Buffer.from(brand)]));
  return Buffer.concat([ftyp, atom('mdat', Buffer.alloc(padding, 0x11))]);
}
