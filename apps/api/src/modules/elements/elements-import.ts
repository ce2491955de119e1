import type { Readable } from 'node:stream';
import { ANSWER_TAG_HEADERS, KEY_TAKEAWAY_HEADERS, MAX_KEY_TAKEAWAYS, type ErrorCode } from '@pss/contract';
import type { CaseBody, ImportRowError } from '../../db/schema/index.js';
import { readCsvRows } from '../imports/imports.service.js';
import type { ElementsScope } from './elements.repository.js';

/**
 * The checks of an elements upload, row by row, before anything is written: every row
 * names a case of the project (or module) by name; a project may not change elements of a
 * case that came from a module library, nor a module those of a case with custom ones.
 * The file is streamed; rejected rows are all counted and the first 500 listed, and
 * once one is found no more rows are kept (nothing will be written).
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

export async function checkKeyTakeaways(
  openStream: () => Readable,
  scope: ElementsScope,
  cases: ScopeCase[],
  customElements: ReadonlySet<string>,
): Promise<Checked<{ caseId: string; position: number; text: string }>> {
  const match = caseMatcher(scope, cases, customElements);
  const rows: { caseId: string; position: number; text: string }[] = [];
  const perCase = new Map<string, number>();
  const read = await readCsvRows(openStream, KEY_TAKEAWAY_HEADERS, (row, csv, errors) => {
    const { line } = row;
    const found = match(line, csv.value(row, 'case_name'));
    if ('error' in found) {
      errors.add(found.error);
      return;
    }
    const text = csv.value(row, 'key_takeaway');
    if (!text) errors.add(rowError(line, 'BLANK_TEXT', 'key_takeaway is empty.'));
    else if (text.length > 1000)
      errors.add(rowError(line, 'IMPORT_VALIDATION_FAILED', 'key_takeaway is over 1,000 characters.'));
    const position = (perCase.get(found.case.id) ?? 0) + 1;
    perCase.set(found.case.id, position);
    if (position === MAX_KEY_TAKEAWAYS + 1) {
      errors.add(
        rowError(
          line,
          'IMPORT_MAX_DATA_EXCEEDED',
          `"${found.case.name}" would have more than ${MAX_KEY_TAKEAWAYS} key takeaways.`,
        ),
      );
    }
    if (errors.count === 0) rows.push({ caseId: found.case.id, position, text });
  });
  if (read.errors.length) return { ...read, rows: [], caseIds: [] };
  return { ...read, rows, caseIds: [...perCase.keys()] };
}

export async function checkAnswerTags(
  openStream: () => Readable,
  scope: ElementsScope,
  cases: ScopeCase[],
  customElements: ReadonlySet<string>,
): Promise<Checked<{ caseId: string; questionId: string; choiceId: string; tag: string }>> {
  const match = caseMatcher(scope, cases, customElements);
  const rows: { caseId: string; questionId: string; choiceId: string; tag: string }[] = [];
  const caseIds = new Set<string>();
  const read = await readCsvRows(openStream, ANSWER_TAG_HEADERS, (row, csv, errors) => {
    const { line } = row;
    const found = match(line, csv.value(row, 'case_name'));
    if ('error' in found) {
      errors.add(found.error);
      return;
    }
    caseIds.add(found.case.id);
    const questionText = csv.value(row, 'question');
    const question = found.case.body.questions.find((q) => norm(q.text) === norm(questionText));
    if (!question) {
      errors.add(rowError(line, 'IMPORT_VALIDATION_FAILED', `"${found.case.name}" has no question "${questionText}".`));
      return;
    }
    const answerText = csv.value(row, 'answer');
    const answer = question.choices.find((c) => norm(c.text) === norm(answerText));
    if (!answer) {
      errors.add(rowError(line, 'IMPORT_VALIDATION_FAILED', `the question has no answer "${answerText}".`));
      return;
    }
    const tag = csv.value(row, 'tag');
    if (!tag) errors.add(rowError(line, 'BLANK_TEXT', 'tag is empty.'));
    else if (tag.length > 120) errors.add(rowError(line, 'IMPORT_VALIDATION_FAILED', 'tag is over 120 characters.'));
    else if (errors.count === 0)
      rows.push({ caseId: found.case.id, questionId: question.id, choiceId: answer.id, tag });
  });
  if (read.errors.length) return { ...read, rows: [], caseIds: [] };
  return { ...read, rows, caseIds: [...caseIds] };
}
