/**
 * A small, dependency-free RTF reader: enough of RTF 1.9 to get the plain text out of files
 * written by Word, WordPad, TextEdit and LibreOffice (`rtf-tokenizer.ts`), and to fill a
 * patient case from it (here).
 */

import { rtfPlainTextFields, rtfRichTextFields, type RtfCaseFields, type RtfTextField } from '@pss/contract';
import { rtfToParagraphs } from './rtf-tokenizer.js';
import { escapeHtml } from './html.js';

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
