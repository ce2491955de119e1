import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Text on the certificate page (`certificate-pdf.ts`) that never leaves its place: a name,
 * project or address of any length is wrapped within a height and shrunk until it fits there,
 * down to a smallest size, and cut with "…" only past that. pdfkit moves on to a new page when text runs past
 * the bottom and there is no height; every text here has one, so the certificate stays one page.
 */
export type FontName = 'Regular' | 'Bold';

const FONTS_FOLDER = path.join(
  path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')),
  'ttf',
);

/**
 * The fonts' files (certificate-pdf.ts says why DejaVu Sans). A font is chosen by its file,
 * not by a registered name: pdfkit caches a font under the name or path it was asked for,
 * except a registered name for a font it already holds under its path (the document's
 * default), which it then opens and parses anew at every call — most of a drawing's time.
 */
export const FONT_FILES: Record<FontName, string> = {
  Regular: path.join(FONTS_FOLDER, 'DejaVuSans.ttf'),
  Bold: path.join(FONTS_FOLDER, 'DejaVuSans-Bold.ttf'),
};

/** Makes `name` the font being used. */
export const useFont = (doc: PDFKit.PDFDocument, name: FontName) => doc.font(FONT_FILES[name]);

export interface TextBox {
  text: string;
  font: FontName;
  /** The size it is drawn at when it fits. */
  size: number;
  /** The size it may shrink to (the size itself by default). */
  minSize?: number;
  /** The height it may take, in points (at least one line). */
  maxHeight: number;
  color: string;
  align?: 'left' | 'center' | 'right';
  /** Makes the text a link annotation to this address. */
  link?: string;
}

/** A text measured for a width: the size it is drawn at and the height it takes. */
export interface FittedText {
  box: TextBox;
  /** What is drawn: the text with the letters the font lacks replaced (`drawableText`). */
  drawn: string;
  /** The text as given, when the font lacks some of its letters, so that it is what a reader copies. */
  actual: string | null;
  size: number;
  height: number;
  /** The height of the whole lines that fit in `maxHeight`: the drawing's cut-off. */
  limit: number;
}

/** What fontkit (inside pdfkit) answers about the font being used. */
interface FontFace {
  hasGlyphForCodePoint(codePoint: number): boolean;
}

/**
 * The font pdfkit is using. pdfkit does not expose it in its types; without it every letter is
 * taken as drawable, and a missing one draws as an empty box.
 */
function faceOf(doc: PDFKit.PDFDocument): FontFace | null {
  const face = (doc as unknown as { _font?: { font?: Partial<FontFace> } })._font?.font;
  return typeof face?.hasGlyphForCodePoint === 'function' ? (face as FontFace) : null;
}

/** Runs of white space (new lines and tabs included) as one space: each text is laid out by the page. */
export const oneLine = (text: string): string => text.replace(/\s+/gu, ' ').trim();

/**
 * The text as the current font can draw it. DejaVu Sans covers Latin (Vietnamese and the
 * other accented letters included), Greek and Cyrillic; a letter it lacks that has a Latin
 * base is drawn as its base letter rather than an empty box, and `actual` keeps the text as
 * given for the PDF's ActualText, so copying or searching it finds the name as written.
 * A letter of no Latin base (a Chinese name) stays as it is and draws as the font's empty box,
 * but its text still reads back from the ActualText.
 */
export function drawableText(doc: PDFKit.PDFDocument, text: string): { drawn: string; actual: string | null } {
  const given = oneLine(text).normalize('NFC');
  const face = faceOf(doc);
  if (!face) return { drawn: given, actual: null };
  const has = (char: string) => face.hasGlyphForCodePoint(char.codePointAt(0)!);
  let drawn = '';
  let lacking = false;
  for (const char of given) {
    if (char === ' ' || has(char)) {
      drawn += char;
      continue;
    }
    lacking = true;
    const base = char.normalize('NFD').replace(/\p{M}/gu, '');
    drawn += base !== '' && [...base].every(has) ? base : char;
  }
  return { drawn, actual: lacking ? given : null };
}

/** Measures a text for a width: the largest size from `size` down to `minSize` that fits its height. */
export function fitText(doc: PDFKit.PDFDocument, box: TextBox, width: number): FittedText {
  useFont(doc, box.font);
  const { drawn, actual } = drawableText(doc, box.text);
  const minSize = box.minSize ?? box.size;
  for (let size = box.size; ; size = Math.max(minSize, size - 1)) {
    doc.fontSize(size);
    const lineHeight = doc.currentLineHeight(true);
    const limit = Math.max(1, Math.floor(box.maxHeight / lineHeight)) * lineHeight;
    const height = doc.heightOfString(drawn, { width, lineGap: 0 });
    if (height <= limit + 0.01 || size <= minSize) {
      return { box, drawn, actual, size, height: Math.min(height, limit), limit };
    }
  }
}

/** Draws a measured text at (x, y); lines past its limit are left out, the last cut with "…". */
export function drawFitted(doc: PDFKit.PDFDocument, fitted: FittedText, x: number, y: number, width: number): void {
  const { box } = fitted;
  useFont(doc, box.font).fontSize(fitted.size).fillColor(box.color);
  if (fitted.actual !== null) doc.markContent('Span', { actual: fitted.actual });
  doc.text(fitted.drawn, x, y, {
    width,
    // Half a point over the whole lines: pdfkit stops at the first line that passes it.
    height: fitted.limit + 0.5,
    ellipsis: true,
    lineGap: 0,
    align: box.align ?? 'left',
    ...(box.link ? { link: box.link, underline: true } : {}),
  });
  if (fitted.actual !== null) {
    // Ended in the coordinates pdfkit draws text in (flipped once more inside the page's):
    // poppler places a span's ActualText by the transformation in force at its end, and would
    // otherwise put it upside down on the page, far from the letters it stands for.
    doc.save().transform(1, 0, 0, -1, 0, doc.page.height).endMarkedContent().restore();
  }
}

/** Measures and draws a text in one go; answers the height it took. */
export function drawText(doc: PDFKit.PDFDocument, box: TextBox, x: number, y: number, width: number): number {
  const fitted = fitText(doc, box, width);
  drawFitted(doc, fitted, x, y, width);
  return fitted.height;
}

/**
 * Adds a structure element of `type` under `parent` (issue #48: the tagged PDF) whose content
 * is what `draw` draws, drawn now: elements are added, and so read, in the order they are drawn.
 */
export function tagged(
  doc: PDFKit.PDFDocument,
  parent: PDFKit.PDFStructureElement,
  type: string,
  draw: () => void,
): PDFKit.PDFStructureElement {
  const element = doc.struct(type, {}, draw);
  parent.add(element);
  return element;
}

/** Draws decoration (a frame, a rule) as an artifact, which a screen reader passes over. */
export function artifact(doc: PDFKit.PDFDocument, draw: () => void): void {
  doc.markContent('Artifact', { type: 'Layout' });
  draw();
  doc.endMarkedContent();
}
