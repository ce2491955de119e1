/**
 * A small, dependency-free RTF reader: enough of RTF 1.9 to get the plain text out of files
 * written by Word, WordPad, TextEdit and LibreOffice, and to fill a patient case from it.
 *
 * Work is linear in the input size and groups are tracked with an explicit stack, so deeply
 * nested or malformed input (unbalanced braces, truncated escapes) cannot throw or blow the
 * call stack; whatever was read up to that point is returned.
 */

import { rtfPlainTextFields, rtfRichTextFields, type RtfCaseFields, type RtfTextField } from '@pss/contract';

/**
 * True when the bytes look like an RTF document: `{\rtf` after an optional UTF-8 BOM and
 * optional whitespace. Judged by content only, never by file name.
 */
export function isRtf(bytes: Uint8Array): boolean {
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (i < bytes.length && isWhitespaceByte(bytes[i]!)) i++;
  const magic = '{\\rtf';
  if (bytes.length - i < magic.length) return false;
  for (let k = 0; k < magic.length; k++) {
    if (bytes[i + k] !== magic.charCodeAt(k)) return false;
  }
  return true;
}

function isWhitespaceByte(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0x0c;
}

/** Windows-1252 characters for bytes 0x80–0x9F (0 = undefined in the code page, dropped). */
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/** The character of one Windows-1252 byte; '' for bytes that are not text. */
function cp1252(byte: number): string {
  if (byte === 0x09) return ' ';
  if (byte < 0x20 || byte === 0x7f) return '';
  if (byte >= 0x80 && byte <= 0x9f) {
    const code = CP1252_HIGH[byte - 0x80]!;
    return code ? String.fromCharCode(code) : '';
  }
  return String.fromCharCode(byte);
}

/**
 * Groups whose whole content is not document text. Any group containing one of these words
 * (normally as its first word) is skipped, as is any `{\*\…}` destination.
 */
const SKIPPED_GROUPS = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'footnote',
  'listtable',
  'listoverridetable',
  'generator',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'xmlnstbl',
  'rsidtbl',
  'revtbl',
  'filetbl',
  'fldinst',
  'objdata',
  'nonshppict',
  'xe',
  'tc',
]);

/** Control words that stand for one character. */
const CHARACTER_WORDS: Record<string, string> = {
  tab: ' ',
  cell: ' ',
  nestcell: ' ',
  line: ' ',
  emspace: ' ',
  enspace: ' ',
  qmspace: ' ',
  emdash: '\u2014',
  endash: '\u2013',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201C',
  rdblquote: '\u201D',
};

/** Control words that end a paragraph. */
const BREAK_WORDS = new Set(['par', 'sect', 'page', 'row', 'nestrow']);

interface GroupState {
  /** Inside a destination whose text is not document text. */
  skip: boolean;
  /** `\ucN`: how many fallback characters follow each `\uN`. */
  uc: number;
  /** Hidden text (`\v`). */
  hidden: boolean;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/**
 * The plain-text paragraphs of an RTF document, in order: each one trimmed, runs of spaces
 * collapsed to one, empty paragraphs dropped.
 *
 * - `\par` (also `\sect`, `\page`, `\row`, and a backslash before a line end, as TextEdit
 *   writes) ends a paragraph.
 * - `\line` (a manual line break, Shift+Enter in Word) does NOT end the paragraph: it becomes a
 *   space, so the line stays part of the same paragraph. `\tab` and `\cell` also become a space.
 * - `\'hh` is read as Windows-1252, as are raw 8-bit characters U+0080–U+009F (so the bytes may
 *   be decoded as latin1 before calling this). `\uN` is Unicode (negative N means N+65536),
 *   followed by `\ucN` fallback characters (default 1) that are skipped.
 * - `{\*\…}` destinations and non-text groups (font/colour tables, style sheet, info, pictures,
 *   headers, footers, footnotes, list tables, field instructions…) and hidden text are skipped.
 * - Reading stops when the outermost group closes; an unclosed group simply ends the text.
 *
 * The string is expected to hold one character per byte of the file (latin1) or to be UTF-8
 * decoded; RTF itself is 7-bit, so both work for files from word processors.
 */
export function rtfToParagraphs(rtf: string): string[] {
  const n = rtf.length;
  const paragraphs: string[] = [];
  const stack: GroupState[] = [];
  let state: GroupState = { skip: false, uc: 1, hidden: false };
  let current = '';
  let fallbackToSkip = 0;
  let i = rtf.charCodeAt(0) === 0xfeff ? 1 : 0;

  const emit = (text: string) => {
    if (!state.skip && !state.hidden) current += text;
  };
  const endParagraph = () => {
    if (state.skip) return;
    paragraphs.push(current);
    current = '';
  };

  while (i < n) {
    const c = rtf.charCodeAt(i);

    if (c === 0x7b /* { */) {
      fallbackToSkip = 0;
      stack.push(state);
      state = { ...state };
      i++;
      continue;
    }

    if (c === 0x7d /* } */) {
      fallbackToSkip = 0;
      i++;
      const outer = stack.pop();
      if (outer === undefined) continue; // stray brace before the document started
      state = outer;
      if (stack.length === 0) break; // the outermost group is closed: end of document
      continue;
    }

    if (c === 0x0d || c === 0x0a) {
      i++; // line ends in the source are not text
      continue;
    }

    if (c !== 0x5c /* \ */) {
      i++;
      if (fallbackToSkip > 0) {
        fallbackToSkip--;
        continue;
      }
      if (c === 0x09) emit(' ');
      else if (c >= 0x80 && c <= 0x9f) emit(cp1252(c));
      else if (c >= 0x20 && c !== 0x7f) emit(rtf[i - 1]!);
      continue;
    }

    // A backslash: control word, control symbol or escape.
    if (i + 1 >= n) break;
    const next = rtf.charCodeAt(i + 1);

    if (isLetter(next)) {
      let j = i + 1;
      while (j < n && isLetter(rtf.charCodeAt(j))) j++;
      const word = rtf.slice(i + 1, j);
      let param: number | null = null;
      let k = j;
      const negative = rtf.charCodeAt(k) === 0x2d /* - */ && isDigit(rtf.charCodeAt(k + 1));
      if (negative) k++;
      const digitsStart = k;
      while (k < n && isDigit(rtf.charCodeAt(k))) k++;
      if (k > digitsStart) {
        // Parameters are 16/32-bit in practice; longer digit runs are consumed but capped.
        const value = Number(rtf.slice(digitsStart, Math.min(k, digitsStart + 10)));
        param = negative ? -value : value;
      }
      if (rtf.charCodeAt(k) === 0x20) k++; // the delimiting space belongs to the control word
      i = k;

      if (word === 'bin') {
        // Binary data: skip exactly N characters, never text.
        i = Math.min(n, i + Math.max(0, param ?? 0));
        continue;
      }
      if (fallbackToSkip > 0) {
        fallbackToSkip--; // a control word counts as one fallback character
        continue;
      }
      if (SKIPPED_GROUPS.has(word)) {
        state.skip = true;
      } else if (BREAK_WORDS.has(word)) {
        endParagraph();
      } else if (word === 'u') {
        if (param !== null) {
          const code = param < 0 ? param + 65536 : param;
          if (code > 0 && code <= 0x10ffff) emit(String.fromCodePoint(code));
          fallbackToSkip = state.uc;
        }
      } else if (word === 'uc') {
        state.uc = Math.min(Math.max(param ?? 1, 0), 16);
      } else if (word === 'v') {
        state.hidden = param !== 0;
      } else if (word === 'plain') {
        state.hidden = false;
      } else {
        const text = CHARACTER_WORDS[word];
        if (text !== undefined) emit(text);
      }
      continue;
    }

    if (next === 0x27 /* ' */) {
      const hi = hexValue(rtf.charCodeAt(i + 2));
      const lo = hexValue(rtf.charCodeAt(i + 3));
      if (hi < 0 || lo < 0) {
        i += 2; // malformed escape: drop it
        continue;
      }
      i += 4;
      if (fallbackToSkip > 0) fallbackToSkip--;
      else emit(cp1252(hi * 16 + lo));
      continue;
    }

    // Control symbols: a backslash and one non-letter character.
    i += 2;
    if (fallbackToSkip > 0) {
      fallbackToSkip--;
      continue;
    }
    switch (next) {
      case 0x5c: // \\
      case 0x7b: // \{
      case 0x7d: // \}
        emit(rtf[i - 1]!);
        break;
      case 0x7e: // \~ non-breaking space
        emit('\u00A0');
        break;
      case 0x5f: // \_ non-breaking hyphen
        emit('-');
        break;
      case 0x2a: // \* the group is a destination this reader does not know: skip it
        state.skip = true;
        break;
      case 0x0d: // backslash + line end = \par
      case 0x0a:
        endParagraph();
        break;
      case 0x09: // backslash + tab = \tab
        emit(' ');
        break;
      default: // \- optional hyphen, \| \: formula/index marks, and anything unknown
        break;
    }
  }

  if (current) paragraphs.push(current);

  const result: string[] = [];
  for (const raw of paragraphs) {
    const text = raw
      .replace(LONE_SURROGATE, '\uFFFD')
      .replace(/[ \t]+/g, ' ')
      .trim();
    if (text) result.push(text);
  }
  return result;
}

type KnownField = RtfTextField | 'patient_age';

const KNOWN_LABELS: Record<string, KnownField> = {
  'case name': 'name',
  name: 'name',
  'patient name': 'patient_name',
  patient: 'patient_name',
  'patient age': 'patient_age',
  age: 'patient_age',
  'reason for encounter': 'reason_for_encounter',
  'reason for visit': 'reason_for_encounter',
  references: 'references',
  'test results': 'test_results',
  explanation: 'explanation',
};

/** Sentence punctuation: a label containing any of these is text, not a label. */
const SENTENCE_PUNCTUATION = /[.,;!?\u2026"\u201C\u201D]/;

const MAX_LABEL_LENGTH = 60;

function normalizeLabel(label: string): string {
  return label.replace(/\s+/g, ' ').trim().toLowerCase();
}

type LabelMatch = { kind: 'known'; field: KnownField; rest: string } | { kind: 'section'; name: string; rest: string };

/** The label a paragraph starts with, if it is a label line (see {@link caseFieldsFromRtf}). */
function matchLabel(paragraph: string): LabelMatch | null {
  const colon = paragraph.indexOf(':');
  if (colon < 1) return null;
  const label = paragraph.slice(0, colon).replace(/\s+/g, ' ').trim();
  const rest = paragraph.slice(colon + 1).trim();
  if (!label || label.length > MAX_LABEL_LENGTH) return null;
  if (SENTENCE_PUNCTUATION.test(label) || !/\p{L}/u.test(label)) return null;
  const field = KNOWN_LABELS[normalizeLabel(label)];
  if (field) return { kind: 'known', field, rest };
  // Other labels start a details section only standing alone on their line ("Physical
  // examination:"), so values inside a field ("Hemoglobin: 12 g/dL", "Available at: https://…")
  // stay where they are.
  if (rest) return null;
  return { kind: 'section', name: label, rest };
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function toHtml(paragraphs: readonly string[]): string {
  return paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('');
}

/** The first whole number of one to three digits between 0 and 130 in the text. */
function firstAge(paragraphs: readonly string[]): number | undefined {
  for (const p of paragraphs) {
    for (const match of p.matchAll(/(?<!\d)\d{1,3}(?!\d)/g)) {
      const value = Number(match[0]);
      if (value <= 130) return value;
    }
  }
  return undefined;
}

/**
 * Fills patient-case fields from an RTF document.
 *
 * Rule (also in the user documentation):
 * - The document is read paragraph by paragraph, in order.
 * - A paragraph of the form `Label: rest` starts a field. The label is the text before the first
 *   colon: 1–60 characters, at least one letter, and no sentence punctuation (`. , ; ! ? …` or
 *   double quotes).
 * - Known labels, matched case-insensitively and ignoring surrounding (and repeated) spaces:
 *   - `Case name` or `Name` → case name (plain text)
 *   - `Patient name` or `Patient` → patient name (plain text)
 *   - `Patient age` or `Age` → patient age: the first whole number from 0 to 130 found; otherwise
 *     the age is left empty
 *   - `Reason for encounter` or `Reason for visit` → reason for encounter
 *   - `References` → references
 *   - `Test results` → test results
 *   - `Explanation` → explanation
 * - Any other label starts a details section named by the label when it stands alone on its
 *   line (`Physical examination:`); with text after the colon it is ordinary text of the
 *   current field (so "Hemoglobin: 12 g/dL" stays in the test results).
 * - The rest of the label line and every following paragraph up to the next label belong to
 *   that field.
 * - Paragraphs before the first label go into a details section named "Background".
 * - Reason for encounter, references, test results, explanation and details sections become
 *   HTML: one `<p>` per paragraph, with the text escaped (no markup from the file is kept).
 *   Case name and patient name are plain text, paragraphs joined with a space.
 * - A label used twice adds to the same field (details sections: same name, ignoring case).
 * - Fields and details sections with no text are left out.
 */
export function caseFieldsFromRtf(rtf: string): RtfCaseFields {
  const known = new Map<KnownField, string[]>();
  const sections: { name: string; paragraphs: string[] }[] = [];
  const sectionByKey = new Map<string, { name: string; paragraphs: string[] }>();

  const sectionTarget = (name: string): string[] => {
    const key = normalizeLabel(name);
    let section = sectionByKey.get(key);
    if (!section) {
      section = { name, paragraphs: [] };
      sectionByKey.set(key, section);
      sections.push(section);
    }
    return section.paragraphs;
  };
  const knownTarget = (field: KnownField): string[] => {
    let list = known.get(field);
    if (!list) {
      list = [];
      known.set(field, list);
    }
    return list;
  };

  let target: string[] | null = null;
  for (const paragraph of rtfToParagraphs(rtf)) {
    const label = matchLabel(paragraph);
    if (label) {
      target = label.kind === 'known' ? knownTarget(label.field) : sectionTarget(label.name);
      if (label.rest) target.push(label.rest);
      continue;
    }
    target ??= sectionTarget('Background');
    target.push(paragraph);
  }

  const fields: RtfCaseFields = { details_sections: [] };
  for (const field of rtfPlainTextFields) {
    const text = (known.get(field) ?? []).join(' ').trim();
    if (text) fields[field] = text;
  }
  const age = firstAge(known.get('patient_age') ?? []);
  if (age !== undefined) fields.patient_age = age;
  for (const field of rtfRichTextFields) {
    const paragraphs = known.get(field) ?? [];
    if (paragraphs.length) fields[field] = toHtml(paragraphs);
  }
  for (const section of sections) {
    if (section.paragraphs.length)
      fields.details_sections.push({ name: section.name, text: toHtml(section.paragraphs) });
  }
  return fields;
}
