import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Two PDFs that once froze the API while their thumbnails were drawn on its event loop
 * (issue #30), made here rather than stored: a page of ~3 million rectangles (39 MB, most
 * of it one repeated line) and a 390 kB file holding a 20000 × 20000 image.
 */

/** A PDF of one page whose objects are given in order (object 1 the catalog). */
function pdfOf(objects: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(length);
    const framed = [Buffer.from(`${index + 1} 0 obj\n`, 'latin1'), object, Buffer.from('\nendobj\n', 'latin1')];
    for (const part of framed) length += part.length;
    parts.push(...framed);
  });
  const size = objects.length + 1;
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(
    Buffer.from(
      `xref\n0 ${size}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(parts);
}

function stream(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

const text = (value: string) => Buffer.from(value, 'latin1');

function onePage(content: Buffer, resources = '<< >>', extra: Buffer[] = []): Buffer {
  return pdfOf([
    text('<< /Type /Catalog /Pages 2 0 R >>'),
    text('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    text(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources ${resources} >>`),
    stream('', content),
    ...extra,
  ]);
}

/** A page drawing `count` filled rectangles, its content stream one line repeated (uncompressed). */
export function manyRectanglesPdf(count = 3_000_000): Buffer {
  const line = '9 9 9 9 re f\n';
  return onePage(Buffer.alloc(line.length * count, line, 'latin1'));
}

/**
 * A zlib stream of `chunks` × `chunkBytes` zero bytes, made from one compressed chunk
 * repeated: each ends on a byte boundary (a sync flush) and refers to nothing before it.
 */
function zerosDeflated(chunkBytes: number, chunks: number): Buffer {
  const chunk = deflateRawSync(Buffer.alloc(chunkBytes), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const total = chunkBytes * chunks;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((total % 65521) << 16) >>> 0) + 1); // Adler-32 of zeros: a = 1, b = n mod 65521
  // zlib header; the chunks; a last, empty fixed-Huffman block; the checksum.
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...Array<Buffer>(chunks).fill(chunk),
    Buffer.from([0x03, 0x00]),
    adler,
  ]);
}

/** A page showing one 20000 × 20000 grey image: 400 MB of pixels in about 390 kB. */
export function hugeImagePdf(side = 20_000): Buffer {
  const pixels = zerosDeflated(side * 50, side / 50);
  const image = stream(
    `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
    pixels,
  );
  return onePage(text('q 612 0 0 792 0 0 cm /Im0 Do Q'), '<< /XObject << /Im0 5 0 R >> >>', [image]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])));
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, crc]);
}

/** A grey PNG of `side` × `side` pixels whose rows are all zero, in a few hundred kilobytes. */
export function hugePng(side = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8 bits, greyscale, deflate, no filter, not interlaced
  // Each row is its filter byte and `side` zeros.
  const rows = 50;
  const pixels = zerosDeflated((side + 1) * rows, side / rows);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
