import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import type {
  AnswerTag,
  CaseDocument,
  CaseElements,
  CatalogueEntry,
  CreateProjectBody,
  ImportJob,
  KeyTakeaway,
  ModuleBody,
  ModuleLibrary,
  Project,
  UpdateCaseBody,
} from '@pss/contract';
import { answerTags, importJobs } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { multipartFile, projectBody, twoClients, type Headers } from '../../../test/fixtures.js';
import { validCase } from '../../../test/case-bodies.js';

let ctx: TestContext;
let f: Awaited<ReturnType<typeof twoClients>>;

beforeAll(async () => {
  ctx = await createTestContext();
  f = await twoClients(ctx);
});
afterAll(() => ctx.close());

/* ---------- helpers (the case and module ones as in module-library.test.ts) ---------- */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Reply {
  statusCode: number;
  json<T = { errorCode?: string }>(): T;
}

/** Calls the API, as the superadmin unless told otherwise. */
function call(method: Method, url: string, options: { headers?: Headers | object; payload?: object | string } = {}) {
  return ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: { ...(options.headers ?? f.asSuperadmin) },
    payload: options.payload,
  }) as Promise<Reply>;
}

function expectError(response: Reply, status: number, errorCode: string): void {
  expect({ status: response.statusCode, errorCode: response.json().errorCode }).toEqual({ status, errorCode });
}

interface Home {
  id: string;
  diseaseTypeId: string;
  categoryId: string;
}

const entryId = (entries: CatalogueEntry[], name: string) =>
  entries.find((e) => e.name.toLowerCase() === name.toLowerCase())!.id;

async function newProject(clientId: string, overrides: Partial<CreateProjectBody> = {}): Promise<Home> {
  const body = projectBody(clientId, overrides);
  const created = await call('POST', '/projects', { payload: body });
  expect(created.statusCode).toBe(201);
  const project = (await call('GET', `/projects/${created.json<Project>().id}`)).json<Project>();
  return {
    id: project.id,
    diseaseTypeId: entryId(project.disease_types, body.disease_types[0]!),
    categoryId: entryId(project.question_categories, body.question_categories[0]!),
  };
}

let moduleCounter = 0;
async function newModule(overrides: Partial<ModuleBody> = {}): Promise<Home> {
  moduleCounter += 1;
  const body: ModuleBody = {
    name: `Elements module ${moduleCounter}`,
    description: null,
    disease_types: ['Diabetes'],
    question_categories: ['Diagnosis'],
    ...overrides,
  };
  const created = await call('POST', '/module-library', { payload: body });
  expect(created.statusCode).toBe(201);
  const module = created.json<ModuleLibrary>();
  return {
    id: module.id,
    diseaseTypeId: entryId(module.disease_types, body.disease_types[0]!),
    categoryId: entryId(module.question_categories, body.question_categories[0]!),
  };
}

async function createModuleCase(m: Home, overrides: Partial<UpdateCaseBody> = {}): Promise<CaseDocument> {
  const created = await call('POST', '/cases', {
    payload: { module_id: m.id, name: overrides.name ?? 'Chest pain at rest', disease_type_id: m.diseaseTypeId },
  });
  expect(created.statusCode).toBe(201);
  const saved = await call('PUT', `/cases/${created.json<CaseDocument>().id}`, { payload: validCase(m, overrides) });
  expect(saved.statusCode).toBe(200);
  return saved.json<CaseDocument>();
}

/** A client A project case saved whole, by client A's administrator. */
async function createProjectCase(p: Home, overrides: Partial<UpdateCaseBody> = {}): Promise<CaseDocument> {
  const created = await call('POST', '/cases', {
    headers: f.asAdminA,
    payload: { project_id: p.id, name: overrides.name ?? 'Chest pain at rest', disease_type_id: p.diseaseTypeId },
  });
  expect(created.statusCode).toBe(201);
  const saved = await call('PUT', `/cases/${created.json<CaseDocument>().id}`, {
    headers: f.asAdminA,
    payload: validCase(p, overrides),
  });
  expect(saved.statusCode).toBe(200);
  return saved.json<CaseDocument>();
}

const filterQuery = (filter: object) => `filter=${encodeURIComponent(JSON.stringify(filter))}`;

type Where = 'projects' | 'module-library';
type What = 'key-takeaways' | 'answers-tags';
const kindOf = (what: What) => (what === 'key-takeaways' ? 'SUMMARY' : 'ANSWER_TAGS');
/** Projects are read and written by client A's administrator here, module libraries by the superadmin. */
const ownerOf = (where: Where): Headers => (where === 'projects' ? f.asAdminA : f.asSuperadmin);

const KT = 'case_name,key_takeaway';
const AT = 'case_name,question,answer,tag';

function postFile(url: string, content: string | Buffer, headers: Headers | object) {
  const file = multipartFile(content, 'elements.csv');
  return ctx.app.inject({
    method: 'POST',
    url: `/api${url}`,
    headers: { ...headers, ...file.headers },
    payload: file.payload,
  }) as Promise<Reply>;
}

/** Uploads, checks the 202 job, runs it, and answers the latest import of that kind as read back. */
async function importAndRun(where: Where, id: string, what: What, content: string | Buffer): Promise<ImportJob> {
  const queued = await postFile(`/${where}/${id}/${what}`, content, ownerOf(where));
  expect(queued.statusCode).toBe(202);
  expect(queued.json()).toMatchObject({ kind: kindOf(what), state: 'NOT_STARTED', file_name: 'elements.csv' });
  expect(await ctx.app.imports.runPending()).toBe(1);
  const latest = await call('GET', `/${where}/${id}/import?type=${kindOf(what)}`, { headers: ownerOf(where) });
  expect(latest.statusCode).toBe(200);
  const job = latest.json<ImportJob>();
  expect(job.id).toBe(queued.json<ImportJob>().id);
  return job;
}

async function takeaways(where: Where, id: string, caseId?: string): Promise<KeyTakeaway[]> {
  const query = caseId ? `?${filterQuery({ case_id: caseId })}` : '';
  const response = await call('GET', `/${where}/${id}/key-takeaways${query}`, { headers: ownerOf(where) });
  expect(response.statusCode).toBe(200);
  return response.json<{ items: KeyTakeaway[] }>().items;
}

async function tags(where: Where, id: string, caseId?: string): Promise<AnswerTag[]> {
  const query = caseId ? `?${filterQuery({ case_id: caseId })}` : '';
  const response = await call('GET', `/${where}/${id}/answers-tags${query}`, { headers: ownerOf(where) });
  expect(response.statusCode).toBe(200);
  return response.json<{ items: AnswerTag[] }>().items;
}

const jobCount = async () => (await ctx.db.select({ n: count() }).from(importJobs))[0]!.n;
const tagNameCount = async () => (await ctx.db.select({ n: count() }).from(answerTags))[0]!.n;
const brief = (items: KeyTakeaway[]) => items.map((k) => [k.case_name, k.position, k.text, k.origin]);
const tagRows = (items: AnswerTag[]) =>
  items.map((t) => [t.case_name, t.question, t.answer, t.tag, t.origin].join(' | ')).sort((a, b) => a.localeCompare(b));

/* ---------- 1-3. key takeaways of a project ---------- */

describe('key takeaways of a project', () => {
  let p: Home;
  let chest: CaseDocument;
  let breath: CaseDocument;

  beforeAll(async () => {
    p = await newProject(f.clientA.id);
    chest = await createProjectCase(p, { name: 'Chest pain' });
    breath = await createProjectCase(p, { name: 'Breathless' });
    await createProjectCase(p, { name: 'Twin' });
    await createProjectCase(p, { name: 'Twin' });
  });

  it('imports a spreadsheet file (BOM, semicolons, CRLF) as a job and lists the takeaways in file order per case', async () => {
    const file =
      '\uFEFFCase_Name;Key_Takeaway\r\n' +
      'Chest pain;"Rule out ACS; then the rest"\r\n' +
      'breathless;Check oxygen saturation\r\n' +
      '  CHEST PAIN ;Repeat troponin after 3 hours\r\n' +
      'Chest pain;Aspirin unless contraindicated\r\n';
    const job = await importAndRun('projects', p.id, 'key-takeaways', file);
    expect(job).toMatchObject({ kind: 'SUMMARY', state: 'COMPLETE', total_rows: 4, processed_rows: 4, errors: [] });
    expect(job.finished_at).not.toBeNull();

    expect(await takeaways('projects', p.id)).toEqual([
      { case_id: breath.id, case_name: 'Breathless', position: 1, text: 'Check oxygen saturation', origin: 'CUSTOM' },
      {
        case_id: chest.id,
        case_name: 'Chest pain',
        position: 1,
        text: 'Rule out ACS; then the rest',
        origin: 'CUSTOM',
      },
      {
        case_id: chest.id,
        case_name: 'Chest pain',
        position: 2,
        text: 'Repeat troponin after 3 hours',
        origin: 'CUSTOM',
      },
      {
        case_id: chest.id,
        case_name: 'Chest pain',
        position: 3,
        text: 'Aspirin unless contraindicated',
        origin: 'CUSTOM',
      },
    ]);
    expect(brief(await takeaways('projects', p.id, chest.id))).toEqual([
      ['Chest pain', 1, 'Rule out ACS; then the rest', 'CUSTOM'],
      ['Chest pain', 2, 'Repeat troponin after 3 hours', 'CUSTOM'],
      ['Chest pain', 3, 'Aspirin unless contraindicated', 'CUSTOM'],
    ]);
    expect(brief(await takeaways('projects', p.id, breath.id))).toEqual([
      ['Breathless', 1, 'Check oxygen saturation', 'CUSTOM'],
    ]);
    // The job is a SUMMARY import: the participants import of the project is another matter.
    const participantsImport = await call('GET', `/projects/${p.id}/import`, { headers: f.asAdminA });
    expect(participantsImport.statusCode).toBe(200);
    expect(participantsImport.json()).toBeNull();
    const noTags = await call('GET', `/projects/${p.id}/import?type=ANSWER_TAGS`, { headers: f.asAdminA });
    expect(noTags.json()).toBeNull();
    expectError(
      await call('GET', `/projects/${p.id}/key-takeaways?${filterQuery({ case_id: 'nope' })}`, {
        headers: f.asAdminA,
      }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('replaces the list of the cases a second upload names, and leaves the other cases alone', async () => {
    const job = await importAndRun(
      'projects',
      p.id,
      'key-takeaways',
      `${KT}\nChest pain,Only this now\nChest pain,And this\n`,
    );
    expect(job).toMatchObject({ state: 'COMPLETE', total_rows: 2, processed_rows: 2, errors: [] });
    expect(brief(await takeaways('projects', p.id))).toEqual([
      ['Breathless', 1, 'Check oxygen saturation', 'CUSTOM'],
      ['Chest pain', 1, 'Only this now', 'CUSTOM'],
      ['Chest pain', 2, 'And this', 'CUSTOM'],
    ]);
  });

  it('refuses 21 takeaways for one case on line 22, changing nothing, and accepts 20', async () => {
    const before = await takeaways('projects', p.id);
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `Chest pain,Takeaway ${i + 1}`);

    const tooMany = await importAndRun('projects', p.id, 'key-takeaways', [KT, ...rows(21)].join('\n'));
    expect(tooMany).toMatchObject({ state: 'ERROR', total_rows: 21, processed_rows: 0 });
    expect(tooMany.errors).toEqual([
      {
        line: 22,
        errorCode: 'IMPORT_MAX_DATA_EXCEEDED',
        message: 'Line 22: "Chest pain" would have more than 20 key takeaways.',
      },
    ]);
    expect(await takeaways('projects', p.id)).toEqual(before);

    const twenty = await importAndRun('projects', p.id, 'key-takeaways', [KT, ...rows(20)].join('\n'));
    expect(twenty).toMatchObject({ state: 'COMPLETE', total_rows: 20, processed_rows: 20, errors: [] });
    const chestList = await takeaways('projects', p.id, chest.id);
    expect(chestList.map((k) => k.position)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(chestList.map((k) => k.text)).toEqual(Array.from({ length: 20 }, (_, i) => `Takeaway ${i + 1}`));
    expect(brief(await takeaways('projects', p.id, breath.id))).toEqual([
      ['Breathless', 1, 'Check oxygen saturation', 'CUSTOM'],
    ]);
  });

  it.each([
    ['an unknown case name', `${KT}\nChest pain,Fine\nNo such case,Lost\n`, 3, 'IMPORT_VALIDATION_FAILED'],
    ['a blank takeaway', `${KT}\nChest pain,   \n`, 2, 'BLANK_TEXT'],
    ['a blank case name', `${KT}\n,Whose is this?\n`, 2, 'FIELD_REQUIRED'],
    ['a missing key_takeaway column', 'case_name,takeaway\nChest pain,Text\n', 1, 'CSV_HEADERS_OR_DELIMITER_INVALID'],
    ['no header row', 'Chest pain,Text\nBreathless,Other\n', 1, 'CSV_HEADERS_OR_DELIMITER_INVALID'],
    ['a tab-separated file', 'case_name\tkey_takeaway\nChest pain\tText\n', 1, 'CSV_HEADERS_OR_DELIMITER_INVALID'],
    ['a name two cases share', `${KT}\nChest pain,Fine\nTWIN,Which one?\n`, 3, 'IMPORT_VALIDATION_FAILED'],
    [
      'one bad row among good ones (a blank line keeps its number)',
      `${KT}\nChest pain,New 1\nBreathless,New 2\n\nChest pain,\nBreathless,New 3\n`,
      5,
      'BLANK_TEXT',
    ],
  ])('refuses %s: job ERROR, that row listed, nothing written', async (_label, content, line, errorCode) => {
    const before = await takeaways('projects', p.id);
    const job = await importAndRun('projects', p.id, 'key-takeaways', content);
    expect(job).toMatchObject({ kind: 'SUMMARY', state: 'ERROR', processed_rows: 0 });
    expect(job.errors).toHaveLength(1);
    expect(job.errors[0]).toMatchObject({ line, errorCode });
    if (line > 1) expect(job.errors[0]!.message).toMatch(new RegExp(`^Line ${line}: `));
    expect(await takeaways('projects', p.id)).toEqual(before);
  });
});

/* ---------- 4. answer tags of a project ---------- */

describe('answer tags of a project', () => {
  let p: Home;
  let chest: CaseDocument;
  let breath: CaseDocument;

  beforeAll(async () => {
    p = await newProject(f.clientA.id);
    chest = await createProjectCase(p, { name: 'Chest pain' });
    breath = await createProjectCase(p, { name: 'Breathless' });
  });

  it('imports tags, matching question and answer text regardless of case and spacing, and lists them', async () => {
    const file =
      `${AT}\n` +
      'Chest pain,FIRST TEST?,ecg,Cardiac\n' +
      'chest pain,  which   blood tests? ,TROPONIN,Cardiac\n' +
      'Chest pain,Which blood tests?,D-dimer,Thrombosis\n' +
      'Breathless,Disposition,admit to cardiology,Admission\n';
    const job = await importAndRun('projects', p.id, 'answers-tags', file);
    expect(job).toMatchObject({ kind: 'ANSWER_TAGS', state: 'COMPLETE', total_rows: 4, processed_rows: 4, errors: [] });

    const items = await tags('projects', p.id);
    expect(items.map((t) => [t.case_name, t.tag])).toEqual([
      ['Breathless', 'Admission'],
      ['Chest pain', 'Cardiac'],
      ['Chest pain', 'Cardiac'],
      ['Chest pain', 'Thrombosis'],
    ]);
    expect(tagRows(items)).toEqual([
      'Breathless | Disposition | Admit to cardiology | Admission | CUSTOM',
      'Chest pain | First test? | ECG | Cardiac | CUSTOM',
      'Chest pain | Which blood tests? | D-dimer | Thrombosis | CUSTOM',
      'Chest pain | Which blood tests? | Troponin | Cardiac | CUSTOM',
    ]);
    const firstTest = chest.questions[0]!;
    expect(items.find((t) => t.answer === 'ECG')).toEqual({
      case_id: chest.id,
      case_name: 'Chest pain',
      question_id: firstTest.id,
      question: 'First test?',
      choice_id: firstTest.choices[0]!.id,
      answer: 'ECG',
      tag: 'Cardiac',
      origin: 'CUSTOM',
    });
    expect(tagRows(await tags('projects', p.id, breath.id))).toEqual([
      'Breathless | Disposition | Admit to cardiology | Admission | CUSTOM',
    ]);
    const summary = await call('GET', `/projects/${p.id}/import?type=SUMMARY`, { headers: f.asAdminA });
    expect(summary.json()).toBeNull();
  });

  it.each([
    ['an unknown question', 'Chest pain,Which imaging?,ECG,Cardiac', 'IMPORT_VALIDATION_FAILED'],
    ['an unknown answer', 'Chest pain,First test?,MRI,Cardiac', 'IMPORT_VALIDATION_FAILED'],
    ["another question's answer", 'Chest pain,First test?,Troponin,Cardiac', 'IMPORT_VALIDATION_FAILED'],
    ['a free-text question', 'Chest pain,What do you tell the patient?,Rest,Advice', 'IMPORT_VALIDATION_FAILED'],
    ['an unknown case', 'Nobody,First test?,ECG,Cardiac', 'IMPORT_VALIDATION_FAILED'],
    ['a blank tag', 'Chest pain,First test?,ECG,  ', 'BLANK_TEXT'],
  ])('refuses %s on its line and writes nothing, not even the good row', async (_label, badRow, errorCode) => {
    const before = { items: await tags('projects', p.id), names: await tagNameCount() };
    const job = await importAndRun(
      'projects',
      p.id,
      'answers-tags',
      `${AT}\nBreathless,Disposition,Discharge home,Home\n${badRow}\n`,
    );
    expect(job).toMatchObject({ kind: 'ANSWER_TAGS', state: 'ERROR', total_rows: 2, processed_rows: 0 });
    expect(job.errors).toEqual([{ line: 3, errorCode, message: expect.stringMatching(/^Line 3: /) }]);
    expect({ items: await tags('projects', p.id), names: await tagNameCount() }).toEqual(before);
  });

  it('refuses a file without the answer column (line 1)', async () => {
    const before = await tags('projects', p.id);
    const job = await importAndRun(
      'projects',
      p.id,
      'answers-tags',
      'case_name,question,tag\nChest pain,First test?,X\n',
    );
    expect(job).toMatchObject({ state: 'ERROR', processed_rows: 0 });
    expect(job.errors).toMatchObject([{ line: 1, errorCode: 'CSV_HEADERS_OR_DELIMITER_INVALID' }]);
    expect(await tags('projects', p.id)).toEqual(before);
  });

  it('replaces the tags of the cases a second upload names only', async () => {
    const job = await importAndRun(
      'projects',
      p.id,
      'answers-tags',
      `${AT}\nBreathless,Disposition,Discharge home,Home\n`,
    );
    expect(job).toMatchObject({ state: 'COMPLETE', total_rows: 1, processed_rows: 1 });
    expect(tagRows(await tags('projects', p.id))).toEqual([
      'Breathless | Disposition | Discharge home | Home | CUSTOM',
      'Chest pain | First test? | ECG | Cardiac | CUSTOM',
      'Chest pain | Which blood tests? | D-dimer | Thrombosis | CUSTOM',
      'Chest pain | Which blood tests? | Troponin | Cardiac | CUSTOM',
    ]);
  });
});

/* ---------- 5. module libraries and conflicts ---------- */

describe('elements of module library cases, and conflicts', () => {
  let m: Home;
  let moduleCase: CaseDocument;
  let p: Home;
  let copyId: string;

  beforeAll(async () => {
    m = await newModule();
    moduleCase = await createModuleCase(m, { name: 'Module case' });
    p = await newProject(f.clientA.id);
    await createProjectCase(p, { name: 'Own case' });
    const copied = await call('POST', '/module-library/cases/to-project', {
      payload: { project_id: p.id, case_ids: [moduleCase.id] },
    });
    expect(copied.statusCode).toBe(201);
    copyId = copied.json<{ ids: string[] }>().ids[0]!;
  });

  it('refuses, in a project, a row naming a case copied from a module library (both kinds), writing nothing', async () => {
    const copy = (await call('GET', `/cases/${copyId}`, { headers: f.asAdminA })).json<CaseDocument>();
    expect(copy).toMatchObject({ project_id: p.id, origin: 'MODULE_LIBRARY', name: 'Module case' });

    const kt = await importAndRun('projects', p.id, 'key-takeaways', `${KT}\nOwn case,Fine\nmodule case,Not here\n`);
    expect(kt).toMatchObject({ state: 'ERROR', total_rows: 2, processed_rows: 0 });
    expect(kt.errors).toMatchObject([{ line: 3, errorCode: 'ELEMENTS_MODULE_LIBRARY_CONFLICT' }]);
    expect(await takeaways('projects', p.id)).toEqual([]);

    const at = await importAndRun(
      'projects',
      p.id,
      'answers-tags',
      `${AT}\nOwn case,First test?,ECG,Cardiac\nModule case,First test?,ECG,Cardiac\n`,
    );
    expect(at).toMatchObject({ state: 'ERROR', total_rows: 2, processed_rows: 0 });
    expect(at.errors).toMatchObject([{ line: 3, errorCode: 'ELEMENTS_MODULE_LIBRARY_CONFLICT' }]);
    expect(await tags('projects', p.id)).toEqual([]);
  });

  it('imports a module library’s key takeaways and answer tags, with origin MODULE_LIBRARY', async () => {
    const kt = await importAndRun('module-library', m.id, 'key-takeaways', `${KT}\nModule case,From the library\n`);
    expect(kt).toMatchObject({ kind: 'SUMMARY', state: 'COMPLETE', total_rows: 1, processed_rows: 1, errors: [] });
    expect(await takeaways('module-library', m.id)).toEqual([
      {
        case_id: moduleCase.id,
        case_name: 'Module case',
        position: 1,
        text: 'From the library',
        origin: 'MODULE_LIBRARY',
      },
    ]);

    const at = await importAndRun(
      'module-library',
      m.id,
      'answers-tags',
      `${AT}\nModule case,Disposition,Discharge home,Library tag\n`,
    );
    expect(at).toMatchObject({ kind: 'ANSWER_TAGS', state: 'COMPLETE', total_rows: 1, processed_rows: 1 });
    expect(tagRows(await tags('module-library', m.id))).toEqual([
      'Module case | Disposition | Discharge home | Library tag | MODULE_LIBRARY',
    ]);
    expect((await tags('module-library', m.id, moduleCase.id))[0]).toMatchObject({
      case_id: moduleCase.id,
      question_id: moduleCase.questions[3]!.id,
      choice_id: moduleCase.questions[3]!.choices[1]!.id,
    });
  });

  it('shows a later copy’s module elements in the project, still owned by the library and not replaceable there', async () => {
    const p3 = await newProject(f.clientA.id);
    const copied = await call('POST', '/module-library/cases/to-project', {
      payload: { project_id: p3.id, case_ids: [moduleCase.id] },
    });
    expect(copied.statusCode).toBe(201);
    const before = { takeaways: await takeaways('projects', p3.id), tags: await tags('projects', p3.id) };
    expect(brief(before.takeaways)).toEqual([['Module case', 1, 'From the library', 'MODULE_LIBRARY']]);
    expect(tagRows(before.tags)).toEqual(['Module case | Disposition | Discharge home | Library tag | MODULE_LIBRARY']);

    const kt = await importAndRun('projects', p3.id, 'key-takeaways', `${KT}\nModule case,Ours now\n`);
    expect(kt.errors).toMatchObject([{ line: 2, errorCode: 'ELEMENTS_MODULE_LIBRARY_CONFLICT' }]);
    expect({ takeaways: await takeaways('projects', p3.id), tags: await tags('projects', p3.id) }).toEqual(before);
  });

  it('gives a detached duplicate of a copy its elements as the project’s own, which a project upload may replace', async () => {
    const p4 = await newProject(f.clientA.id);
    const copied = await call('POST', '/module-library/cases/to-project', {
      payload: { project_id: p4.id, case_ids: [moduleCase.id] },
    });
    const [copyId] = copied.json<{ ids: string[] }>().ids;
    const detached = await call('POST', `/cases/${copyId}/duplicate-detach`, { payload: { name: 'Our own case' } });
    expect(detached.statusCode).toBe(201);
    expect(detached.json()).toMatchObject({ origin: 'CUSTOM', source_case_id: null });
    expect(brief(await takeaways('projects', p4.id))).toEqual([
      ['Module case', 1, 'From the library', 'MODULE_LIBRARY'],
      ['Our own case', 1, 'From the library', 'CUSTOM'],
    ]);
    const kt = await importAndRun('projects', p4.id, 'key-takeaways', `${KT}\nOur own case,Ours now\n`);
    expect(kt.errors).toEqual([]);
    expect(brief(await takeaways('projects', p4.id))).toEqual([
      ['Module case', 1, 'From the library', 'MODULE_LIBRARY'],
      ['Our own case', 1, 'Ours now', 'CUSTOM'],
    ]);
  });

  it('refuses, in a module, a row naming a case holding custom elements (both kinds), writing nothing', async () => {
    const p2 = await newProject(f.clientA.id);
    const moving = await createProjectCase(p2, { name: 'Moving case' });
    const custom = await importAndRun('projects', p2.id, 'key-takeaways', `${KT}\nMoving case,Written by the client\n`);
    expect(custom.state).toBe('COMPLETE');
    const moved = await call('POST', `/cases/${moving.id}/move-to-module`, { payload: { module_id: m.id } });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ project_id: null, origin: 'MODULE_LIBRARY' });

    const before = await takeaways('module-library', m.id);
    expect(brief(before)).toEqual([
      ['Module case', 1, 'From the library', 'MODULE_LIBRARY'],
      ['Moving case', 1, 'Written by the client', 'CUSTOM'],
    ]);
    const kt = await importAndRun(
      'module-library',
      m.id,
      'key-takeaways',
      `${KT}\nModule case,Replaced\nMoving case,Library text\n`,
    );
    expect(kt).toMatchObject({ state: 'ERROR', total_rows: 2, processed_rows: 0 });
    expect(kt.errors).toMatchObject([{ line: 3, errorCode: 'ELEMENTS_CUSTOM_CONFLICT' }]);
    expect(await takeaways('module-library', m.id)).toEqual(before);

    const tagsBefore = await tags('module-library', m.id);
    const at = await importAndRun(
      'module-library',
      m.id,
      'answers-tags',
      `${AT}\nMoving case,First test?,ECG,Cardiac\n`,
    );
    expect(at).toMatchObject({ state: 'ERROR', total_rows: 1, processed_rows: 0 });
    expect(at.errors).toMatchObject([{ line: 2, errorCode: 'ELEMENTS_CUSTOM_CONFLICT' }]);
    expect(await tags('module-library', m.id)).toEqual(tagsBefore);

    // The module's own case is still writable.
    const ok = await importAndRun('module-library', m.id, 'key-takeaways', `${KT}\nModule case,Second version\n`);
    expect(ok.state).toBe('COMPLETE');
    expect(brief(await takeaways('module-library', m.id))).toEqual([
      ['Module case', 1, 'Second version', 'MODULE_LIBRARY'],
      ['Moving case', 1, 'Written by the client', 'CUSTOM'],
    ]);
  });
});

/* ---------- 6. counts per case, and the latest module import ---------- */

describe('cases with their counts of elements', () => {
  type Page = { items: CaseElements[]; total: number; page: number; limit: number };
  let p: Home;
  let alpha: CaseDocument;
  let bravo: CaseDocument;
  let charlie: CaseDocument;

  beforeAll(async () => {
    p = await newProject(f.clientA.id);
    alpha = await createProjectCase(p, { name: 'Alpha case' });
    bravo = await createProjectCase(p, { name: 'Bravo case' });
    charlie = await createProjectCase(p, { name: 'Charlie case' });
    const kt = await importAndRun(
      'projects',
      p.id,
      'key-takeaways',
      `${KT}\nAlpha case,One\nAlpha case,Two\nCharlie case,Three\n`,
    );
    expect(kt.state).toBe('COMPLETE');
    const at = await importAndRun(
      'projects',
      p.id,
      'answers-tags',
      `${AT}\nBravo case,First test?,ECG,T1\nCharlie case,First test?,ECG,T1\nCharlie case,Disposition,Discharge home,T2\n`,
    );
    expect(at.state).toBe('COMPLETE');
  });

  async function page(query = ''): Promise<Page> {
    const response = await call('GET', `/projects/${p.id}/cases-keys-tags${query}`, { headers: f.asAdminA });
    expect(response.statusCode).toBe(200);
    return response.json<Page>();
  }
  const rows = (pg: Page) => pg.items.map((c) => [c.case_name, c.key_takeaways, c.answer_tags]);

  it('pages the cases of a project with their counts, keeps a type, searches by name and sorts', async () => {
    const all = await page();
    expect(all).toMatchObject({ total: 3, page: 1, limit: 25 });
    expect(all.items).toEqual([
      { case_id: alpha.id, case_name: 'Alpha case', key_takeaways: 2, answer_tags: 0 },
      { case_id: bravo.id, case_name: 'Bravo case', key_takeaways: 0, answer_tags: 1 },
      { case_id: charlie.id, case_name: 'Charlie case', key_takeaways: 1, answer_tags: 2 },
    ]);
    const withTakeaways = await page('?type=KEY_TAKEAWAYS');
    expect({ total: withTakeaways.total, rows: rows(withTakeaways) }).toEqual({
      total: 2,
      rows: [
        ['Alpha case', 2, 0],
        ['Charlie case', 1, 2],
      ],
    });
    const withTags = await page('?type=ANSWER_TAGS');
    expect(rows(withTags)).toEqual([
      ['Bravo case', 0, 1],
      ['Charlie case', 1, 2],
    ]);
    const searched = await page('?search=BRAVO');
    expect({ total: searched.total, rows: rows(searched) }).toEqual({ total: 1, rows: [['Bravo case', 0, 1]] });
    expect(rows(await page('?search=bravo&type=KEY_TAKEAWAYS'))).toEqual([]);
    expect(rows(await page('?type=KEY_TAKEAWAYS&sort=case_name:DESC'))).toEqual([
      ['Charlie case', 1, 2],
      ['Alpha case', 2, 0],
    ]);
    const second = await page('?limit=2&page=2');
    expect({ total: second.total, page: second.page, limit: second.limit, rows: rows(second) }).toEqual({
      total: 3,
      page: 2,
      limit: 2,
      rows: [['Charlie case', 1, 2]],
    });
    expectError(
      await call('GET', `/projects/${p.id}/cases-keys-tags?type=OTHER`, { headers: f.asAdminA }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call('GET', `/projects/${p.id}/cases-keys-tags?sort=key_takeaways:ASC`, { headers: f.asAdminA }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('requires the type for a module library’s cases and imports, and answers its latest import', async () => {
    const m = await newModule();
    const libraryCase = await createModuleCase(m, { name: 'Library case' });

    expectError(await call('GET', `/module-library/${m.id}/cases-keys-tags`), 400, 'VALIDATION_ERROR');
    const empty = await call('GET', `/module-library/${m.id}/cases-keys-tags?type=KEY_TAKEAWAYS`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ items: [], total: 0 });

    expectError(await call('GET', `/module-library/${m.id}/import`), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', `/module-library/${m.id}/import?type=PARTICIPANTS`), 400, 'VALIDATION_ERROR');
    const none = await call('GET', `/module-library/${m.id}/import?type=SUMMARY`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();

    const first = await importAndRun(
      'module-library',
      m.id,
      'key-takeaways',
      `${KT}\nLibrary case,One\nLibrary case,Two\n`,
    );
    expect(first.state).toBe('COMPLETE');
    const withTakeaways = await call('GET', `/module-library/${m.id}/cases-keys-tags?type=KEY_TAKEAWAYS`);
    expect(withTakeaways.statusCode).toBe(200);
    expect(withTakeaways.json()).toMatchObject({
      items: [{ case_id: libraryCase.id, case_name: 'Library case', key_takeaways: 2, answer_tags: 0 }],
      total: 1,
    });
    expect((await call('GET', `/module-library/${m.id}/cases-keys-tags?type=ANSWER_TAGS`)).json()).toMatchObject({
      items: [],
      total: 0,
    });

    // The latest is the latest, even when it failed.
    const second = await importAndRun('module-library', m.id, 'key-takeaways', `${KT}\nNo such case,X\n`);
    expect(second.state).toBe('ERROR');
    const latest = await call('GET', `/module-library/${m.id}/import?type=SUMMARY`);
    expect(latest.json()).toMatchObject({ id: second.id, kind: 'SUMMARY', state: 'ERROR' });
    expect(second.id).not.toBe(first.id);
    expect((await call('GET', `/module-library/${m.id}/import?type=ANSWER_TAGS`)).json()).toBeNull();
  });
});

/* ---------- 7. access ---------- */

describe('who may call the elements API', () => {
  let p: Home;
  let m: Home;

  beforeAll(async () => {
    p = await newProject(f.clientA.id);
    await createProjectCase(p, { name: 'Guarded case' });
    expect((await importAndRun('projects', p.id, 'key-takeaways', `${KT}\nGuarded case,Mine\n`)).state).toBe(
      'COMPLETE',
    );
    m = await newModule();
    await createModuleCase(m, { name: 'Library case' });
  });

  /** Every elements call of a project or module, as [label, send]. */
  function callsOf(where: Where, id: string): [string, (headers: Headers | object) => Promise<Reply>][] {
    const base = `/${where}/${id}`;
    const casesQuery = where === 'module-library' ? '?type=KEY_TAKEAWAYS' : '';
    return [
      [`GET ${base}/key-takeaways`, (headers) => call('GET', `${base}/key-takeaways`, { headers })],
      [
        `POST ${base}/key-takeaways`,
        (headers) => postFile(`${base}/key-takeaways`, `${KT}\nGuarded case,Theirs\n`, headers),
      ],
      [`GET ${base}/answers-tags`, (headers) => call('GET', `${base}/answers-tags`, { headers })],
      [
        `POST ${base}/answers-tags`,
        (headers) => postFile(`${base}/answers-tags`, `${AT}\nGuarded case,First test?,ECG,X\n`, headers),
      ],
      [`GET ${base}/cases-keys-tags`, (headers) => call('GET', `${base}/cases-keys-tags${casesQuery}`, { headers })],
      [`GET ${base}/import SUMMARY`, (headers) => call('GET', `${base}/import?type=SUMMARY`, { headers })],
      [`GET ${base}/import ANSWER_TAGS`, (headers) => call('GET', `${base}/import?type=ANSWER_TAGS`, { headers })],
    ];
  }

  async function expectAll(
    calls: ReturnType<typeof callsOf>,
    headers: Headers | object,
    status: number,
    errorCode: string,
  ): Promise<void> {
    for (const [label, send] of calls) {
      const response = await send(headers);
      expect({ call: label, status: response.statusCode, errorCode: response.json().errorCode }).toEqual({
        call: label,
        status,
        errorCode,
      });
    }
  }

  it('hides a project from an administrator of another client, queueing nothing', async () => {
    const jobs = await jobCount();
    const before = await takeaways('projects', p.id);
    await expectAll(callsOf('projects', p.id), f.asAdminB, 404, 'PROJECT_NOT_FOUND');
    await expectAll(callsOf('projects', randomUUID()), f.asAdminA, 404, 'PROJECT_NOT_FOUND');
    // A module library is no project.
    await expectAll(callsOf('projects', m.id), f.asSuperadmin, 404, 'PROJECT_NOT_FOUND');
    expect(await jobCount()).toBe(jobs);
    expect(await ctx.app.imports.runPending()).toBe(0);
    expect(await takeaways('projects', p.id)).toEqual(before);
  });

  it('keeps module libraries to superadmins: 403 for a client administrator, 401 without a token', async () => {
    const jobs = await jobCount();
    await expectAll(callsOf('module-library', m.id), f.asAdminA, 403, 'FORBIDDEN');
    await expectAll(callsOf('module-library', m.id), {}, 401, 'NOT_AUTHORIZED');
    await expectAll(callsOf('projects', p.id), {}, 401, 'NOT_AUTHORIZED');
    expect(await jobCount()).toBe(jobs);
    expect(await takeaways('module-library', m.id)).toEqual([]);
  });

  it('answers 404 NOT_FOUND for a module library that does not exist (or is a project)', async () => {
    const jobs = await jobCount();
    await expectAll(callsOf('module-library', randomUUID()), f.asSuperadmin, 404, 'NOT_FOUND');
    await expectAll(callsOf('module-library', p.id), f.asSuperadmin, 404, 'NOT_FOUND');
    expect(await jobCount()).toBe(jobs);
  });
});
