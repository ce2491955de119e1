import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { drawFitted, drawText, fitText, oneLine, type FittedText, type TextBox } from './certificate-text.js';

/**
 * A CME certificate as a one-page PDF (issue #37): US Letter, landscape. Drawn in the drawing
 * process (`certificate-renderer.ts`), never on the API's event loop; this is the drawing
 * itself, plain and synchronous, so tests may call it directly.
 *
 * The fonts are DejaVu Sans and DejaVu Sans Bold (the `dejavu-fonts-ttf` package; their
 * licence, the Bitstream Vera licence with DejaVu's changes in the public domain, allows
 * embedding them in a document), embedded as subsets with a ToUnicode map, so the page looks
 * the same in every viewer and its text can be copied and searched — the 14 standard PDF
 * fonts are not embedded, are drawn with whatever the viewer has, and know no Cyrillic. DejaVu
 * rather than the Liberation Sans pdf.js ships: it draws the Latin letters of Vietnamese,
 * Romanian or Polish names (Nguyễn, Ștefan, Łukasz), Greek and Cyrillic; a letter it lacks
 * (a Chinese name) is handled by `drawableText`.
 */
export interface CertificatePdfInput {
  participantName: string;
  profession: string | null;
  projectName: string;
  clientName: string;
  credits: number;
  mocPoints: number | null;
  courseId: string | null;
  /** ISO 8601. */
  issuedAt: string;
  /** ISO 8601, when the certificate was revoked. */
  revokedAt: string | null;
  code: string;
  verifyUrl: string;
  cases: { case_name: string; submitted_at: string }[];
}

const FONTS_FOLDER = path.join(
  path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')),
  'ttf',
);
const REGULAR = path.join(FONTS_FOLDER, 'DejaVuSans.ttf');
const BOLD = path.join(FONTS_FOLDER, 'DejaVuSans-Bold.ttf');

const AUTHOR = 'Patient Simulation Platform';
/** US Letter, landscape, in points. */
const PAGE = { width: 792, height: 612 };
/** The text's column, inside the border. */
const LEFT = 72;
const WIDTH = PAGE.width - 2 * LEFT;
/** Where the footer (date, issuer, code, address) begins: what is above it never reaches it. */
const FOOTER_TOP = 486;
const INK = '#1c2733';
const NAVY = '#1f3a5f';
const MUTED = '#5b6673';
const GOLD = '#b08d3c';
const RED = '#b3261e';

/** The cases' list: small type in three columns, as many rows as the room left holds. */
const CASES = { columns: 3, gap: 24, size: 7.5, rowHeight: 10, dateWidth: 54 };

/**
 * A date as "November 29, 2026" or "Nov 29, 2026" (UTC: the day is the same wherever the PDF
 * is made); one that cannot be read, as it was given.
 */
function dateOf(iso: string, style: 'long' | 'medium'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('en-US', { dateStyle: style, timeZone: 'UTC' }).format(date);
}

const amount = (value: number, one: string, many: string) =>
  `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(value)} ${value === 1 ? one : many}`;

/** The page's middle: who, what and how much, each measured for the text's column, with the space above it. */
function middleBlocks(doc: PDFKit.PDFDocument, input: CertificatePdfInput): { fitted: FittedText; gap: number }[] {
  const count = input.cases.length;
  const credits = [amount(input.credits, 'CME credit', 'CME credits')];
  if (input.mocPoints !== null) credits.push(amount(input.mocPoints, 'MOC point', 'MOC points'));
  const completed = `has completed ${count} ${count === 1 ? 'case' : 'cases'} of ${oneLine(input.projectName)} (${oneLine(input.clientName)})`;
  const profession = oneLine(input.profession ?? '');
  const courseId = oneLine(input.courseId ?? '');
  const blocks: [number, Omit<TextBox, 'align'> | null][] = [
    [0, { text: 'This certifies that', font: 'Regular', size: 13, maxHeight: 16, color: MUTED }],
    [6, { text: input.participantName, font: 'Bold', size: 30, minSize: 12, maxHeight: 72, color: INK }],
    [
      4,
      profession === ''
        ? null
        : { text: profession, font: 'Regular', size: 14, minSize: 9, maxHeight: 17, color: MUTED },
    ],
    [8, { text: completed, font: 'Regular', size: 14, minSize: 9, maxHeight: 34, color: INK }],
    [10, { text: credits.join('  ·  '), font: 'Bold', size: 16, minSize: 10, maxHeight: 19, color: NAVY }],
    [
      2,
      courseId === ''
        ? null
        : { text: `Course ID: ${courseId}`, font: 'Regular', size: 11, minSize: 8, maxHeight: 13, color: MUTED },
    ],
  ];
  return blocks.flatMap(([gap, box]) =>
    box ? [{ fitted: fitText(doc, { ...box, align: 'center' }, WIDTH), gap }] : [],
  );
}

function drawFrame(doc: PDFKit.PDFDocument, revoked: boolean): void {
  doc
    .lineWidth(2.5)
    .strokeColor(revoked ? RED : NAVY)
    .rect(18, 18, PAGE.width - 36, PAGE.height - 36)
    .stroke();
  doc
    .lineWidth(0.75)
    .strokeColor(GOLD)
    .rect(26, 26, PAGE.width - 52, PAGE.height - 52)
    .stroke();
}

/** The top of the page; answers where the middle may begin. */
function drawHeading(doc: PDFKit.PDFDocument, input: CertificatePdfInput): number {
  drawText(
    doc,
    { text: AUTHOR.toUpperCase(), font: 'Regular', size: 10, maxHeight: 12, color: MUTED, align: 'center' },
    LEFT,
    50,
    WIDTH,
  );
  drawText(
    doc,
    { text: 'Certificate of Completion', font: 'Bold', size: 36, maxHeight: 42, color: NAVY, align: 'center' },
    LEFT,
    68,
    WIDTH,
  );
  doc
    .lineWidth(1.5)
    .strokeColor(GOLD)
    .moveTo(PAGE.width / 2 - 70, 116)
    .lineTo(PAGE.width / 2 + 70, 116)
    .stroke();
  if (input.revokedAt === null) return 134;
  // A revoked certificate still downloads (its holder may ask why): it says so at its top.
  doc
    .lineWidth(1.25)
    .strokeColor(RED)
    .rect(LEFT + 120, 126, WIDTH - 240, 28)
    .stroke();
  const line = `REVOKED on ${dateOf(input.revokedAt, 'long')} — this certificate is no longer valid`;
  drawText(
    doc,
    { text: line, font: 'Bold', size: 13, minSize: 9, maxHeight: 16, color: RED, align: 'center' },
    LEFT + 128,
    133,
    WIDTH - 256,
  );
  return 166;
}

/** The cases in three columns from `top`, at most `rows` deep; "and N more" in the last place when they do not all fit. */
function drawCases(doc: PDFKit.PDFDocument, cases: CertificatePdfInput['cases'], top: number, rows: number): void {
  drawText(
    doc,
    { text: 'Cases completed', font: 'Bold', size: 8, maxHeight: 10, color: MUTED, align: 'center' },
    LEFT,
    top,
    WIDTH,
  );
  const capacity = rows * CASES.columns;
  const shown = cases.length > capacity ? cases.slice(0, capacity - 1) : cases;
  const more = cases.length - shown.length;
  const places = shown.length + (more > 0 ? 1 : 0);
  const used = Math.ceil(places / CASES.columns);
  const columnWidth = (WIDTH - (CASES.columns - 1) * CASES.gap) / CASES.columns;
  // Fewer cases than columns: the columns they take are centred under the heading.
  const columns = Math.ceil(places / used);
  const left = LEFT + ((CASES.columns - columns) * (columnWidth + CASES.gap)) / 2;
  const place = (index: number) => ({
    x: left + Math.floor(index / used) * (columnWidth + CASES.gap),
    y: top + 14 + (index % used) * CASES.rowHeight,
  });
  const small = { size: CASES.size, maxHeight: CASES.rowHeight - 1, color: INK } as const;
  shown.forEach((item, index) => {
    const { x, y } = place(index);
    const nameWidth = columnWidth - CASES.dateWidth - 6;
    drawText(doc, { ...small, text: item.case_name, font: 'Regular' }, x, y, nameWidth);
    const date = dateOf(item.submitted_at, 'medium');
    drawText(
      doc,
      { ...small, text: date, font: 'Regular', color: MUTED, align: 'right' },
      x + nameWidth + 6,
      y,
      CASES.dateWidth,
    );
  });
  if (more > 0) {
    const { x, y } = place(shown.length);
    drawText(doc, { ...small, text: `and ${more} more`, font: 'Bold', color: MUTED }, x, y, columnWidth);
  }
}

/** The bottom of the page: when, by whom, the code, and where to check it. */
function drawFooter(doc: PDFKit.PDFDocument, input: CertificatePdfInput): void {
  const columnWidth = 200;
  const columns: [string, string, number, 'left' | 'center' | 'right'][] = [
    ['Date of issue', dateOf(input.issuedAt, 'long'), LEFT, 'left'],
    ['Issued by', AUTHOR, PAGE.width / 2 - columnWidth / 2, 'center'],
    ['Verification code', input.code, LEFT + WIDTH - columnWidth, 'right'],
  ];
  for (const [label, value, x, align] of columns) {
    doc
      .lineWidth(0.5)
      .strokeColor(GOLD)
      .moveTo(x, FOOTER_TOP)
      .lineTo(x + columnWidth, FOOTER_TOP)
      .stroke();
    drawText(
      doc,
      { text: label, font: 'Regular', size: 8, maxHeight: 10, color: MUTED, align },
      x,
      FOOTER_TOP + 5,
      columnWidth,
    );
    drawText(
      doc,
      { text: value, font: 'Bold', size: 12, minSize: 8, maxHeight: 14, color: INK, align },
      x,
      FOOTER_TOP + 17,
      columnWidth,
    );
  }
  drawText(
    doc,
    { text: 'Verify this certificate at', font: 'Regular', size: 9, maxHeight: 11, color: MUTED, align: 'center' },
    LEFT,
    534,
    WIDTH,
  );
  const url = {
    text: input.verifyUrl,
    font: 'Regular',
    size: 10,
    minSize: 7,
    maxHeight: 24,
    color: NAVY,
    align: 'center',
  } as const;
  drawText(doc, { ...url, link: oneLine(input.verifyUrl) }, LEFT, 547, WIDTH);
}

function drawPage(doc: PDFKit.PDFDocument, input: CertificatePdfInput): void {
  drawFrame(doc, input.revokedAt !== null);
  const top = drawHeading(doc, input);
  const blocks = middleBlocks(doc, input);
  const room = FOOTER_TOP - 16 - top;
  const middle = blocks.reduce((sum, { fitted, gap }) => sum + gap + fitted.height, 0);
  // The list comes after a gap of 16, under its heading (14), when at least one row fits.
  const listRoom = room - middle - 16 - 14;
  const rows = input.cases.length === 0 ? 0 : Math.max(0, Math.floor(listRoom / CASES.rowHeight));
  const usedRows = Math.min(rows, Math.ceil(input.cases.length / CASES.columns));
  const list = usedRows > 0 ? 16 + 14 + usedRows * CASES.rowHeight : 0;
  // What is left is shared above and below, a little more below: the page's middle looks centred.
  let y = top + Math.max(0, room - middle - list) * 0.45;
  blocks.forEach(({ fitted, gap }) => {
    y += gap;
    drawFitted(doc, fitted, LEFT, y, WIDTH);
    y += fitted.height;
  });
  if (usedRows > 0) drawCases(doc, input.cases, y + 16, rows);
  drawFooter(doc, input);
}

/** The certificate's PDF (one page, fonts embedded, text extractable, with its title and author). */
export async function drawCertificatePdf(input: CertificatePdfInput): Promise<Uint8Array> {
  const issued = new Date(input.issuedAt);
  const doc = new PDFDocument({
    size: 'LETTER',
    layout: 'landscape',
    margin: 0,
    // The default font, opened as the document is: Helvetica (a standard font) is never used.
    font: REGULAR,
    // ActualText (a name's letters the font lacks) is of PDF 1.5; pdfkit writes 1.3 by default.
    pdfVersion: '1.7',
    lang: 'en-US',
    displayTitle: true,
    info: {
      Title: `Certificate of Completion — ${oneLine(input.participantName)}`,
      Author: AUTHOR,
      Subject: `CME certificate ${input.code}: ${oneLine(input.projectName)} (${oneLine(input.clientName)})`,
      Creator: AUTHOR,
      // The same certificate gives the same dates in its file, whenever it is drawn.
      ...(Number.isNaN(issued.getTime()) ? {} : { CreationDate: issued, ModDate: issued }),
    },
  });
  doc.registerFont('Regular', REGULAR);
  doc.registerFont('Bold', BOLD);
  const chunks: Buffer[] = [];
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  drawPage(doc, input);
  doc.end();
  await ended;
  const pdf = Buffer.concat(chunks);
  return new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
}
