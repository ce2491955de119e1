import { randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import type {
  CaseDocument,
  CaseStatusReport,
  CaseSummary,
  CreateProjectBody,
  Project,
  UpdateCaseBody,
} from '@pss/contract';
import { casePreviews, cases, participantAssignments, projectParticipants } from '../../db/schema/index.js';
import { createTokenService } from '../../lib/tokens.js';
import { createTestContext, createUser, type TestContext } from '../../../test/test-app.js';
import { multipartFile, projectBody, twoClients, type Headers } from '../../../test/fixtures.js';

let ctx: TestContext;
let f: Awaited<ReturnType<typeof twoClients>>;
/** A project of client A with other catalogue entries (Asthma, Treatment) and its own Spring 2026. */
let elsewhere: ProjectFacts;

const NOW = '2026-03-02T09:00:00Z';

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW });
  f = await twoClients(ctx);
  elsewhere = await newProject(f.clientA.id, { disease_types: ['Asthma'], question_categories: ['Treatment'] });
});
afterAll(() => ctx.close());

/* ---------- helpers ---------- */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** What the tests read of an answer (light-my-request's response fits it). */
interface Reply {
  statusCode: number;
  headers: Record<string, unknown>;
  rawPayload: Buffer;
  json<T = { errorCode?: string; details?: { fields?: { field: string; errorCode?: string }[] } }>(): T;
}

function call(method: Method, url: string, options: { headers?: Headers | object; payload?: object | string } = {}) {
  return ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: { ...(options.headers ?? f.asAdminA) },
    payload: options.payload,
  }) as Promise<Reply>;
}

function expectError(response: Reply, status: number, errorCode: string): void {
  expect({ status: response.statusCode, errorCode: response.json().errorCode }).toEqual({ status, errorCode });
}

const fieldsOf = (response: Reply) => (response.json().details?.fields ?? []).map((issue) => issue.field);

interface ProjectFacts {
  id: string;
  diseaseTypeId: string;
  categoryId: string;
  /** Season ids by name. */
  seasons: Record<string, string>;
}

async function newProject(clientId: string, overrides: Partial<CreateProjectBody> = {}): Promise<ProjectFacts> {
  const created = await call('POST', '/projects', {
    headers: f.asSuperadmin,
    payload: projectBody(clientId, overrides),
  });
  expect(created.statusCode).toBe(201);
  const project = (
    await call('GET', `/projects/${created.json<Project>().id}`, { headers: f.asSuperadmin })
  ).json<Project>();
  return {
    id: project.id,
    diseaseTypeId: project.disease_types[0]!.id,
    categoryId: project.question_categories[0]!.id,
    seasons: Object.fromEntries(project.seasons.map((s) => [s.name, s.id])),
  };
}

const projectA = () => newProject(f.clientA.id);

type QuestionInput = UpdateCaseBody['questions'][number];
type Mark = QuestionInput['choices'][number]['marked_as'];
const choice = (text: string, marked_as: Mark) => ({ text, marked_as });

/** A complete, publishable case: one question of each type, two of them in a grouper. */
function validCase(p: ProjectFacts, overrides: Partial<UpdateCaseBody> = {}): UpdateCaseBody {
  const workUp = randomUUID();
  const question = (fields: Partial<QuestionInput> & Pick<QuestionInput, 'type' | 'text'>): QuestionInput => ({
    grouper_id: null,
    text_before: '',
    required: true,
    category_id: p.categoryId,
    choices: [],
    allow_other: false,
    allow_none_of_below: false,
    ...fields,
  });
  return {
    name: 'Chest pain at rest',
    disease_type_id: p.diseaseTypeId,
    patient_name: 'Ann Smith',
    patient_age: 54,
    reason_for_encounter: '<p>Chest pain for two hours.</p>',
    season_id: null,
    round_number: null,
    feedback_type: 'PERSONALIZED_FEEDBACK',
    references: '<p>ESC guidelines, 2023.</p>',
    test_results: '<p>Troponin 0.4 ng/mL.</p>',
    explanation: '<p>An acute coronary syndrome until proven otherwise.</p>',
    details_sections: [{ name: 'History', text: '<p>Smoker, <strong>40 pack-years</strong>.</p>' }],
    groupers: [{ id: workUp, name: 'Work-up' }],
    questions: [
      question({
        type: 'MULTI_ONE',
        text: 'First test?',
        grouper_id: workUp,
        text_before: '<p>In the emergency room.</p>',
        choices: [
          choice('ECG', 'NECESSARY'),
          choice('Chest X-ray', 'APPROPRIATE'),
          choice('Colonoscopy', 'UNNECESSARY'),
        ],
      }),
      question({
        type: 'MULTI_MANY',
        text: 'Which blood tests?',
        grouper_id: workUp,
        choices: [
          choice('Troponin', 'NECESSARY'),
          choice('CK-MB', 'NECESSARY'),
          choice('D-dimer', 'APPROPRIATE'),
          choice('Lipase', 'UNNECESSARY'),
        ],
        allow_other: true,
        allow_none_of_below: true,
      }),
      question({ type: 'TEXT', text: 'What do you tell the patient?', required: false }),
      question({
        type: 'DROPDOWN',
        text: 'Disposition',
        choices: [choice('Admit to cardiology', 'NECESSARY'), choice('Discharge home', 'UNNECESSARY')],
      }),
      question({
        type: 'TYPE_AHEAD',
        text: 'Working diagnosis',
        required: false,
        choices: [choice('Acute myocardial infarction', null), choice('Stable angina', null)],
      }),
    ],
    ...overrides,
  };
}

/** The editable fields of a saved case, as the editor would send them back. */
function contentOf(doc: CaseDocument): UpdateCaseBody {
  return {
    name: doc.name,
    disease_type_id: doc.disease_type_id,
    patient_name: doc.patient_name,
    patient_age: doc.patient_age,
    reason_for_encounter: doc.reason_for_encounter,
    season_id: doc.season_id,
    round_number: doc.round_number,
    feedback_type: doc.feedback_type,
    references: doc.references,
    test_results: doc.test_results,
    explanation: doc.explanation,
    details_sections: doc.details_sections,
    groupers: doc.groupers,
    questions: doc.questions,
  };
}

async function createDraft(p: ProjectFacts, name = 'Chest pain at rest', headers: Headers = f.asAdminA) {
  const created = await call('POST', '/cases', {
    headers,
    payload: { project_id: p.id, name, disease_type_id: p.diseaseTypeId },
  });
  expect(created.statusCode).toBe(201);
  return created.json<CaseDocument>();
}

/** A draft saved whole with `validCase` (and the overrides). */
async function createCase(
  p: ProjectFacts,
  overrides: Partial<UpdateCaseBody> = {},
  headers: Headers = f.asAdminA,
): Promise<CaseDocument> {
  const draft = await createDraft(p, overrides.name, headers);
  const saved = await call('PUT', `/cases/${draft.id}`, { headers, payload: validCase(p, overrides) });
  expect(saved.statusCode).toBe(200);
  return saved.json<CaseDocument>();
}

const getCase = async (id: string, headers: Headers = f.asAdminA) =>
  (await call('GET', `/cases/${id}`, { headers })).json<CaseDocument>();

async function setStatus(id: string, status: 'DRAFT' | 'PUBLISHED', headers: Headers = f.asAdminA) {
  return call('POST', `/cases/${id}/status`, { headers, payload: { status } });
}

async function listNames(projectId: string, query = '', headers: Headers = f.asAdminA): Promise<string[]> {
  const response = await call('GET', `/projects/${projectId}/cases${query}`, { headers });
  expect(response.statusCode).toBe(200);
  return response.json<{ items: CaseSummary[] }>().items.map((c) => c.name);
}

const filterQuery = (filter: object) => `filter=${encodeURIComponent(JSON.stringify(filter))}`;
const caseCount = async () => (await ctx.db.select({ n: count() }).from(cases))[0]!.n;
const previewCount = async () => (await ctx.db.select({ n: count() }).from(casePreviews))[0]!.n;

/** A participant of client A assigned to rounds of a season of the project. */
async function assignParticipant(projectId: string, seasonId: string, firstRound = 1, lastRound = 4) {
  const user = await createUser(ctx.db, { role: 'USER', clientId: f.clientA.id });
  await ctx.db
    .insert(projectParticipants)
    .values({ projectId, userId: user.id, sortName: 'user test', email: user.email, dataStatus: 'READY' });
  await ctx.db
    .insert(participantAssignments)
    .values({ userId: user.id, seasonId, projectId, firstRound, lastRound, startDate: '2026-03-01' });
  return user;
}

function uploadImage(id: string, content: Buffer, fileName = 'photo.png', headers: Headers = f.asAdminA) {
  const file = multipartFile(content, fileName);
  return call('POST', `/cases/${id}/image`, { headers: { ...headers, ...file.headers }, payload: file.payload });
}

/* A real 1×1 PNG, chunks and checksums included. */
function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
function onePixelPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const scanline = Buffer.from([0, 0xd2, 0x1e, 0x3c, 0xff]); // filter "none", one red pixel
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanline)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
const JPEG_HEAD = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0', 'latin1'),
  Buffer.alloc(64),
  Buffer.from([0xff, 0xd9]),
]);

/** Answers every required question of a case with its first choice. */
function requiredAnswers(doc: CaseDocument) {
  return doc.questions.filter((q) => q.required).map((q) => ({ question_id: q.id, choice_ids: [q.choices[0]!.id] }));
}

/* ---------- 1. create, read, save ---------- */

describe('creating and saving a case', () => {
  it('creates a custom draft and reads it back', async () => {
    const p = await projectA();
    const created = await call('POST', '/cases', {
      payload: { project_id: p.id, name: '  Chest pain  ', disease_type_id: p.diseaseTypeId },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      project_id: p.id,
      client_id: f.clientA.id,
      origin: 'CUSTOM',
      status: 'DRAFT',
      name: 'Chest pain',
      disease_type_id: p.diseaseTypeId,
      disease_type_name: 'Diabetes',
      patient_name: '',
      patient_age: null,
      has_image: false,
      season_id: null,
      round_number: null,
      feedback_type: null,
      details_sections: [],
      groupers: [],
      questions: [],
      source_case_id: null,
    });
    const read = await call('GET', `/cases/${created.json<CaseDocument>().id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created.json());
    // A superadmin sees it too.
    expect((await call('GET', `/cases/${read.json<CaseDocument>().id}`, { headers: f.asSuperadmin })).statusCode).toBe(
      200,
    );
  });

  it('saves a whole case with every question type and reads the same back', async () => {
    const p = await projectA();
    const draft = await createDraft(p);
    const body = validCase(p);
    const saved = await call('PUT', `/cases/${draft.id}`, { payload: body });
    expect(saved.statusCode).toBe(200);
    const doc = saved.json<CaseDocument>();
    expect(doc).toMatchObject({
      ...body,
      id: draft.id,
      status: 'DRAFT',
      origin: 'CUSTOM',
      disease_type_name: 'Diabetes',
    });
    expect(doc.questions.map((q) => q.type)).toEqual(['MULTI_ONE', 'MULTI_MANY', 'TEXT', 'DROPDOWN', 'TYPE_AHEAD']);
    expect(doc.questions[1]).toMatchObject({ allow_other: true, allow_none_of_below: true });
    expect(doc.questions[0]!.choices.map((c) => c.marked_as)).toEqual(['NECESSARY', 'APPROPRIATE', 'UNNECESSARY']);

    // Every sub-item has an id of its own; the grouper keeps the one the editor made.
    const ids = [
      ...doc.details_sections.map((s) => s.id),
      ...doc.groupers.map((g) => g.id),
      ...doc.questions.flatMap((q) => [q.id, ...q.choices.map((c) => c.id)]),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.groupers[0]!.id).toBe(body.groupers[0]!.id);
    expect(doc.questions[0]!.grouper_id).toBe(body.groupers[0]!.id);

    expect(await getCase(draft.id)).toEqual(doc);
  });

  it('keeps the ids it gave on the next save, and a new grouper made in the editor with its questions', async () => {
    const p = await projectA();
    const first = await createCase(p);
    const newGrouper = randomUUID();
    const content = contentOf(first);
    const second = await call('PUT', `/cases/${first.id}`, {
      payload: {
        ...content,
        groupers: [...content.groupers, { id: newGrouper, name: 'Treatment' }],
        questions: [
          ...content.questions,
          {
            grouper_id: newGrouper,
            type: 'MULTI_MANY',
            text: 'Which drugs?',
            text_before: '',
            required: true,
            category_id: p.categoryId,
            choices: [choice('Aspirin', 'NECESSARY'), choice('Ibuprofen', 'UNNECESSARY')],
            allow_other: false,
            allow_none_of_below: false,
          },
          // A grouper that does not exist is dropped, not kept dangling.
          { ...content.questions[2]!, id: undefined, grouper_id: randomUUID() },
        ],
      },
    });
    expect(second.statusCode).toBe(200);
    const doc = second.json<CaseDocument>();
    expect(doc.details_sections.map((s) => s.id)).toEqual(first.details_sections.map((s) => s.id));
    expect(doc.groupers.map((g) => g.id)).toEqual([...first.groupers.map((g) => g.id), newGrouper]);
    expect(doc.questions.slice(0, 5).map((q) => q.id)).toEqual(first.questions.map((q) => q.id));
    expect(doc.questions.slice(0, 5).map((q) => q.choices.map((c) => c.id))).toEqual(
      first.questions.map((q) => q.choices.map((c) => c.id)),
    );
    expect(doc.questions[5]).toMatchObject({ grouper_id: newGrouper, text: 'Which drugs?' });
    expect(doc.questions[6]!.grouper_id).toBeNull();
    expect(doc.questions[6]!.id).not.toBe(first.questions[2]!.id);
    expect(await getCase(first.id)).toEqual(doc);
  });

  it('refuses a new case without a name or with a disease type that is not the project’s', async () => {
    const p = await projectA();
    const before = await caseCount();
    const noName = await call('POST', '/cases', { payload: { project_id: p.id, name: '  ' } });
    expectError(noName, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(noName)).toEqual(['body.name']);
    expectError(
      await call('POST', '/cases', {
        payload: { project_id: p.id, name: 'X', disease_type_id: elsewhere.diseaseTypeId },
      }),
      422,
      'WRONG_DISEASE_TYPE',
    );
    expectError(
      await call('POST', '/cases', { payload: { project_id: randomUUID(), name: 'X' } }),
      404,
      'PROJECT_NOT_FOUND',
    );
    expect(await caseCount()).toBe(before);
  });

  const badSaves: [string, (p: ProjectFacts) => object, number, string, string | null][] = [
    [
      'a missing name',
      (p) => {
        const { name: _name, ...rest } = validCase(p);
        return rest;
      },
      400,
      'VALIDATION_ERROR',
      'body.name',
    ],
    ['a blank name', (p) => validCase(p, { name: '   ' }), 400, 'VALIDATION_ERROR', 'body.name'],
    [
      'an age that is not a number',
      (p) => ({ ...validCase(p), patient_age: 'x' }),
      400,
      'VALIDATION_ERROR',
      'body.patient_age',
    ],
    ['an unknown field', (p) => ({ ...validCase(p), colour: 'red' }), 400, 'VALIDATION_ERROR', null],
    [
      'an unknown question type',
      (p) => {
        const body = validCase(p);
        return { ...body, questions: [{ ...body.questions[0]!, type: 'ESSAY' }] };
      },
      400,
      'VALIDATION_ERROR',
      'body.questions.0.type',
    ],
    [
      'a disease type that is not the project’s',
      (p) => validCase(p, { disease_type_id: elsewhere.diseaseTypeId }),
      422,
      'WRONG_DISEASE_TYPE',
      null,
    ],
    [
      'a question category that is not the project’s',
      (p) => {
        const body = validCase(p);
        return {
          ...body,
          questions: body.questions.map((q, i) => (i === 1 ? { ...q, category_id: elsewhere.categoryId } : q)),
        };
      },
      422,
      'PROJECT_MISSING_QUESTION_CATEGORIES',
      null,
    ],
    [
      'a season of another project',
      (p) => validCase(p, { season_id: elsewhere.seasons['Spring 2026']!, round_number: 1 }),
      400,
      'VALIDATION_ERROR',
      'body.season_id',
    ],
  ];

  it.each(badSaves)('refuses a save with %s and keeps the stored case', async (_label, body, status, code, field) => {
    const p = await projectA();
    const stored = await createCase(p);
    const response = await call('PUT', `/cases/${stored.id}`, { payload: body(p) });
    expectError(response, status, code);
    if (field) expect(fieldsOf(response)).toContain(field);
    expect(await getCase(stored.id)).toEqual(stored);
  });

  it('refuses a round the season does not have, and keeps the stored case', async () => {
    const p = await newProject(f.clientA.id, {
      seasons: [{ name: 'Short', rounds: [{ number: 1, start_date: '2026-05-01', end_date: '2026-05-10' }] }],
    });
    const stored = await createCase(p, { season_id: p.seasons.Short!, round_number: 1 });
    const response = await call('PUT', `/cases/${stored.id}`, {
      payload: validCase(p, { season_id: p.seasons.Short!, round_number: 3 }),
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(response)).toEqual(['body.round_number']);
    expect(await getCase(stored.id)).toEqual(stored);
  });

  it('lists a placement whose round was removed from the season later as a publishing problem', async () => {
    const p = await newProject(f.clientA.id, {
      seasons: [
        {
          name: 'Autumn',
          rounds: [
            { number: 1, start_date: '2026-09-01', end_date: '2026-09-10' },
            { number: 2, start_date: '2026-09-11', end_date: '2026-09-20' },
          ],
        },
      ],
    });
    const stored = await createCase(p, { season_id: p.seasons.Autumn!, round_number: 2 });
    const statusOf = async () =>
      (await call('GET', `/cases/${stored.id}/status`)).json() as unknown as CaseStatusReport;
    expect((await statusOf()).valid).toBe(true);
    const shortened = await call('PUT', `/projects/${p.id}`, {
      headers: f.asSuperadmin,
      payload: {
        ...(({ client_id: _client, ...rest }) => rest)(projectBody(f.clientA.id)),
        status: 'ACTIVE',
        seasons: [
          {
            id: p.seasons.Autumn!,
            name: 'Autumn',
            rounds: [{ number: 1, start_date: '2026-09-01', end_date: '2026-09-10' }],
          },
        ],
      },
    });
    expect(shortened.statusCode).toBe(200);
    const status = await statusOf();
    expect(status.valid).toBe(false);
    expect(status.problems.map((issue) => issue.field)).toEqual(['round_number']);
  });

  it('names the unknown field it refuses', async () => {
    const p = await projectA();
    const stored = await createDraft(p);
    const response = await call('PUT', `/cases/${stored.id}`, { payload: { ...validCase(p), colour: 'red' } });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(response.json().details)).toContain('colour');
  });

  it('answers CASE_NOT_FOUND for a case that does not exist', async () => {
    const p = await projectA();
    expectError(await call('GET', `/cases/${randomUUID()}`), 404, 'CASE_NOT_FOUND');
    expectError(await call('PUT', `/cases/${randomUUID()}`, { payload: validCase(p) }), 404, 'CASE_NOT_FOUND');
    expectError(await call('GET', '/cases/not-a-uuid'), 400, 'VALIDATION_ERROR');
  });
});

/* ---------- 2. sanitising ---------- */

describe('rich text', () => {
  it('is sanitised on save: no scripts, handlers or javascript: links; formatting and safe links stay', async () => {
    const p = await projectA();
    const draft = await createDraft(p);
    const dirty =
      '<p>Hi<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a></p>' +
      '<p><strong>Bold</strong> <a href="https://example.org/guide">guide</a></p>';
    const body = validCase(p, {
      details_sections: [{ name: 'History', text: dirty }],
      reason_for_encounter: `<p onclick="steal()">Pain</p>${dirty}`,
    });
    body.questions[0]!.text_before = dirty;
    const saved = await call('PUT', `/cases/${draft.id}`, { payload: body });
    expect(saved.statusCode).toBe(200);

    const doc = await getCase(draft.id);
    for (const html of [doc.details_sections[0]!.text, doc.reason_for_encounter, doc.questions[0]!.text_before]) {
      expect(html).not.toContain('<script');
      expect(html).not.toContain('alert(1)');
      expect(html).not.toContain('onerror');
      expect(html).not.toContain('javascript:');
      expect(html).not.toContain('<img');
      expect(html).toContain('<strong>Bold</strong>');
      expect(html).toContain('<a href="https://example.org/guide" target="_blank" rel="noopener noreferrer">guide</a>');
    }
    expect(doc.details_sections[0]!.text).toBe(
      '<p>Hi<a target="_blank" rel="noopener noreferrer">x</a></p>' +
        '<p><strong>Bold</strong> <a href="https://example.org/guide" target="_blank" rel="noopener noreferrer">guide</a></p>',
    );
    expect(doc.reason_for_encounter).not.toContain('onclick');
    expect(doc).toEqual(saved.json());
  });
});

/* ---------- 3. publishing ---------- */

describe('publishing', () => {
  it('refuses an incomplete case, listing each problem with its field, and GET status lists the same', async () => {
    const p = await projectA();
    const draft = await createDraft(p);
    const body = validCase(p, {
      patient_name: '  ',
      reason_for_encounter: '<p> </p><p>&nbsp;</p>',
      feedback_type: null,
      groupers: [],
      questions: [
        {
          grouper_id: null,
          type: 'MULTI_ONE',
          text: 'Only one choice?',
          text_before: '',
          required: true,
          category_id: p.categoryId,
          choices: [choice('ECG', 'NECESSARY')],
          allow_other: false,
          allow_none_of_below: false,
        },
        {
          grouper_id: null,
          type: 'MULTI_MANY',
          text: 'Unmarked?',
          text_before: '',
          required: true,
          category_id: p.categoryId,
          choices: [choice('Troponin', null), choice('CK-MB', 'NECESSARY')],
          allow_other: false,
          allow_none_of_below: false,
        },
      ],
    });
    expect((await call('PUT', `/cases/${draft.id}`, { payload: body })).statusCode).toBe(200);
    const stored = await getCase(draft.id);

    const refused = await setStatus(draft.id, 'PUBLISHED');
    expectError(refused, 422, 'CASE_INVALID_FOR_PUBLISH');
    expect(fieldsOf(refused)).toEqual([
      'patient_name',
      'reason_for_encounter',
      'questions.0.choices',
      'questions.1.choices.0.marked_as',
      'feedback_type',
    ]);
    expect(refused.json().details!.fields![2]).toMatchObject({ errorCode: 'FIELD_REQUIRED' });
    expect(await getCase(draft.id)).toEqual(stored);

    const status = await call('GET', `/cases/${draft.id}/status`);
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      id: draft.id,
      status: 'DRAFT',
      valid: false,
      problems: refused.json().details!.fields,
    });
  });

  it('applies the single-answer rule and asks general feedback for an explanation', async () => {
    const p = await projectA();
    const body = validCase(p, { feedback_type: 'GENERAL_FEEDBACK', explanation: '<p>&nbsp;</p>' });
    body.questions[0]!.choices = [choice('ECG', 'NECESSARY'), choice('Troponin', 'NECESSARY')];
    body.questions[3]!.choices = [choice('Admit', 'UNNECESSARY'), choice('Discharge', 'UNNECESSARY')];
    const doc = await createCase(p, body);
    const refused = await setStatus(doc.id, 'PUBLISHED');
    expectError(refused, 422, 'CASE_INVALID_FOR_PUBLISH');
    expect(refused.json().details!.fields).toEqual([
      expect.objectContaining({ field: 'questions.0.choices', errorCode: 'SINGLE_ANSWER_INVALID_MARKED_AS' }),
      expect.objectContaining({ field: 'questions.3.choices', errorCode: 'SINGLE_ANSWER_INVALID_MARKED_AS' }),
      expect.objectContaining({ field: 'explanation', errorCode: 'BLANK_TEXT' }),
    ]);
    expect((await getCase(doc.id)).status).toBe('DRAFT');
  });

  it('publishes a complete case, which is then read-only until taken back to draft', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    expect((await call('GET', `/cases/${doc.id}/status`)).json()).toEqual({
      id: doc.id,
      status: 'DRAFT',
      valid: true,
      problems: [],
    });

    const published = await setStatus(doc.id, 'PUBLISHED');
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({ id: doc.id, status: 'PUBLISHED' });
    const stored = await getCase(doc.id);

    expectError(
      await call('PUT', `/cases/${doc.id}`, { payload: validCase(p, { name: 'Changed' }) }),
      403,
      'CHANGES_FORBIDDEN',
    );
    expectError(await uploadImage(doc.id, onePixelPng()), 403, 'CHANGES_FORBIDDEN');
    expectError(await call('DELETE', `/cases/${doc.id}/image`), 403, 'CHANGES_FORBIDDEN');
    expect(await getCase(doc.id)).toEqual(stored);

    const draft = await setStatus(doc.id, 'DRAFT');
    expect(draft.statusCode).toBe(200);
    expect(draft.json()).toMatchObject({ status: 'DRAFT' });
    const edited = await call('PUT', `/cases/${doc.id}`, { payload: { ...contentOf(doc), name: 'Changed' } });
    expect(edited.json()).toMatchObject({ name: 'Changed', status: 'DRAFT' });
  });

  it('reads a published case placed in the running round as ACTIVE, which cannot go back to draft', async () => {
    const p = await projectA();
    const spring = p.seasons['Spring 2026']!;
    const running = await createCase(p, { name: 'Running', season_id: spring, round_number: 1 });
    const later = await createCase(p, { name: 'Later', season_id: spring, round_number: 2 });

    const published = await setStatus(running.id, 'PUBLISHED');
    expect(published.json()).toMatchObject({
      status: 'ACTIVE',
      season_id: spring,
      season_name: 'Spring 2026',
      round_number: 1,
    });
    expect((await setStatus(later.id, 'PUBLISHED')).json()).toMatchObject({ status: 'PUBLISHED' });
    expect((await getCase(running.id)).status).toBe('ACTIVE');
    expect((await call('GET', `/cases/${running.id}/status`)).json()).toMatchObject({ status: 'ACTIVE', valid: true });

    expect(await listNames(p.id, `?${filterQuery({ status: 'ACTIVE' })}`)).toEqual(['Running']);
    expect(await listNames(p.id, `?${filterQuery({ status: 'PUBLISHED' })}`)).toEqual(['Later']);
    expect(await listNames(p.id, `?${filterQuery({ status: 'DRAFT' })}`)).toEqual([]);

    const stored = await getCase(running.id);
    expectError(await setStatus(running.id, 'DRAFT'), 403, 'CHANGES_FORBIDDEN');
    expectError(await call('PUT', `/cases/${running.id}`, { payload: contentOf(stored) }), 403, 'CHANGES_FORBIDDEN');
    expect(await getCase(running.id)).toEqual(stored);
    // Round 2 has not started: that one may still go back.
    expect((await setStatus(later.id, 'DRAFT')).json()).toMatchObject({ status: 'DRAFT' });
  });

  it('refuses a status other than DRAFT or PUBLISHED', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    expectError(
      await call('POST', `/cases/${doc.id}/status`, { payload: { status: 'ACTIVE' } }),
      400,
      'VALIDATION_ERROR',
    );
    expect((await getCase(doc.id)).status).toBe('DRAFT');
  });
});

/* ---------- 4. the list ---------- */

describe('a project’s case list', () => {
  let p: ProjectFacts;
  beforeAll(async () => {
    p = await projectA();
    // Saved in this order, a minute apart, so that updated_at has an order.
    try {
      for (const [name, patient] of [
        ['Chest pain', 'Ann Smith'],
        ['Asthma attack', 'Bob Jones'],
        ['Diabetic foot', 'Carl Smithers'],
        ['Back pain', 'Dana White'],
      ] as const) {
        ctx.clock.advance(60_000);
        await createCase(p, { name, patient_name: patient });
      }
    } finally {
      ctx.clock.set(NOW);
    }
    const chest = (await call('GET', `/projects/${p.id}/cases?search=chest`)).json<{ items: CaseSummary[] }>()
      .items[0]!;
    expect((await setStatus(chest.id, 'PUBLISHED')).statusCode).toBe(200);
  });

  it('pages its cases by name, with what the list shows of each', async () => {
    const page = await call('GET', `/projects/${p.id}/cases?limit=3`);
    expect(page.statusCode).toBe(200);
    const body = page.json<{ items: CaseSummary[]; total: number; page: number; limit: number }>();
    expect(body).toMatchObject({ total: 4, page: 1, limit: 3 });
    expect(body.items.map((c) => c.name)).toEqual(['Asthma attack', 'Back pain', 'Chest pain']);
    expect(body.items[2]).toMatchObject({
      project_id: p.id,
      origin: 'CUSTOM',
      status: 'PUBLISHED',
      patient_name: 'Ann Smith',
      disease_type_name: 'Diabetes',
      season_name: null,
      round_number: null,
      question_count: 5,
    });
    const second = (await call('GET', `/projects/${p.id}/cases?limit=3&page=2`)).json<{
      items: CaseSummary[];
      total: number;
      page: number;
    }>();
    expect(second).toMatchObject({ total: 4, page: 2 });
    expect(second.items.map((c) => c.name)).toEqual(['Diabetic foot']);
    expect((await call('GET', `/projects/${p.id}/cases?limit=3&page=3`)).json()).toMatchObject({ items: [], total: 4 });
  });

  it('searches case and patient names, ignoring case', async () => {
    expect(await listNames(p.id, '?search=PAIN')).toEqual(['Back pain', 'Chest pain']);
    expect(await listNames(p.id, '?search=smith')).toEqual(['Chest pain', 'Diabetic foot']);
    expect(await listNames(p.id, '?search=nobody')).toEqual([]);
    expect(await listNames(p.id, '?search=%25')).toEqual([]);
  });

  it('sorts by name, patient, update time and status', async () => {
    expect(await listNames(p.id, '?sort=name:DESC')).toEqual([
      'Diabetic foot',
      'Chest pain',
      'Back pain',
      'Asthma attack',
    ]);
    expect(await listNames(p.id, '?sort=patient_name:DESC')).toEqual([
      'Back pain',
      'Diabetic foot',
      'Asthma attack',
      'Chest pain',
    ]);
    expect(await listNames(p.id, '?sort=updated_at:DESC')).toEqual([
      'Back pain',
      'Diabetic foot',
      'Asthma attack',
      'Chest pain',
    ]);
    expect(await listNames(p.id, '?sort=updated_at')).toEqual([
      'Chest pain',
      'Asthma attack',
      'Diabetic foot',
      'Back pain',
    ]);
    expect(await listNames(p.id, '?sort=status:DESC,name:ASC')).toEqual([
      'Chest pain',
      'Asthma attack',
      'Back pain',
      'Diabetic foot',
    ]);
  });

  it('filters by status, with search', async () => {
    expect(await listNames(p.id, `?${filterQuery({ status: 'PUBLISHED' })}`)).toEqual(['Chest pain']);
    expect(await listNames(p.id, `?${filterQuery({ status: 'DRAFT' })}&search=pain`)).toEqual(['Back pain']);
  });

  it.each([
    ['an unknown sort field', 'sort=colour:ASC', 'querystring.sort'],
    ['a wrong sort direction', 'sort=name:UP', 'querystring.sort'],
    ['an unknown status', filterQuery({ status: 'GONE' }), 'querystring.filter.status'],
    ['an unknown filter key', filterQuery({ owner: 'me' }), 'querystring.filter'],
    ['a filter that is not JSON', 'filter=%7Bstatus', 'querystring.filter'],
    ['a page size over 200', 'limit=201', 'querystring.limit'],
  ])('refuses %s with 400', async (_label, query, field) => {
    const response = await call('GET', `/projects/${p.id}/cases?${query}`);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(response)).toContain(field);
  });
});

/* ---------- 5. isolation ---------- */

describe('isolation between clients and roles', () => {
  it('keeps client A’s cases, images and previews from client B’s administrator, and changes nothing', async () => {
    const p = await projectA();
    const pB = await newProject(f.clientB.id);
    const doc = await createCase(p);
    expect((await uploadImage(doc.id, onePixelPng())).statusCode).toBe(200);
    const preview = await call('POST', '/previews', { payload: { case_id: doc.id, answers: requiredAnswers(doc) } });
    expect(preview.statusCode).toBe(201);
    const previewId = preview.json<{ id: string }>().id;
    const theirCase = await createCase(pB, {}, f.asAdminB);

    const stored = await getCase(doc.id);
    const counts = { cases: await caseCount(), previews: await previewCount() };
    const b = { headers: f.asAdminB };
    const caseCalls: [Method, string, object?][] = [
      ['GET', `/cases/${doc.id}`],
      ['PUT', `/cases/${doc.id}`, validCase(pB)],
      ['DELETE', `/cases/${doc.id}`],
      ['POST', `/cases/${doc.id}/remove-project`],
      ['GET', `/cases/${doc.id}/status`],
      ['POST', `/cases/${doc.id}/status`, { status: 'PUBLISHED' }],
      ['GET', `/cases/${doc.id}/count`],
      ['POST', `/cases/${doc.id}/move`, { project_id: pB.id }],
      ['POST', `/cases/${doc.id}/duplicate`, {}],
      ['POST', `/cases/${doc.id}/duplicate-detach`, {}],
      ['GET', `/cases/${doc.id}/image`],
      ['DELETE', `/cases/${doc.id}/image`],
      ['GET', `/cases/${doc.id}/preview`],
      ['GET', `/cases/${doc.id}/feedback`],
      ['GET', `/cases/${doc.id}/previews`],
      ['POST', '/previews', { case_id: doc.id, answers: requiredAnswers(doc) }],
    ];
    for (const [method, url, payload] of caseCalls) {
      const response = await call(method, url, { ...b, payload });
      expect({ call: `${method} ${url}`, status: response.statusCode, code: response.json().errorCode }).toEqual({
        call: `${method} ${url}`,
        status: 404,
        code: 'CASE_NOT_FOUND',
      });
    }
    expectError(await uploadImage(doc.id, onePixelPng(), 'photo.png', f.asAdminB), 404, 'CASE_NOT_FOUND');
    expectError(await call('GET', `/previews/${previewId}`, b), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/previews/${previewId}`, b), 404, 'NOT_FOUND');
    expectError(await call('GET', `/projects/${p.id}/cases`, b), 404, 'PROJECT_NOT_FOUND');
    expectError(
      await call('POST', '/cases', { ...b, payload: { project_id: p.id, name: 'Planted' } }),
      404,
      'PROJECT_NOT_FOUND',
    );
    // Their own case cannot pull A's into a bulk delete or move either.
    expectError(
      await call('DELETE', `/cases/${theirCase.id}?${filterQuery({ ids: [doc.id] })}`, b),
      400,
      'CASES_FROM_WRONG_PROJECT',
    );
    expectError(
      await call('POST', `/cases/${theirCase.id}/move`, { ...b, payload: { project_id: p.id } }),
      404,
      'PROJECT_NOT_FOUND',
    );

    expect(await getCase(doc.id)).toEqual(stored);
    expect(await getCase(theirCase.id, f.asAdminB)).toEqual(theirCase);
    expect(await caseCount()).toBe(counts.cases);
    expect(await previewCount()).toBe(counts.previews);
    expect((await call('GET', `/previews/${previewId}`)).statusCode).toBe(200);
    expect((await call('GET', `/cases/${doc.id}/image`)).rawPayload).toEqual(onePixelPng());
  });

  it('refuses a participant’s token with 403 FORBIDDEN and no token with 401 NOT_AUTHORIZED', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    const participant = await createUser(ctx.db, { role: 'USER', clientId: f.clientA.id });
    const token = await createTokenService(ctx.config.sessionSecret, ctx.config.accessTokenTtlSeconds).signAccessToken(
      { userId: participant.id, role: 'USER', clientId: f.clientA.id },
      ctx.clock.now(),
    );
    const asParticipant = { authorization: `Bearer ${token}` };
    const calls: [Method, string, object?][] = [
      ['GET', `/cases/${doc.id}`],
      ['GET', `/projects/${p.id}/cases`],
      ['POST', '/cases', { project_id: p.id, name: 'Mine' }],
      ['PUT', `/cases/${doc.id}`, validCase(p)],
      ['DELETE', `/cases/${doc.id}`],
      ['GET', `/cases/${doc.id}/preview`],
      ['POST', '/previews', { case_id: doc.id, answers: requiredAnswers(doc) }],
    ];
    const before = await caseCount();
    for (const [method, url, payload] of calls) {
      const asUser = await call(method, url, { headers: asParticipant, payload });
      expect({ call: `${method} ${url}`, status: asUser.statusCode, code: asUser.json().errorCode }).toEqual({
        call: `${method} ${url}`,
        status: 403,
        code: 'FORBIDDEN',
      });
      const anonymous = await call(method, url, { headers: {}, payload });
      expect({ call: `${method} ${url}`, status: anonymous.statusCode, code: anonymous.json().errorCode }).toEqual({
        call: `${method} ${url}`,
        status: 401,
        code: 'NOT_AUTHORIZED',
      });
    }
    expect(await caseCount()).toBe(before);
    expect(await getCase(doc.id)).toEqual(doc);
    // The participant account cannot sign in as staff at all.
    expect(
      (
        await call('POST', '/auth/admin/login', {
          headers: {},
          payload: { email: participant.email, password: 'correct-horse-6' },
        })
      ).statusCode,
    ).toBe(401);
  });
});

/* ---------- 6. duplicates ---------- */

describe('duplicating', () => {
  it('copies a case as a new draft with new ids, remapped groupers and a link to its original', async () => {
    const p = await projectA();
    const original = await createCase(p);
    expect((await uploadImage(original.id, onePixelPng())).statusCode).toBe(200);
    expect((await setStatus(original.id, 'PUBLISHED')).statusCode).toBe(200);

    const response = await call('POST', `/cases/${original.id}/duplicate`);
    expect(response.statusCode).toBe(201);
    const copy = response.json<CaseDocument>();
    expect(copy).toMatchObject({
      ...contentOf(original),
      details_sections: original.details_sections.map(({ id: _id, ...s }) => s),
      groupers: original.groupers.map(({ id: _id, ...g }) => g),
      questions: original.questions.map(({ id: _id, grouper_id: _grouper, choices, ...q }) => ({
        ...q,
        choices: choices.map(({ id: _choice, ...c }) => c),
      })),
      name: 'Chest pain at rest (copy)',
      status: 'DRAFT',
      origin: 'CUSTOM',
      project_id: p.id,
      source_case_id: original.id,
      has_image: true,
    });
    expect(copy.id).not.toBe(original.id);

    const idsOf = (doc: CaseDocument) => [
      ...doc.details_sections.map((s) => s.id),
      ...doc.groupers.map((g) => g.id),
      ...doc.questions.flatMap((q) => [q.id, ...q.choices.map((c) => c.id)]),
    ];
    const copyIds = idsOf(copy);
    expect(new Set(copyIds).size).toBe(copyIds.length);
    expect(copyIds.filter((id) => idsOf(original).includes(id))).toEqual([]);
    // Questions point at the copy's groupers, in the same places.
    const grouperIndex = (doc: CaseDocument, id: string | null) =>
      id ? doc.groupers.findIndex((g) => g.id === id) : null;
    expect(copy.questions.map((q) => grouperIndex(copy, q.grouper_id))).toEqual([0, 0, null, null, null]);
    expect(original.questions.map((q) => grouperIndex(original, q.grouper_id))).toEqual([0, 0, null, null, null]);

    // The image is the copy's own.
    expect((await call('GET', `/cases/${copy.id}/image`)).rawPayload).toEqual(onePixelPng());
    expect((await call('DELETE', `/cases/${copy.id}/image`)).statusCode).toBe(200);
    expect((await call('GET', `/cases/${original.id}/image`)).statusCode).toBe(200);
    expect((await getCase(original.id)).status).toBe('PUBLISHED');
  });

  it('copies as an independent custom draft, and takes a new name', async () => {
    const p = await projectA();
    const original = await createCase(p);
    const detached = await call('POST', `/cases/${original.id}/duplicate-detach`);
    expect(detached.statusCode).toBe(201);
    expect(detached.json()).toMatchObject({
      source_case_id: null,
      origin: 'CUSTOM',
      status: 'DRAFT',
      name: 'Chest pain at rest (copy)',
    });

    const named = await call('POST', `/cases/${original.id}/duplicate`, { payload: { name: '  Second opinion  ' } });
    expect(named.json()).toMatchObject({ name: 'Second opinion', source_case_id: original.id });
    const namedDetached = await call('POST', `/cases/${original.id}/duplicate-detach`, { payload: { name: 'Third' } });
    expect(namedDetached.json()).toMatchObject({ name: 'Third', source_case_id: null });

    expect(await listNames(p.id)).toEqual([
      'Chest pain at rest',
      'Chest pain at rest (copy)',
      'Second opinion',
      'Third',
    ]);
  });

  it('keeps a copy’s name within the limit, and refuses a blank name or unknown field', async () => {
    const p = await projectA();
    const original = await createCase(p, { name: 'x'.repeat(200) });
    const copy = (await call('POST', `/cases/${original.id}/duplicate`)).json<CaseDocument>();
    expect(copy.name).toHaveLength(200);
    expect(copy.name.endsWith('x (copy)')).toBe(true);

    const before = await caseCount();
    expectError(
      await call('POST', `/cases/${original.id}/duplicate`, { payload: { name: ' ' } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call('POST', `/cases/${original.id}/duplicate`, { payload: { title: 'x' } }),
      400,
      'VALIDATION_ERROR',
    );
    expect(await caseCount()).toBe(before);
  });
});

/* ---------- 7. moving ---------- */

describe('moving cases between projects', () => {
  it('moves a case to another project of the client: listed there, out of its season', async () => {
    const from = await newProject(f.clientA.id, {
      seasons: [
        ...projectBody(f.clientA.id).seasons!,
        { name: 'Autumn 2025', rounds: [{ number: 1, start_date: '2025-09-01', end_date: '2025-09-30' }] },
      ],
    });
    const to = await projectA();
    const unplaced = await createCase(from, { name: 'Unplaced' });
    const past = await createCase(from, { name: 'Past', season_id: from.seasons['Autumn 2025']!, round_number: 1 });
    expect((await setStatus(past.id, 'PUBLISHED')).json()).toMatchObject({ status: 'PUBLISHED' });

    const moved = await call('POST', `/cases/${unplaced.id}/move`, {
      payload: { project_id: to.id, cases: { ids: [past.id] } },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json<{ ids: string[] }>().ids.sort()).toEqual([unplaced.id, past.id].sort());

    expect(await listNames(to.id)).toEqual(['Past', 'Unplaced']);
    expect(await listNames(from.id)).toEqual([]);
    expect(await getCase(past.id)).toMatchObject({
      project_id: to.id,
      client_id: f.clientA.id,
      season_id: null,
      season_name: null,
      round_number: null,
      status: 'PUBLISHED',
      questions: past.questions,
    });
  });

  it('moves a selection of all the project’s cases but some', async () => {
    const from = await projectA();
    const to = await projectA();
    const a = await createCase(from, { name: 'A' });
    await createCase(from, { name: 'B' });
    const c = await createCase(from, { name: 'C' });
    const moved = await call('POST', `/cases/${a.id}/move`, {
      payload: { project_id: to.id, cases: { all: true, except: [c.id] } },
    });
    expect(moved.statusCode).toBe(200);
    expect(await listNames(to.id)).toEqual(['A', 'B']);
    expect(await listNames(from.id)).toEqual(['C']);
  });

  it('refuses the moves it must, and each refused move changes nothing', async () => {
    const from = await newProject(f.clientA.id, {
      seasons: [
        ...projectBody(f.clientA.id).seasons!,
        { name: 'Autumn 2026', rounds: [{ number: 1, start_date: '2026-09-01', end_date: '2026-09-30' }] },
      ],
    });
    const to = await projectA();
    const theirs = await newProject(f.clientB.id);
    const noDisease = await newProject(f.clientA.id, { disease_types: ['Asthma'] });
    const noCategory = await newProject(f.clientA.id, { question_categories: ['Treatment'] });
    const neither = await newProject(f.clientA.id, { disease_types: ['Asthma'], question_categories: ['Treatment'] });

    const draft = await createCase(from, { name: 'Draft' });
    const active = await createCase(from, { name: 'Active', season_id: from.seasons['Spring 2026']!, round_number: 1 });
    expect((await setStatus(active.id, 'PUBLISHED')).json()).toMatchObject({ status: 'ACTIVE' });
    const current = await createCase(from, {
      name: 'Current',
      season_id: from.seasons['Spring 2026']!,
      round_number: 3,
    });
    const future = await createCase(from, { name: 'Future', season_id: from.seasons['Autumn 2026']!, round_number: 1 });
    const other = await createCase(to, { name: 'Other project' });

    const snapshot = async () => Promise.all([draft, active, current, future, other].map((c) => getCase(c.id)));
    const before = await snapshot();
    const move = (id: string, payload: object, headers: Headers = f.asAdminA) =>
      call('POST', `/cases/${id}/move`, { headers, payload });

    expectError(await move(draft.id, { project_id: theirs.id }), 404, 'PROJECT_NOT_FOUND');
    expectError(await move(draft.id, { project_id: theirs.id }, f.asSuperadmin), 404, 'PROJECT_NOT_FOUND');
    expectError(await move(draft.id, { project_id: randomUUID() }), 404, 'PROJECT_NOT_FOUND');
    expectError(await move(active.id, { project_id: to.id }), 409, 'CASE_IS_ACTIVE');
    expectError(await move(current.id, { project_id: to.id }), 409, 'CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON');
    expectError(await move(future.id, { project_id: to.id }), 409, 'CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON');
    // One refused case stops the whole selection.
    expectError(
      await move(draft.id, { project_id: to.id, cases: { ids: [current.id] } }),
      409,
      'CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON',
    );
    expectError(
      await move(draft.id, { project_id: to.id, cases: { ids: [other.id] } }),
      400,
      'CASES_FROM_DIFFERENT_PROJECTS',
    );
    expectError(
      await move(draft.id, { project_id: to.id, cases: { ids: [randomUUID()] } }),
      400,
      'CASES_FROM_DIFFERENT_PROJECTS',
    );
    expectError(await move(draft.id, { project_id: noDisease.id }), 422, 'WRONG_DISEASE_TYPE');
    expectError(await move(draft.id, { project_id: noCategory.id }), 422, 'PROJECT_MISSING_QUESTION_CATEGORIES');
    expectError(
      await move(draft.id, { project_id: neither.id }),
      422,
      'PROJECT_MISSING_QUESTION_CATEGORIES_AND_DISEASE_TYPES',
    );
    expectError(await move(draft.id, { project_id: from.id }), 400, 'VALIDATION_ERROR');
    expectError(await move(draft.id, { project_id: to.id, extra: true }), 400, 'VALIDATION_ERROR');

    expect(await snapshot()).toEqual(before);
    expect(await listNames(to.id)).toEqual(['Other project']);
    for (const target of [noDisease, noCategory, neither]) expect(await listNames(target.id)).toEqual([]);
  });
});

/* ---------- 8. deleting ---------- */

describe('deleting cases', () => {
  it('deletes one case', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    const response = await call('DELETE', `/cases/${doc.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ids: [doc.id] });
    expectError(await call('GET', `/cases/${doc.id}`), 404, 'CASE_NOT_FOUND');
    expectError(await call('DELETE', `/cases/${doc.id}`), 404, 'CASE_NOT_FOUND');
  });

  it('deletes chosen cases, or all but some', async () => {
    const p = await projectA();
    const [a, b, c, d, e] = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((name) => createCase(p, { name })));
    const chosen = await call('DELETE', `/cases/${a!.id}?${filterQuery({ ids: [b!.id] })}`);
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json<{ ids: string[] }>().ids.sort()).toEqual([a!.id, b!.id].sort());
    expect(await listNames(p.id)).toEqual(['C', 'D', 'E']);

    const allBut = await call('DELETE', `/cases/${c!.id}?${filterQuery({ all: true, except: [e!.id] })}`);
    expect(allBut.statusCode).toBe(200);
    expect(allBut.json<{ ids: string[] }>().ids.sort()).toEqual([c!.id, d!.id].sort());
    expect(await listNames(p.id)).toEqual(['E']);
  });

  it('refuses a selection reaching into another project, and deletes nothing', async () => {
    const p = await projectA();
    const q = await projectA();
    const mine = await createCase(p);
    const theirs = await createCase(q);
    const response = await call('DELETE', `/cases/${mine.id}?${filterQuery({ ids: [theirs.id] })}`);
    expectError(response, 400, 'CASES_FROM_WRONG_PROJECT');
    expect(response.json<{ details: { case_ids: string[] } }>().details.case_ids).toEqual([theirs.id]);
    expect((await call('GET', `/cases/${mine.id}`)).statusCode).toBe(200);
    expect((await call('GET', `/cases/${theirs.id}`)).statusCode).toBe(200);
  });

  it('refuses cases whose round has participants, even in a bulk delete, and deletes nothing', async () => {
    const p = await projectA();
    const spring = p.seasons['Spring 2026']!;
    await assignParticipant(p.id, spring, 2, 3);
    const taken = await createCase(p, { name: 'Taken', season_id: spring, round_number: 2 });
    const outside = await createCase(p, { name: 'Round 4', season_id: spring, round_number: 4 });
    const free = await createCase(p, { name: 'Free' });
    expect((await call('GET', `/cases/${taken.id}/count`)).json()).toMatchObject({ participants: 1 });
    expect((await call('GET', `/cases/${outside.id}/count`)).json()).toMatchObject({ participants: 0 });

    const before = await caseCount();
    expectError(await call('DELETE', `/cases/${taken.id}`), 409, 'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN');
    const bulk = await call('DELETE', `/cases/${free.id}?${filterQuery({ ids: [outside.id, taken.id] })}`);
    expectError(bulk, 409, 'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN');
    expect(bulk.json<{ details: { case_ids: string[] } }>().details.case_ids).toEqual([taken.id]);
    const all = await call('DELETE', `/cases/${free.id}?${filterQuery({ all: true })}`);
    expectError(all, 409, 'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN');
    expectError(await call('POST', `/cases/${taken.id}/remove-project`), 409, 'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN');
    expect(await caseCount()).toBe(before);
    expect(await listNames(p.id)).toEqual(['Free', 'Round 4', 'Taken']);

    // The round nobody takes may go.
    expect((await call('DELETE', `/cases/${outside.id}`)).statusCode).toBe(200);
  });

  it('refuses an active case', async () => {
    const p = await projectA();
    const active = await createCase(p, { season_id: p.seasons['Spring 2026']!, round_number: 1 });
    expect((await setStatus(active.id, 'PUBLISHED')).json()).toMatchObject({ status: 'ACTIVE' });
    expectError(await call('DELETE', `/cases/${active.id}`), 403, 'CHANGES_FORBIDDEN');
    expect((await getCase(active.id)).status).toBe('ACTIVE');
  });

  it('takes a case out of its project', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    const response = await call('POST', `/cases/${doc.id}/remove-project`);
    expect(response.statusCode).toBe(204);
    expect(response.rawPayload).toHaveLength(0);
    expectError(await call('GET', `/cases/${doc.id}`), 404, 'CASE_NOT_FOUND');
    expect(await listNames(p.id)).toEqual([]);
  });

  it.each([
    ['not JSON', 'filter=%7Bids'],
    ['neither ids nor all', filterQuery({ some: true })],
    ['ids that are not uuids', filterQuery({ ids: ['x'] })],
    ['an empty id list', filterQuery({ ids: [] })],
    ['all: false', filterQuery({ all: false })],
  ])('refuses a filter that is %s, and deletes nothing', async (_label, query) => {
    const p = await projectA();
    const doc = await createCase(p);
    const response = await call('DELETE', `/cases/${doc.id}?${query}`);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(response)).toEqual(['querystring.filter']);
    expect((await call('GET', `/cases/${doc.id}`)).statusCode).toBe(200);
  });
});

/* ---------- 9. the patient image ---------- */

describe('the patient image', () => {
  it('stores a PNG by its content and serves the same bytes', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    const png = onePixelPng();
    const uploaded = await uploadImage(doc.id, png, 'scan.PNG');
    expect(uploaded.statusCode).toBe(200);
    expect(uploaded.json()).toMatchObject({ id: doc.id, has_image: true });

    const image = await call('GET', `/cases/${doc.id}/image`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.rawPayload.equals(png)).toBe(true);
  });

  it('takes a JPEG whatever its name, replacing the image there was', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    expect((await uploadImage(doc.id, onePixelPng())).statusCode).toBe(200);
    const uploaded = await uploadImage(doc.id, JPEG_HEAD, 'photo.bin');
    expect(uploaded.statusCode).toBe(200);
    const image = await call('GET', `/cases/${doc.id}/image`);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.rawPayload.equals(JPEG_HEAD)).toBe(true);
  });

  it('refuses a program renamed photo.png and a file over 5 MB, keeping the image there was', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    const png = onePixelPng();
    expect((await uploadImage(doc.id, png)).statusCode).toBe(200);
    const stored = await getCase(doc.id);

    const exe = Buffer.concat([
      Buffer.from('MZ', 'latin1'),
      Buffer.from([0x90, 0, 3, 0, 0, 0, 4, 0]),
      Buffer.alloc(128),
    ]);
    const renamed = await uploadImage(doc.id, exe, 'photo.png');
    expectError(renamed, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(renamed)).toEqual(['body.file']);

    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]);
    expectError(await uploadImage(doc.id, big), 413, 'PAYLOAD_TOO_LARGE');
    expectError(await call('POST', `/cases/${doc.id}/image`, { payload: { file: 'x' } }), 400, 'VALIDATION_ERROR');

    expect(await getCase(doc.id)).toEqual(stored);
    expect(stored.has_image).toBe(true);
    expect((await call('GET', `/cases/${doc.id}/image`)).rawPayload.equals(png)).toBe(true);
  });

  it('removes the image; a case without one has no image to get', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    expectError(await call('GET', `/cases/${doc.id}/image`), 404, 'NOT_FOUND');
    expect((await uploadImage(doc.id, onePixelPng())).statusCode).toBe(200);
    const removed = await call('DELETE', `/cases/${doc.id}/image`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ has_image: false });
    expect((await getCase(doc.id)).has_image).toBe(false);
    expectError(await call('GET', `/cases/${doc.id}/image`), 404, 'NOT_FOUND');
  });
});

/* ---------- 10. RTF ---------- */

describe('reading an RTF file', () => {
  const readRtf = (content: string | Buffer, fileName = 'case.rtf') => {
    const file = multipartFile(content, fileName);
    return call('POST', '/cases/rtf', { headers: { ...f.asAdminA, ...file.headers }, payload: file.payload });
  };

  it('fills the case fields from labelled paragraphs, escaping markup typed in the text', async () => {
    const before = await caseCount();
    const rtf = [
      '{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Calibri;}}',
      "\\pard Case name: Chest pain in a caf\\'e9 owner\\par",
      "Patient name: Ren\\'e9e Dupont\\par",
      'Age: 54\\par',
      'Reason for encounter: Crushing chest pain <script>alert(1)</script>\\par',
      'Physical examination:\\par',
      'BP 150/90, HR 110.\\par',
      'Sweaty & pale.\\par',
      '}',
    ].join('\r\n');
    const response = await readRtf(rtf);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      name: 'Chest pain in a café owner',
      patient_name: 'Renée Dupont',
      patient_age: 54,
      reason_for_encounter: '<p>Crushing chest pain &lt;script&gt;alert(1)&lt;/script&gt;</p>',
      details_sections: [{ name: 'Physical examination', text: '<p>BP 150/90, HR 110.</p><p>Sweaty &amp; pale.</p>' }],
    });
    // Nothing is saved.
    expect(await caseCount()).toBe(before);
  });

  it('refuses a PNG renamed .rtf and a request without a file', async () => {
    const response = await readRtf(onePixelPng(), 'case.rtf');
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(response)).toEqual(['body.file']);
    expectError(await call('POST', '/cases/rtf', { payload: {} }), 400, 'VALIDATION_ERROR');
    expectError(await call('POST', '/cases/rtf', { headers: {} }), 401, 'NOT_AUTHORIZED');
  });
});
