import { ANSWER_TAG_HEADERS, KEY_TAKEAWAY_HEADERS, MAX_KEY_TAKEAWAYS, type ErrorCode } from '@pss/contract';
import type { CaseBody, ImportRowError } from '../../db/schema/index.js';
import { parseCsv, type CsvRow } from '../../lib/csv.js';
import type { ElementsScope } from './elements.repository.js';

/**
 * The checks of an elements upload, row by row, before anything is written: every row
 * names a case of the project (or module) by name; a project may not change elements of a
 * case that came from a module library, nor a module those of a case with custom ones.
 */

export interface ScopeCase {
  id: string;
  name: string;
  origin: 'CUSTOM' | 'MODULE_LIBRARY';
  body: CaseBody;
}

type Checked<T> = { errors: ImportRowError[]; total: number; rows: T[]; caseIds: string[] };

const norm = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

function rowError(line: number, errorCode: ErrorCode, message: string): ImportRowError {
  return { line, errorCode, message: `Line ${line}: ${message}` };
}

function parse(content: Buffer, headers: readonly string[]): { rows: CsvRow[] } | { errors: ImportRowError[] } {
  const parsed = parseCsv(content, headers);
  if (parsed.ok) return { rows: parsed.rows };
  const errorCode: ErrorCode =
    parsed.reason === 'missing-headers' || parsed.reason === 'malformed'
      ? 'CSV_HEADERS_OR_DELIMITER_INVALID'
      : 'IMPORT_VALIDATION_FAILED';
  return { errors: [{ line: 1, errorCode, message: parsed.message }] };
}

/** Finds the case a row names, or says why it cannot be used. */
function caseMatcher(scope: ElementsScope, cases: ScopeCase[], customElements: ReadonlySet<string>) {
  const byName = new Map<string, ScopeCase[]>();
  for (const c of cases) byName.set(norm(c.name), [...(byName.get(norm(c.name)) ?? []), c]);
  return (line: number, name: string): { case: ScopeCase } | { error: ImportRowError } => {
    const found = byName.get(norm(name)) ?? [];
    const where = 'projectId' in scope ? 'this project' : 'this module library';
    if (!name.trim()) return { error: rowError(line, 'FIELD_REQUIRED', 'case_name is required.') };
    if (!found.length) return { error: rowError(line, 'IMPORT_VALIDATION_FAILED', `no case "${name}" in ${where}.`) };
    if (found.length > 1) {
      return { error: rowError(line, 'IMPORT_VALIDATION_FAILED', `${found.length} cases are named "${name}".`) };
    }
    const match = found[0]!;
    if ('projectId' in scope && match.origin === 'MODULE_LIBRARY') {
      return {
        error: rowError(
          line,
          'ELEMENTS_MODULE_LIBRARY_CONFLICT',
          `"${name}" comes from a module library; change its elements there.`,
        ),
      };
    }
    if ('moduleId' in scope && customElements.has(match.id)) {
      return {
        error: rowError(line, 'ELEMENTS_CUSTOM_CONFLICT', `"${name}" has a project's custom elements.`),
      };
    }
    return { case: match };
  };
}

export function checkKeyTakeaways(
  content: Buffer,
  scope: ElementsScope,
  cases: ScopeCase[],
  customElements: ReadonlySet<string>,
): Checked<{ caseId: string; position: number; text: string }> {
  const parsed = parse(content, KEY_TAKEAWAY_HEADERS);
  if ('errors' in parsed) return { errors: parsed.errors, total: 0, rows: [], caseIds: [] };
  const match = caseMatcher(scope, cases, customElements);
  const errors: ImportRowError[] = [];
  const rows: { caseId: string; position: number; text: string }[] = [];
  const perCase = new Map<string, number>();
  for (const { line, values } of parsed.rows) {
    const found = match(line, values.case_name ?? '');
    if ('error' in found) {
      errors.push(found.error);
      continue;
    }
    const text = (values.key_takeaway ?? '').trim();
    if (!text) errors.push(rowError(line, 'BLANK_TEXT', 'key_takeaway is empty.'));
    else if (text.length > 1000)
      errors.push(rowError(line, 'IMPORT_VALIDATION_FAILED', 'key_takeaway is over 1,000 characters.'));
    const position = (perCase.get(found.case.id) ?? 0) + 1;
    perCase.set(found.case.id, position);
    if (position === MAX_KEY_TAKEAWAYS + 1) {
      errors.push(
        rowError(
          line,
          'IMPORT_MAX_DATA_EXCEEDED',
          `"${found.case.name}" would have more than ${MAX_KEY_TAKEAWAYS} key takeaways.`,
        ),
      );
    }
    rows.push({ caseId: found.case.id, position, text });
  }
  return { errors, total: parsed.rows.length, rows, caseIds: [...perCase.keys()] };
}

export function checkAnswerTags(
  content: Buffer,
  scope: ElementsScope,
  cases: ScopeCase[],
  customElements: ReadonlySet<string>,
): Checked<{ caseId: string; questionId: string; choiceId: string; tag: string }> {
  const parsed = parse(content, ANSWER_TAG_HEADERS);
  if ('errors' in parsed) return { errors: parsed.errors, total: 0, rows: [], caseIds: [] };
  const match = caseMatcher(scope, cases, customElements);
  const errors: ImportRowError[] = [];
  const rows: { caseId: string; questionId: string; choiceId: string; tag: string }[] = [];
  const caseIds = new Set<string>();
  for (const { line, values } of parsed.rows) {
    const found = match(line, values.case_name ?? '');
    if ('error' in found) {
      errors.push(found.error);
      continue;
    }
    caseIds.add(found.case.id);
    const question = found.case.body.questions.find((q) => norm(q.text) === norm(values.question ?? ''));
    if (!question) {
      errors.push(
        rowError(line, 'IMPORT_VALIDATION_FAILED', `"${found.case.name}" has no question "${values.question}".`),
      );
      continue;
    }
    const answer = question.choices.find((c) => norm(c.text) === norm(values.answer ?? ''));
    if (!answer) {
      errors.push(rowError(line, 'IMPORT_VALIDATION_FAILED', `the question has no answer "${values.answer}".`));
      continue;
    }
    const tag = (values.tag ?? '').trim();
    if (!tag) errors.push(rowError(line, 'BLANK_TEXT', 'tag is empty.'));
    else if (tag.length > 120) errors.push(rowError(line, 'IMPORT_VALIDATION_FAILED', 'tag is over 120 characters.'));
    else rows.push({ caseId: found.case.id, questionId: question.id, choiceId: answer.id, tag });
  }
  return { errors, total: parsed.rows.length, rows, caseIds: [...caseIds] };
}
