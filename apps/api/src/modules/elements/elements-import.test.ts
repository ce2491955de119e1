import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CaseBody } from '../../db/schema/index.js';
import { checkAnswerTags, checkKeyTakeaways, type ScopeCase } from './elements-import.js';
import type { ElementsScope } from './elements.repository.js';

/* The checks of an elements upload, on files in memory: no database, no job. */

const project: ElementsScope = { projectId: randomUUID() };
const module: ElementsScope = { moduleId: randomUUID() };
const none = new Set<string>();
/** A file as the import job reads it: a stream, opened as often as asked. */
const file = (content: Buffer) => () => Readable.from([content]);
const csv = (...lines: string[]) => file(Buffer.from(lines.join('\n')));

function body(): CaseBody {
  const q = (text: string, choices: string[]) => ({
    id: randomUUID(),
    grouper_id: null,
    type: choices.length ? ('MULTI_ONE' as const) : ('TEXT' as const),
    text,
    text_before: '',
    required: true,
    category_id: null,
    choices: choices.map((c) => ({ id: randomUUID(), text: c, marked_as: null })),
    allow_other: false,
    allow_none_of_below: false,
  });
  return {
    details_sections: [],
    groupers: [],
    questions: [
      q('First test?', ['ECG', 'Chest X-ray']),
      q('Which blood tests?', ['Troponin', 'D-dimer']),
      q('What do you tell the patient?', []),
    ],
  };
}

function scopeCase(name: string, origin: ScopeCase['origin'] = 'CUSTOM'): ScopeCase {
  return { id: randomUUID(), name, origin, body: body() };
}

const chest = scopeCase('Chest pain');
const breath = scopeCase('Breathless');
const copied = scopeCase('From the library', 'MODULE_LIBRARY');
const cases = [chest, breath, copied, scopeCase('Twin'), scopeCase('twin')];

const KT = 'case_name,key_takeaway';
const AT = 'case_name,question,answer,tag';
const takeawayRows = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name},Takeaway ${i + 1}`);

describe('checkKeyTakeaways', () => {
  it('accepts 20 per case, numbering each case’s rows 1..n in file order', async () => {
    const rows = takeawayRows('Chest pain', 20);
    rows.splice(3, 0, 'breathless,Oxygen', ' BREATHLESS ,Spirometry');
    const checked = await checkKeyTakeaways(csv(KT, ...rows), project, cases, none);
    expect(checked.errors).toEqual([]);
    expect(checked.total).toBe(22);
    expect(checked.caseIds).toEqual([chest.id, breath.id]);
    expect(checked.rows.filter((r) => r.caseId === chest.id)).toEqual(
      Array.from({ length: 20 }, (_, i) => ({ caseId: chest.id, position: i + 1, text: `Takeaway ${i + 1}` })),
    );
    expect(checked.rows.filter((r) => r.caseId === breath.id)).toEqual([
      { caseId: breath.id, position: 1, text: 'Oxygen' },
      { caseId: breath.id, position: 2, text: 'Spirometry' },
    ]);
  });

  it('refuses the 21st takeaway of a case, on its own line, whatever rows come between', async () => {
    expect((await checkKeyTakeaways(csv(KT, ...takeawayRows('Chest pain', 21)), project, cases, none)).errors).toEqual([
      {
        line: 22,
        errorCode: 'IMPORT_MAX_DATA_EXCEEDED',
        message: 'Line 22: "Chest pain" would have more than 20 key takeaways.',
      },
    ]);
    const rows = takeawayRows('Chest pain', 21);
    rows.splice(0, 0, 'Breathless,First');
    rows.splice(10, 0, 'Breathless,Second');
    const checked = await checkKeyTakeaways(csv(KT, ...rows), project, cases, none);
    expect(checked.errors.map((e) => [e.line, e.errorCode])).toEqual([[24, 'IMPORT_MAX_DATA_EXCEEDED']]);
  });

  it('refuses, in a project, a case that came from a module library', async () => {
    const checked = await checkKeyTakeaways(csv(KT, 'Chest pain,Fine', 'from the library,No'), project, cases, none);
    expect(checked.errors).toEqual([
      {
        line: 3,
        errorCode: 'ELEMENTS_MODULE_LIBRARY_CONFLICT',
        message: 'Line 3: "from the library" comes from a module library; change its elements there.',
      },
    ]);
  });

  it('refuses, in a module, a case holding custom elements; the other cases are fine', async () => {
    const moduleCases = [scopeCase('Library case', 'MODULE_LIBRARY'), scopeCase('Moved case', 'MODULE_LIBRARY')];
    const custom = new Set([moduleCases[1]!.id]);
    const file = csv(KT, 'Library case,One', 'Moved case,Two');
    const checked = await checkKeyTakeaways(file, module, moduleCases, custom);
    expect(checked.errors).toEqual([
      {
        line: 3,
        errorCode: 'ELEMENTS_CUSTOM_CONFLICT',
        message: 'Line 3: "Moved case" has a project\'s custom elements.',
      },
    ]);
    // Without custom elements both are the module's; a module may name cases of any origin.
    expect((await checkKeyTakeaways(file, module, moduleCases, none)).errors).toEqual([]);
  });

  it.each([
    ['an unknown case', 'Nobody,Text', 'IMPORT_VALIDATION_FAILED'],
    ['a name two cases share (in any case)', 'TWIN,Text', 'IMPORT_VALIDATION_FAILED'],
    ['a blank case name', ' ,Text', 'FIELD_REQUIRED'],
    ['a blank takeaway', 'Chest pain,   ', 'BLANK_TEXT'],
    ['a takeaway over 1,000 characters', `Chest pain,${'x'.repeat(1001)}`, 'IMPORT_VALIDATION_FAILED'],
  ])('lists %s with its line', async (_label, row, errorCode) => {
    const checked = await checkKeyTakeaways(csv(KT, 'Breathless,Fine', row), project, cases, none);
    expect(checked.errors).toEqual([{ line: 3, errorCode, message: expect.stringMatching(/^Line 3: /) }]);
    expect(checked.total).toBe(2);
  });

  it('accepts a takeaway of exactly 1,000 characters', async () => {
    expect((await checkKeyTakeaways(csv(KT, `Chest pain,${'x'.repeat(1000)}`), project, cases, none)).errors).toEqual(
      [],
    );
  });

  it.each([
    ['a missing column', csv('case_name,takeaway', 'Chest pain,Text'), 'CSV_HEADERS_OR_DELIMITER_INVALID'],
    ['no header row', csv('Chest pain,Text'), 'CSV_HEADERS_OR_DELIMITER_INVALID'],
    ['a header without rows', csv(KT), 'IMPORT_VALIDATION_FAILED'],
    ['an empty file', file(Buffer.alloc(0)), 'IMPORT_VALIDATION_FAILED'],
  ])('refuses %s on line 1', async (_label, content, errorCode) => {
    const checked = await checkKeyTakeaways(content, project, cases, none);
    expect(checked).toMatchObject({ total: 0, rows: [], caseIds: [] });
    expect(checked.errors).toMatchObject([{ line: 1, errorCode }]);
  });

  it('refuses a file with an unclosed quote as malformed', async () => {
    const checked = await checkKeyTakeaways(csv(KT, 'Chest pain,"Text'), project, cases, none);
    expect(checked.errors.map((e) => e.errorCode)).toEqual(['CSV_HEADERS_OR_DELIMITER_INVALID']);
    expect(checked.rows).toEqual([]);
  });

  it('reads a BOM, semicolons and CRLF', async () => {
    const checked = await checkKeyTakeaways(
      file(Buffer.from('\uFEFFKey_Takeaway;Case_Name\r\n"One; two";Chest pain\r\n')),
      project,
      cases,
      none,
    );
    expect(checked.errors).toEqual([]);
    expect(checked.rows).toEqual([{ caseId: chest.id, position: 1, text: 'One; two' }]);
  });
});

describe('checkAnswerTags', () => {
  const [firstTest, bloodTests] = chest.body.questions;

  it('matches question and answer text regardless of case and spacing', async () => {
    const checked = await checkAnswerTags(
      csv(AT, 'chest PAIN,  first   TEST? ,ecg,Cardiac', 'Chest pain,Which blood tests?,D-DIMER, Thrombosis '),
      project,
      cases,
      none,
    );
    expect(checked.errors).toEqual([]);
    expect(checked.total).toBe(2);
    expect(checked.caseIds).toEqual([chest.id]);
    expect(checked.rows).toEqual([
      { caseId: chest.id, questionId: firstTest!.id, choiceId: firstTest!.choices[0]!.id, tag: 'Cardiac' },
      { caseId: chest.id, questionId: bloodTests!.id, choiceId: bloodTests!.choices[1]!.id, tag: 'Thrombosis' },
    ]);
  });

  it.each([
    ['an unknown question', 'Chest pain,Which imaging?,ECG,Cardiac', 'IMPORT_VALIDATION_FAILED'],
    ['an unknown answer', 'Chest pain,First test?,MRI,Cardiac', 'IMPORT_VALIDATION_FAILED'],
    ["another question's answer", 'Chest pain,First test?,Troponin,Cardiac', 'IMPORT_VALIDATION_FAILED'],
    ['a question without choices', 'Chest pain,What do you tell the patient?,Rest,Advice', 'IMPORT_VALIDATION_FAILED'],
    ['an unknown case', 'Nobody,First test?,ECG,Cardiac', 'IMPORT_VALIDATION_FAILED'],
    ['a blank tag', 'Chest pain,First test?,ECG, ', 'BLANK_TEXT'],
    ['a tag over 120 characters', `Chest pain,First test?,ECG,${'t'.repeat(121)}`, 'IMPORT_VALIDATION_FAILED'],
    ['a module library case', 'From the library,First test?,ECG,Cardiac', 'ELEMENTS_MODULE_LIBRARY_CONFLICT'],
  ])('lists %s with its line', async (_label, row, errorCode) => {
    const checked = await checkAnswerTags(csv(AT, 'Breathless,First test?,ECG,Fine', row), project, cases, none);
    expect(checked.errors).toEqual([{ line: 3, errorCode, message: expect.stringMatching(/^Line 3: /) }]);
  });

  it('refuses, in a module, a case holding custom elements', async () => {
    const moved = scopeCase('Moved case', 'MODULE_LIBRARY');
    const checked = await checkAnswerTags(
      csv(AT, 'Moved case,First test?,ECG,Cardiac'),
      module,
      [moved],
      new Set([moved.id]),
    );
    expect(checked.errors).toMatchObject([{ line: 2, errorCode: 'ELEMENTS_CUSTOM_CONFLICT' }]);
    expect(
      (await checkAnswerTags(csv(AT, 'Moved case,First test?,ECG,Cardiac'), module, [moved], none)).errors,
    ).toEqual([]);
  });

  it('refuses a file without the answer column on line 1', async () => {
    const checked = await checkAnswerTags(
      csv('case_name,question,tag', 'Chest pain,First test?,X'),
      project,
      cases,
      none,
    );
    expect(checked.errors).toMatchObject([{ line: 1, errorCode: 'CSV_HEADERS_OR_DELIMITER_INVALID' }]);
  });
});
