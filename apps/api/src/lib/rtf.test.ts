import { describe, expect, it } from 'vitest';
import { caseFieldsFromRtf, isRtf } from './rtf.js';
import { rtfToParagraphs } from './rtf-tokenizer.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** What WordPad (RichEdit 10) writes, trimmed to the interesting parts. */
const WORDPAD = [
  '{\\rtf1\\ansi\\ansicpg1252\\deff0\\nouicompat\\deflang1033{\\fonttbl{\\f0\\fnil\\fcharset0 Calibri;}{\\f1\\fnil\\fcharset2 Symbol;}}',
  '{\\colortbl ;\\red255\\green0\\blue0;\\red0\\green77\\blue187;}',
  '{\\*\\generator Riched20 10.0.19041}\\viewkind4\\uc1 ',
  "\\pard\\sa200\\sl276\\slmult1\\f0\\fs22\\lang9 Case name: Chest pain in a caf\\'e9 owner\\par",
  "Patient: Ren\\'e9e Dupont\\par",
  'Age: 54 years\\par',
  "Reason for visit: \\cf1\\b Crushing\\cf0\\b0  chest pain, the patient\\u8217?s \\'93worst ever\\'94.\\par",
  '\\pard\\sa200\\sl276\\slmult1 She said it started at 10:30 after climbing stairs.\\par',
  '}',
  '',
].join('\r\n');

describe('isRtf', () => {
  it('accepts RTF content, with or without a BOM and leading whitespace', () => {
    expect(isRtf(bytes('{\\rtf1\\ansi Hello}'))).toBe(true);
    expect(isRtf(bytes('\uFEFF{\\rtf1 Hello}'))).toBe(true);
    expect(isRtf(bytes(' \r\n\t{\\rtf1 Hello}'))).toBe(true);
    expect(isRtf(bytes(WORDPAD))).toBe(true);
  });

  it('rejects other content', () => {
    expect(isRtf(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]))).toBe(false);
    expect(isRtf(new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00]))).toBe(false);
    expect(isRtf(bytes('Case name: not RTF {\\rtf1}'))).toBe(false);
    expect(isRtf(bytes('{\\rt'))).toBe(false);
    expect(isRtf(bytes('{\\RTF1 x}'))).toBe(false);
    expect(isRtf(new Uint8Array())).toBe(false);
  });
});

describe('rtfToParagraphs', () => {
  it('reads a WordPad file: tables skipped, accents, curly quotes, formatting ignored', () => {
    expect(rtfToParagraphs(WORDPAD)).toEqual([
      'Case name: Chest pain in a café owner',
      'Patient: Renée Dupont',
      'Age: 54 years',
      'Reason for visit: Crushing chest pain, the patient\u2019s \u201Cworst ever\u201D.',
      'She said it started at 10:30 after climbing stairs.',
    ]);
  });

  it('reads a TextEdit file, where a backslash before a line end is a paragraph break', () => {
    const rtf =
      '{\\rtf1\\ansi\\ansicpg1252\\cocoartf2639\n\\cocoatextscaling0\\cocoaplatform0{\\fonttbl\\f0\\fswiss\\fcharset0 Helvetica;}\n' +
      '{\\colortbl;\\red255\\green255\\blue255;}\n{\\*\\expandedcolortbl;;}\n' +
      '\\paperw11900\\paperh16840\\margl1440\\margr1440\\vieww11520\\viewh8400\\viewkind0\n' +
      "\\pard\\tx566\\tx1133\\pardirnatural\\partightenfactor0\n\n\\f0\\fs24 \\cf0 First line\\\nSecond \\'e0 line}";
    expect(rtfToParagraphs(rtf)).toEqual(['First line', 'Second à line']);
  });

  it('handles \\ucN fallback counts, per group', () => {
    expect(rtfToParagraphs('{\\rtf1 a\\u233?b}')).toEqual(['aéb']);
    expect(rtfToParagraphs('{\\rtf1\\uc2 a\\u233??b}')).toEqual(['aéb']);
    expect(rtfToParagraphs('{\\rtf1\\uc0 a\\u233 b}')).toEqual(['aéb']);
    // A hex escape counts as one fallback character; negative values wrap around.
    expect(rtfToParagraphs("{\\rtf1 \\u-3913\\'3fx}")).toEqual(['\uF0B7x']);
    // \uc is scoped to its group.
    expect(rtfToParagraphs('{\\rtf1 {\\uc3 \\u8364 EUR}\\u8364?!}')).toEqual(['\u20AC\u20AC!']);
    // Surrogate pairs (emoji) as Word writes them; a group end stops the fallback skipping.
    expect(rtfToParagraphs('{\\rtf1 {\\u-10179?\\u-8704?}ok}')).toEqual(['\u{1F600}ok']);
  });

  it('handles escaped braces and backslashes, special characters and control symbols', () => {
    const rtf =
      '{\\rtf1 \\{x\\} a\\\\b\\tab c\\~d co\\-operate well\\_known\\line next \\emdash \\endash \\bullet ' +
      '\\lquote q\\rquote  \\ldblquote dq\\rdblquote}';
    expect(rtfToParagraphs(rtf)).toEqual([
      '{x} a\\b c\u00A0d cooperate well-known next \u2014\u2013\u2022\u2018q\u2019 \u201Cdq\u201D',
    ]);
  });

  it('reads the numeric parameter and one delimiting space of control words', () => {
    expect(rtfToParagraphs('{\\rtf1\\fs24  two spaces\\b0x\\li-720 y\\b1  z\\f0-1}')).toEqual(['two spacesxy z-1']);
  });

  it('skips \\* destinations and non-text groups', () => {
    const rtf =
      '{\\rtf1{\\info{\\title Secret title}{\\author Dr X}}{\\stylesheet{\\s0 Normal;}}' +
      '{\\*\\themedata 0123abcd}{\\*\\unknowndest hidden {\\nested hidden too}}' +
      '{\\header \\pard Page header\\par}{\\footer Footer}{\\pict\\pngblip 89504e47}' +
      "{\\*\\listtable{\\list{\\listlevel{\\leveltext \\'01\\u-3913 ?;}}}}" +
      'Visible {\\field{\\*\\fldinst HYPERLINK "https://x.test"}{\\fldrslt link}} text{\\v hidden}\\par' +
      '{\\*\\bkmkstart b}after\\bin4 {}\\xtail\\par}';
    expect(rtfToParagraphs(rtf)).toEqual(['Visible link text', 'aftertail']);
  });

  it('ignores line ends in the source and stops at the end of the document', () => {
    expect(rtfToParagraphs('{\\rtf1 one\r\ntwo\\par\nthree\r\n}\r\ntrailing garbage')).toEqual(['onetwo', 'three']);
  });

  it('reads Windows-1252 hex escapes and raw 8-bit characters', () => {
    expect(rtfToParagraphs("{\\rtf1 \\'80 \\'85 \\'96\\'97 \\'e7\\'f1 \\'E9}")).toEqual(['€ … –— çñ é']);
    expect(rtfToParagraphs('{\\rtf1 \u0093q\u0094 caf\u00e9}')).toEqual(['\u201Cq\u201D café']);
  });

  it('does not throw on unbalanced braces or truncated input, and keeps what was read', () => {
    expect(rtfToParagraphs('{\\rtf1 {\\b Hello\\par world')).toEqual(['Hello', 'world']);
    expect(rtfToParagraphs('{\\rtf1 a}}} b')).toEqual(['a']);
    expect(rtfToParagraphs('}}{\\rtf1 x}')).toEqual(['x']);
    expect(rtfToParagraphs("{\\rtf1 end\\'e")).toEqual(['ende']);
    expect(rtfToParagraphs('{\\rtf1 end\\')).toEqual(['end']);
    expect(rtfToParagraphs('{\\rtf1 big\\u99999999999999999999 ? x\\bin99999999 lost}')).toEqual(['big x']);
    expect(rtfToParagraphs('')).toEqual([]);
  });

  it('handles 5,000 (and 200,000) levels of nesting without recursion', () => {
    const deep = (levels: number) => '{\\rtf1 ' + '{\\b '.repeat(levels) + 'deep' + '}'.repeat(levels) + ' end}';
    expect(rtfToParagraphs(deep(5000))).toEqual(['deep end']);
    expect(rtfToParagraphs(deep(200_000))).toEqual(['deep end']);
    // Unclosed, too.
    expect(rtfToParagraphs('{\\rtf1 ' + '{'.repeat(5000) + 'open')).toEqual(['open']);
  });
});

describe('caseFieldsFromRtf', () => {
  const doc = (...paragraphs: string[]) => `{\\rtf1\\ansi ${paragraphs.join('\\par\n')}}`;

  it('fills the case from a WordPad file', () => {
    expect(caseFieldsFromRtf(WORDPAD)).toEqual({
      name: 'Chest pain in a café owner',
      patient_name: 'Renée Dupont',
      patient_age: 54,
      reason_for_encounter:
        '<p>Crushing chest pain, the patient&#39;s \u201Cworst ever\u201D.</p>'.replace('&#39;', '\u2019') +
        '<p>She said it started at 10:30 after climbing stairs.</p>',
      details_sections: [],
    });
  });

  it('reads every known label, unknown labels as details sections, and text before the first label', () => {
    const rtf = doc(
      'Prepared for the cardiology block.',
      '  CASE   NAME :  Syncope ',
      'in the gym',
      'Patient name: Jo Smith',
      'patient age: about 7 or 8 (born 2017)',
      'Reason for encounter: Fainted',
      'twice today',
      'References: Smith J. Syncope. 2020.',
      'Test results:',
      'ECG normal',
      'Troponin < 5 ng/L',
      'Explanation: Vasovagal',
      'Physical examination:',
      'Pale & sweaty',
      'BP 90/60',
      'Hemoglobin: 12 g/dL',
      'Social history:',
      'Plays football',
      'Empty section:',
    );
    expect(caseFieldsFromRtf(rtf)).toEqual({
      name: 'Syncope in the gym',
      patient_name: 'Jo Smith',
      patient_age: 7,
      reason_for_encounter: '<p>Fainted</p><p>twice today</p>',
      references: '<p>Smith J. Syncope. 2020.</p>',
      test_results: '<p>ECG normal</p><p>Troponin &lt; 5 ng/L</p>',
      explanation: '<p>Vasovagal</p>',
      details_sections: [
        { name: 'Background', text: '<p>Prepared for the cardiology block.</p>' },
        {
          name: 'Physical examination',
          text: '<p>Pale &amp; sweaty</p><p>BP 90/60</p><p>Hemoglobin: 12 g/dL</p>',
        },
        { name: 'Social history', text: '<p>Plays football</p>' },
      ],
    });
  });

  it('accepts the alternative labels and ignores ages out of range', () => {
    expect(caseFieldsFromRtf(doc('Name: A', 'Patient: B', 'Age: 250 or 1200', 'Reason for visit: C'))).toEqual({
      name: 'A',
      patient_name: 'B',
      reason_for_encounter: '<p>C</p>',
      details_sections: [],
    });
    expect(caseFieldsFromRtf(doc('Age: newborn', '0 days')).patient_age).toBe(0);
  });

  it('does not take sentences, times or addresses for labels', () => {
    const rtf = doc(
      'Explanation: first',
      'On examination, she had: fever',
      'Seen at 10:30 by the registrar',
      'See https://example.test/page',
      'He said "stop": then left',
    );
    expect(caseFieldsFromRtf(rtf)).toEqual({
      explanation:
        '<p>first</p><p>On examination, she had: fever</p><p>Seen at 10:30 by the registrar</p>' +
        '<p>See https://example.test/page</p><p>He said &quot;stop&quot;: then left</p>',
      details_sections: [],
    });
  });

  it('escapes HTML typed in the document', () => {
    const rtf = doc(
      'Explanation: <script>alert("x")</script>',
      "Tom's <b>bold</b> & \\{braces\\}",
      '<img src=x onerror=alert(1)>:',
      'hi <script>',
    );
    const fields = caseFieldsFromRtf(rtf);
    expect(fields.explanation).toBe(
      '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>' +
        '<p>Tom&#39;s &lt;b&gt;bold&lt;/b&gt; &amp; {braces}</p>',
    );
    expect(fields.explanation).not.toContain('<script');
    // A section name is plain text (escape it when displaying); its text is escaped HTML.
    expect(fields.details_sections).toEqual([
      { name: '<img src=x onerror=alert(1)>', text: '<p>hi &lt;script&gt;</p>' },
    ]);
  });

  it('escapes HTML in details section text and merges repeated labels', () => {
    const fields = caseFieldsFromRtf(doc('Notes:', '<b>one</b>', 'References: R1', 'notes:', 'two', 'References: R2'));
    expect(fields).toEqual({
      references: '<p>R1</p><p>R2</p>',
      details_sections: [{ name: 'Notes', text: '<p>&lt;b&gt;one&lt;/b&gt;</p><p>two</p>' }],
    });
  });

  it('leaves out empty fields and returns an empty result for an empty document', () => {
    expect(caseFieldsFromRtf(doc('Case name:', 'Patient:', 'Explanation:', 'Other:'))).toEqual({
      details_sections: [],
    });
    expect(caseFieldsFromRtf('{\\rtf1}')).toEqual({ details_sections: [] });
    expect(caseFieldsFromRtf('{\\rtf1 {{{ unbalanced')).toEqual({
      details_sections: [{ name: 'Background', text: '<p>unbalanced</p>' }],
    });
  });
});
