import PDFDocument from 'pdfkit';
import { CASES_HEADING, drawCasesBlock, drawCasesHeading, layoutCases, type CasesBlock } from './certificate-cases.js';
import {
  artifact,
  FONT_FILES,
  drawFitted,
  drawText,
  fitText,
  oneLine,
  tagged,
  type FittedText,
  type TextBox,
} from './certificate-text.js';

/**
 * A CME certificate as a PDF (issue #37): US Letter, landscape, one page unless its cases
 * run on (certificate-cases.ts). A tagged PDF (issue #48): its language, its text in
 * structure elements in reading order (heading, paragraphs, the cases as a list, the link),
 * its frame and rules marked as artifacts, so a screen reader reads it as it is meant.
 * Drawn in the drawing process (`certificate-renderer.ts`), never on the API's event loop;
 * this is the drawing itself, plain and synchronous, so tests may call it directly.
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

/** Where a further page's list begins and how much height it has. */
const MORE_TOP = 100;
const MORE_ROOM = PAGE.height - 56 - MORE_TOP;

/** Made once: a formatter takes a millisecond to make, and a long list of cases asks for many dates. */
const DATES = {
  long: new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }),
  medium: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }),
};

/**
 * A date as "November 29, 2026" or "Nov 29, 2026" (UTC: the day is the same wherever the PDF
 * is made); one that cannot be read, as it was given.
 */
function dateOf(iso: string, style: 'long' | 'medium'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return DATES[style].format(date);
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
  artifact(doc, () => drawBorders(doc, revoked));
}

function drawBorders(doc: PDFKit.PDFDocument, revoked: boolean): void {
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
function drawHeading(doc: PDFKit.PDFDocument, root: PDFKit.PDFStructureElement, input: CertificatePdfInput): number {
  tagged(doc, root, 'P', () =>
    drawText(
      doc,
      { text: AUTHOR.toUpperCase(), font: 'Regular', size: 10, maxHeight: 12, color: MUTED, align: 'center' },
      LEFT,
      50,
      WIDTH,
    ),
  );
  tagged(doc, root, 'H1', () =>
    drawText(
      doc,
      { text: 'Certificate of Completion', font: 'Bold', size: 36, maxHeight: 42, color: NAVY, align: 'center' },
      LEFT,
      68,
      WIDTH,
    ),
  );
  artifact(doc, () =>
    doc
      .lineWidth(1.5)
      .strokeColor(GOLD)
      .moveTo(PAGE.width / 2 - 70, 116)
      .lineTo(PAGE.width / 2 + 70, 116)
      .stroke(),
  );
  if (input.revokedAt === null) return 134;
  // A revoked certificate still downloads (its holder may ask why): it says so at its top.
  artifact(doc, () =>
    doc
      .lineWidth(1.25)
      .strokeColor(RED)
      .rect(LEFT + 120, 126, WIDTH - 240, 28)
      .stroke(),
  );
  const line = `REVOKED on ${dateOf(input.revokedAt, 'long')} — this certificate is no longer valid`;
  tagged(doc, root, 'P', () =>
    drawText(
      doc,
      { text: line, font: 'Bold', size: 13, minSize: 9, maxHeight: 16, color: RED, align: 'center' },
      LEFT + 128,
      133,
      WIDTH - 256,
    ),
  );
  return 166;
}

/** The bottom of the page: when, by whom, the code, and where to check it. */
function drawFooter(doc: PDFKit.PDFDocument, root: PDFKit.PDFStructureElement, input: CertificatePdfInput): void {
  const columnWidth = 200;
  const columns: [string, string, number, 'left' | 'center' | 'right'][] = [
    ['Date of issue', dateOf(input.issuedAt, 'long'), LEFT, 'left'],
    ['Issued by', AUTHOR, PAGE.width / 2 - columnWidth / 2, 'center'],
    ['Verification code', input.code, LEFT + WIDTH - columnWidth, 'right'],
  ];
  for (const [label, value, x, align] of columns) {
    artifact(doc, () =>
      doc
        .lineWidth(0.5)
        .strokeColor(GOLD)
        .moveTo(x, FOOTER_TOP)
        .lineTo(x + columnWidth, FOOTER_TOP)
        .stroke(),
    );
    // Each label, then its value: "Date of issue", "December 6, 2026".
    const labelBox = { text: label, font: 'Regular', size: 8, maxHeight: 10, color: MUTED, align } as const;
    const valueBox = { text: value, font: 'Bold', size: 12, minSize: 8, maxHeight: 14, color: INK, align } as const;
    tagged(doc, root, 'P', () => drawText(doc, labelBox, x, FOOTER_TOP + 5, columnWidth));
    tagged(doc, root, 'P', () => drawText(doc, valueBox, x, FOOTER_TOP + 17, columnWidth));
  }
  tagged(doc, root, 'P', () =>
    drawText(
      doc,
      { text: 'Verify this certificate at', font: 'Regular', size: 9, maxHeight: 11, color: MUTED, align: 'center' },
      LEFT,
      534,
      WIDTH,
    ),
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
  // The address is a link: its annotation belongs to the Link element that holds its text.
  const link = doc.struct('Link', {}, () =>
    drawText(doc, { ...url, link: oneLine(input.verifyUrl) }, LEFT, 547, WIDTH),
  );
  root.add(doc.struct('P', {}, [link]));
}

function drawPage(doc: PDFKit.PDFDocument, root: PDFKit.PDFStructureElement, input: CertificatePdfInput): void {
  drawFrame(doc, input.revokedAt !== null);
  const top = drawHeading(doc, root, input);
  const blocks = middleBlocks(doc, input);
  const room = FOOTER_TOP - 16 - top;
  const middle = blocks.reduce((sum, { fitted, gap }) => sum + gap + fitted.height, 0);
  // The list comes after a gap of 16, under its heading; what does not fit goes on to further pages.
  const cases = layoutCases(doc, input.cases, WIDTH, room - middle - 16 - CASES_HEADING, MORE_ROOM, (iso) =>
    dateOf(iso, 'medium'),
  );
  const list = cases.first ? 16 + CASES_HEADING + cases.first.height : 0;
  // What is left is shared above and below, a little more below: the page's middle looks centred.
  let y = top + Math.max(0, room - middle - list) * 0.45;
  blocks.forEach(({ fitted, gap }) => {
    y += gap;
    const at = y;
    tagged(doc, root, 'P', () => drawFitted(doc, fitted, LEFT, at, WIDTH));
    y += fitted.height;
  });
  // The list is made only with cases (an element made is written only once it is in the tree).
  const cased = cases.first || cases.more.length ? doc.struct('L') : null;
  if (cased && cases.first) {
    drawCasesHeading(doc, root, 'Cases completed', LEFT, y + 16, WIDTH);
    root.add(cased);
    drawCasesBlock(doc, cased, cases.first, LEFT, y + 16 + CASES_HEADING, WIDTH);
  }
  drawFooter(doc, root, input);
  const pages = cases.more.length + 1;
  cases.more.forEach((block, index) =>
    drawMore(doc, root, cased!, input, block, index + 2, pages, !cases.first && index === 0),
  );
  cased?.end();
}

/** A further page of the cases: the frame, whose certificate it continues, and the list. */
function drawMore(
  doc: PDFKit.PDFDocument,
  root: PDFKit.PDFStructureElement,
  cased: PDFKit.PDFStructureElement,
  input: CertificatePdfInput,
  block: CasesBlock,
  page: number,
  pages: number,
  starts: boolean,
): void {
  doc.addPage();
  drawFrame(doc, input.revokedAt !== null);
  // Whose certificate it continues, repeated on each further page: artifacts, as running heads are.
  const heads = [
    `Certificate of Completion — ${oneLine(input.participantName)}`,
    `${input.code} — page ${page} of ${pages}`,
  ];
  heads.forEach((text, line) => {
    const small = { text, font: 'Regular', size: 9, maxHeight: 11, color: MUTED, align: 'center' } as const;
    doc.markContent('Artifact', { type: 'Pagination' });
    drawText(doc, small, LEFT, 44 + line * 12, WIDTH);
    doc.endMarkedContent();
  });
  // The list's heading where the list begins (none fitted on the first page), else a
  // "continued" line the reader passes over.
  drawCasesHeading(
    doc,
    starts ? root : null,
    starts ? 'Cases completed' : 'Cases completed (continued)',
    LEFT,
    74,
    WIDTH,
  );
  if (starts) root.add(cased);
  drawCasesBlock(doc, cased, block, LEFT, MORE_TOP, WIDTH);
}

/** The certificate's PDF (fonts embedded, text extractable, with its title and author). */
export async function drawCertificatePdf(input: CertificatePdfInput): Promise<Uint8Array> {
  const issued = new Date(input.issuedAt);
  const doc = new PDFDocument({
    // A tagged PDF: its structure tree, with `lang`, read by screen readers (issue #48).
    tagged: true,
    size: 'LETTER',
    layout: 'landscape',
    margin: 0,
    // The default font, opened as the document is: Helvetica (a standard font) is never used.
    font: FONT_FILES.Regular,
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
  const chunks: Buffer[] = [];
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const root = doc.struct('Document');
  doc.addStructure(root);
  drawPage(doc, root, input);
  root.end();
  doc.end();
  await ended;
  const pdf = Buffer.concat(chunks);
  return new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
}
