import { encodePng } from './demo-image.js';

/**
 * The demo's files, made in code at first start (no binary file in the repository, no PDF
 * or image library): a one-page PDF of text lines and shaded boxes, and an ECG strip as a
 * PNG. The app treats them as any upload: checked by content, stored, and their thumbnails
 * drawn by its own thumbnail process.
 */

/** One line of a demo PDF: its text, size and place (points from the page's bottom left). */
interface PdfLine {
  text: string;
  size: number;
  x: number;
  y: number;
  bold?: boolean;
}

const escapePdf = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);

/** A valid one-page letter-size PDF (cross-reference table and all) with the lines and boxes given. */
export function demoPdf(lines: PdfLine[], boxes: { x: number; y: number; w: number; h: number; grey: number }[]) {
  const drawing = [
    ...boxes.map((b) => `${b.grey} g ${b.x} ${b.y} ${b.w} ${b.h} re f`),
    '0.1 0.2 0.35 rg',
    ...lines.map((l) => `BT /${l.bold ? 'F2' : 'F1'} ${l.size} Tf ${l.x} ${l.y} Td (${escapePdf(l.text)}) Tj ET`),
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(drawing, 'latin1')} >>\nstream\n${drawing}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A page of text: a title band, then paragraphs of lines, with a ruled box for each entry of a table. */
export function textPagePdf(title: string, subtitle: string, paragraphs: string[], table: string[][] = []): Buffer {
  const lines: PdfLine[] = [
    { text: title, size: 24, x: 56, y: 722, bold: true },
    { text: subtitle, size: 12, x: 56, y: 700 },
  ];
  let y = 650;
  for (const paragraph of paragraphs) {
    lines.push({ text: paragraph, size: 12, x: 56, y });
    y -= 22;
  }
  const boxes = [{ x: 0, y: 680, w: 612, h: 112, grey: 0.9 }];
  y -= 16;
  for (const [i, row] of table.entries()) {
    boxes.push({ x: 56, y: y - 8, w: 500, h: 24, grey: i === 0 ? 0.82 : i % 2 ? 0.97 : 0.93 });
    row.forEach((cell, c) => lines.push({ text: cell, size: 11, x: 64 + c * 125, y, bold: i === 0 }));
    y -= 24;
  }
  return demoPdf(lines, boxes);
}

/** An ECG strip: the pink millimetre grid and a regular sinus rhythm traced across it. */
export function ecgStripPng(width = 640, height = 200): Buffer {
  const beat = 128; // pixels per heartbeat (75 a minute at 25 mm/s on a 4 px grid)
  const baseline = height * 0.6;
  /** The trace's height at x: P wave, QRS complex and T wave of each beat. */
  const trace = (x: number) => {
    const t = (x % beat) / beat;
    const bump = (centre: number, width_: number, amplitude: number) =>
      amplitude * Math.exp(-(((t - centre) / width_) ** 2));
    return (
      baseline -
      bump(0.18, 0.035, 12) +
      bump(0.3, 0.012, 14) -
      bump(0.33, 0.014, 78) +
      bump(0.36, 0.012, 22) -
      bump(0.6, 0.06, 20)
    );
  };
  const heights = Array.from({ length: width + 1 }, (_, x) => trace(x));
  return encodePng(width, height, (x, y) => {
    const low = Math.min(heights[x]!, heights[x + 1]!) - 1.5;
    const high = Math.max(heights[x]!, heights[x + 1]!) + 1.5;
    if (y >= low && y <= high) return [30, 30, 40];
    if (x % 20 === 0 || y % 20 === 0) return [240, 160, 170];
    if (x % 4 === 0 || y % 4 === 0) return [251, 218, 222];
    return [255, 246, 247];
  });
}
