import { drawFitted, drawText, fitText, tagged, useFont, type FittedText } from './certificate-text.js';

/**
 * The certificate's "Cases completed" list (issue #48): one case a line, its name (wrapped to
 * two lines at most) and the day it was completed, at 10 pt, shrinking to 9 pt (never less)
 * before it takes a second column; what still does not fit on the first page goes on to the
 * next ones, in two columns at 9 pt. Tagged as a list (L, LI, LBody) in the cases' order,
 * which is also the order of the columns: down the first, then down the second.
 */
export type CertificateCase = { case_name: string; submitted_at: string };

/** Sizes tried from the first, and the smallest the list is ever drawn at. */
const SIZES = [10, 9.5, 9] as const;
/** The width of one column alone (centred), two columns' gap, the date's width and the space before it. */
const SINGLE_WIDTH = 460;
const GAP = 28;
const DATE_GAP = 10;
/** Room between two cases. */
const ROW_GAP = 3;
const INK = '#1c2733';
const MUTED = '#5b6673';

export interface CaseRow {
  name: FittedText;
  /** The width the name was measured for: the column less the date. */
  nameWidth: number;
  date: FittedText;
  height: number;
}

/** The list measured for one page's part: its columns, their width, the size, and the rows of each column. */
export interface CasesBlock {
  columnWidth: number;
  size: number;
  columns: CaseRow[][];
  height: number;
}

/** A case's name and date measured at `size` for a column `width` wide. */
function measure(
  doc: PDFKit.PDFDocument,
  item: CertificateCase,
  size: number,
  width: number,
  dateOf: (iso: string) => string,
): CaseRow {
  const date = fitText(
    doc,
    { text: dateOf(item.submitted_at), font: 'Regular', size, maxHeight: size * 1.3, color: MUTED, align: 'right' },
    width,
  );
  useFont(doc, 'Regular').fontSize(size);
  const dateWidth = doc.widthOfString(date.drawn) + DATE_GAP;
  const name = fitText(
    doc,
    // Two lines at most; a name longer still is cut with "…".
    { text: item.case_name, font: 'Regular', size, maxHeight: size * 2.4, color: INK },
    width - dateWidth,
  );
  // A space before the date (it takes no room at the right edge): read after the name, not run into it.
  const spaced = { ...date, drawn: ` ${date.drawn}` };
  return { name, nameWidth: width - dateWidth, date: spaced, height: Math.max(name.height, date.height) + ROW_GAP };
}

/** Fills up to `columns` columns of height `room` with the rows in order; answers the columns and how many rows went in. */
function pack(rows: CaseRow[], columns: number, room: number): { filled: CaseRow[][]; count: number } {
  const filled: CaseRow[][] = [];
  let index = 0;
  for (let c = 0; c < columns && index < rows.length; c++) {
    const column: CaseRow[] = [];
    let height = 0;
    while (index < rows.length && height + rows[index]!.height <= room) {
      height += rows[index]!.height;
      column.push(rows[index]!);
      index += 1;
    }
    if (!column.length) break;
    filled.push(column);
  }
  return { filled, count: index };
}

const blockOf = (filled: CaseRow[][], size: number, columnWidth: number): CasesBlock => ({
  columnWidth,
  size,
  columns: filled,
  height: Math.max(0, ...filled.map((column) => column.reduce((sum, row) => sum + row.height, 0))),
});

/**
 * Lays the cases out: on the first page within `firstRoom` points of height, in one column at
 * the largest size that holds them all, else two columns at 9 pt; the rest on further pages of
 * `pageRoom` each, two columns at 9 pt. Answers the first page's block (possibly empty) and the
 * further pages' blocks.
 */
export function layoutCases(
  doc: PDFKit.PDFDocument,
  cases: CertificateCase[],
  width: number,
  firstRoom: number,
  pageRoom: number,
  dateOf: (iso: string) => string,
): { first: CasesBlock | null; more: CasesBlock[] } {
  if (!cases.length) return { first: null, more: [] };
  for (const size of SIZES) {
    const rows = cases.map((item) => measure(doc, item, size, SINGLE_WIDTH, dateOf));
    const { filled, count } = pack(rows, 1, firstRoom);
    if (count === rows.length) return { first: blockOf(filled, size, SINGLE_WIDTH), more: [] };
  }
  const size = SIZES.at(-1)!;
  const columnWidth = (width - GAP) / 2;
  let rows = cases.map((item) => measure(doc, item, size, columnWidth, dateOf));
  const first = pack(rows, 2, firstRoom);
  rows = rows.slice(first.count);
  const more: CasesBlock[] = [];
  while (rows.length) {
    const page = pack(rows, 2, pageRoom);
    // A page always takes one case, however tall (a name is two lines at most).
    const count = Math.max(1, page.count);
    more.push(blockOf(page.count ? page.filled : [[rows[0]!]], size, columnWidth));
    rows = rows.slice(count);
  }
  return { first: first.count ? blockOf(first.filled, size, columnWidth) : null, more };
}

/** The list's heading's height with the space under it. */
export const CASES_HEADING = 18;

/** Draws the heading (an H2, or a page's "continued" line as an artifact) at `top`. */
export function drawCasesHeading(
  doc: PDFKit.PDFDocument,
  parent: PDFKit.PDFStructureElement | null,
  text: string,
  x: number,
  top: number,
  width: number,
): void {
  const box = { text, font: 'Bold', size: 11, maxHeight: 14, color: MUTED, align: 'center' } as const;
  if (parent) tagged(doc, parent, 'H2', () => drawText(doc, box, x, top, width));
  else {
    doc.markContent('Artifact', { type: 'Pagination' });
    drawText(doc, box, x, top, width);
    doc.endMarkedContent();
  }
}

/** Draws a block from `top`, centred within the text's column (`x`, `width`), each case an item of `list`. */
export function drawCasesBlock(
  doc: PDFKit.PDFDocument,
  list: PDFKit.PDFStructureElement,
  block: CasesBlock,
  x: number,
  top: number,
  width: number,
): void {
  const used = block.columns.length * block.columnWidth + (block.columns.length - 1) * GAP;
  let left = x + (width - used) / 2;
  for (const column of block.columns) {
    let y = top;
    for (const row of column) {
      const at = y;
      const columnLeft = left;
      const item = doc.struct('LI', {}, [
        doc.struct('LBody', {}, () => {
          drawFitted(doc, row.name, columnLeft, at, row.nameWidth);
          drawFitted(doc, row.date, columnLeft, at, block.columnWidth);
        }),
      ]);
      list.add(item);
      y += row.height;
    }
    left += block.columnWidth + GAP;
  }
}
