import sharp from 'sharp';
import { smallPdf } from './summary-files.js';

/**
 * Files for the resource library's uploads: real PNG and JPEG images, a PDF of many pages,
 * and an MP4 whose movie header (`moov` → `mvhd`) gives its length.
 */

export async function pngImage(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#2f6fbf' } })
    .png()
    .toBuffer();
}

export async function jpegImage(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#bf2f4f' } })
    .jpeg()
    .toBuffer();
}

/** A PDF of `pages` pages, each saying its number, with a valid cross-reference table. */
export function pagedPdf(pages: number): Buffer {
  if (pages === 1) return smallPdf('One page');
  const objects: string[] = [];
  const kids: string[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  for (let i = 0; i < pages; i++) {
    const pageId = 4 + i * 2;
    const contentId = pageId + 1;
    const stream = `BT /F1 36 Tf 72 700 Td (Page ${i + 1}) Tj ET 0.2 0.4 0.8 rg 72 100 400 500 re f`;
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contentId} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`;
    objects[contentId] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
    kids.push(`${pageId} 0 R`);
  }
  objects[2] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`;
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

function atom(type: string, body: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + body.length);
  return Buffer.concat([size, Buffer.from(type, 'latin1'), body]);
}

/** The movie header of a file `seconds` long (version 0: timescale 1000). */
export function movieHeader(seconds: number): Buffer {
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12); // timescale
  mvhd.writeUInt32BE(Math.round(seconds * 1000), 16); // duration
  return atom('moov', atom('mvhd', mvhd));
}

/** An MP4 (or MOV) of `seconds`, with `mediaBytes` of media data, its movie header at the end. */
export function video(kind: 'mp4' | 'mov', seconds: number, mediaBytes = 256): Buffer {
  const brand = kind === 'mp4' ? 'isom' : 'qt  ';
  const ftyp = atom('ftyp', Buffer.concat([Buffer.from(brand, 'latin1'), Buffer.alloc(4), Buffer.from(brand)]));
  return Buffer.concat([ftyp, atom('mdat', Buffer.alloc(mediaBytes, 0x11)), movieHeader(seconds)]);
}

/** An HTML page, to be renamed as something else. */
export const htmlPage = '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>';
