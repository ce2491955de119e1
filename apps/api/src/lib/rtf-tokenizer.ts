/**
 * The tokenizer of the RTF reader (`rtf.ts` maps its paragraphs to case fields): a small,
 * dependency-free reader of enough of RTF 1.9 to get the plain text out of files written by
 * Word, WordPad, TextEdit and LibreOffice.
 *
 * Work is linear in the input size and groups are tracked with an explicit stack, so deeply
 * nested or malformed input (unbalanced braces, truncated escapes) cannot throw or blow the
 * call stack; whatever was read up to that point is returned.
 */

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
