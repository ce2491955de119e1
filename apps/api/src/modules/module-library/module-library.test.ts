import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import type {
  CaseDocument,
  CaseStatusReport,
  CaseSummary,
  CatalogueEntry,
  CreateProjectBody,
  ModuleBody,
  ModuleLibrary,
  ModuleSummary,
  Project,
  UpdateCaseBody,
} from '@pss/contract';
import { cases, modules, participantAssignments, projectParticipants } from '../../db/schema/index.js';
import { createTestContext, createUser, type TestContext } from '../../../test/test-app.js';
import { projectBody, twoClients, type Headers } from '../../../test/fixtures.js';
import { validCase } from '../../../test/case-bodies.js';

let ctx: TestContext;
let f: Awaited<ReturnType<typeof twoClients>>;

const NOW = '2026-03-02T09:00:00Z';

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW });
  f = await twoClients(ctx);
});
afterAll(() => ctx.close());

/* ---------- helpers ---------- */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** What the tests read of an answer (light-my-request's response fits it). */
interface Reply {
  statusCode: number;
  json<T = { errorCode?: string; details?: { fields?: { field: string; errorCode?: string }[] } }>(): T;
}

/** Calls the API, as the superadmin unless told otherwise: module libraries are theirs. */
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

const fieldIssues = (response: Reply) => response.json().details?.fields ?? [];

/** Where a case lives, with the catalogue ids a valid case of it uses. */
interface Home {
  id: string;
  diseaseTypeId: string;
  categoryId: string;
}
interface ProjectFacts extends Home {
  /** Season ids by name. */
  seasons: Record<string, string>;
}

const entryId = (entries: CatalogueEntry[], name: string) =>
  entries.find((e) => e.name.toLowerCase() === name.toLowerCase())!.id;

async function newProject(clientId: string, overrides: Partial<CreateProjectBody> = {}): Promise<ProjectFacts> {
  const body = projectBody(clientId, overrides);
  const created = await call('POST', '/projects', { payload: body });
  expect(created.statusCode).toBe(201);
  const project = (await call('GET', `/projects/${created.json<Project>().id}`)).json<Project>();
  return {
    id: project.id,
    diseaseTypeId: entryId(project.disease_types, body.disease_types[0]!),
    categoryId: entryId(project.question_categories, body.question_categories[0]!),
    seasons: Object.fromEntries(project.seasons.map((s) => [s.name, s.id])),
  };
}

const projectA = (overrides: Partial<CreateProjectBody> = {}) => newProject(f.clientA.id, overrides);

let moduleCounter = 0;
function moduleBody(overrides: Partial<ModuleBody> = {}): ModuleBody {
  moduleCounter += 1;
  return {
    name: `Module ${moduleCounter}`,
    description: null,
    disease_types: ['Diabetes'],
    question_categories: ['Diagnosis'],
    ...overrides,
  };
}

/** A module library (Diabetes, Diagnosis unless told otherwise); its first names are the ones cases use. */
async function newModule(overrides: Partial<ModuleBody> = {}): Promise<Home & { module: ModuleLibrary }> {
  const body = moduleBody(overrides);
  const created = await call('POST', '/module-library', { payload: body });
  expect(created.statusCode).toBe(201);
  const module = created.json<ModuleLibrary>();
  return {
    id: module.id,
    diseaseTypeId: entryId(module.disease_types, body.disease_types[0]!),
    categoryId: entryId(module.question_categories, body.question_categories[0]!),
    module,
  };
}

/** A module case saved whole with `validCase` (and the overrides). */
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

const getCase = async (id: string, headers: Headers = f.asSuperadmin) =>
  (await call('GET', `/cases/${id}`, { headers })).json<CaseDocument>();

const setStatus = (id: string, status: 'DRAFT' | 'PUBLISHED') =>
  call('POST', `/cases/${id}/status`, { payload: { status } });

const filterQuery = (filter: object) => `filter=${encodeURIComponent(JSON.stringify(filter))}`;

async function projectCases(projectId: string): Promise<CaseSummary[]> {
  const response = await call('GET', `/projects/${projectId}/cases?limit=200`);
  expect(response.statusCode).toBe(200);
  return response.json<{ items: CaseSummary[] }>().items;
}

async function moduleCases(moduleId: string, query = ''): Promise<CaseSummary[]> {
  const response = await call('GET', `/module-library/${moduleId}/cases?limit=200${query ? `&${query}` : ''}`);
  expect(response.statusCode).toBe(200);
  return response.json<{ items: CaseSummary[] }>().items;
}

const ids = (items: { id: string }[]) => items.map((i) => i.id).sort();
const names = (items: { name: string }[]) => items.map((i) => i.name);
const caseCount = async () => (await ctx.db.select({ n: count() }).from(cases))[0]!.n;
const moduleCount = async () => (await ctx.db.select({ n: count() }).from(modules))[0]!.n;

/** Answers every required question of a case with its first choice. */
function requiredAnswers(doc: CaseDocument) {
  return doc.questions.filter((q) => q.required).map((q) => ({ question_id: q.id, choice_ids: [q.choices[0]!.id] }));
}

/** Every id inside a case's content: sections, groupers, questions, choices. */
const innerIds = (doc: CaseDocument) => [
  ...doc.details_sections.map((s) => s.id),
  ...doc.groupers.map((g) => g.id),
  ...doc.questions.flatMap((q) => [q.id, ...q.choices.map((c) => c.id)]),
];

/* ---------- 1. module libraries ---------- */

describe('module libraries', () => {
  it('creates a module, finding disease types and categories by name in any case and creating the rest', async () => {
    const p = await projectA();
    const response = await call('POST', '/module-library', {
      payload: {
        name: '  Cardiology basics  ',
        description: '  For new clinicians. ',
        disease_types: ['diabetes', 'Hypertension', 'DIABETES'],
        question_categories: ['DIAGNOSIS', 'Work-up', 'work-UP'],
      },
    });
    expect(response.statusCode).toBe(201);
    const created = response.json<ModuleLibrary>();
    expect(created).toMatchObject({
      name: 'Cardiology basics',
      description: 'For new clinicians.',
      case_count: 0,
      // The project's entries, by the name they were first given; new ones as typed first.
      disease_types: [
        { id: p.diseaseTypeId, name: 'Diabetes' },
        { id: expect.any(String), name: 'Hypertension' },
      ],
      question_categories: [
        { id: p.categoryId, name: 'Diagnosis' },
        { id: expect.any(String), name: 'Work-up' },
      ],
    });
    expect((await call('GET', `/module-library/${created.id}`)).json()).toEqual(created);

    // The new entries are catalogue entries like any other, found again by name.
    const hypertension = (await call('GET', '/disease-types?search=hypertension')).json<{ items: CatalogueEntry[] }>();
    expect(hypertension.items).toEqual([created.disease_types[1]]);
    const again = await newModule({ disease_types: ['HYPERTENSION'], question_categories: ['work-up'] });
    expect(again.module.disease_types).toEqual([created.disease_types[1]]);
    expect(again.module.question_categories).toEqual([created.question_categories[1]]);
  });

  it('edits a module: name, description and catalogues replaced', async () => {
    const m = await newModule({ disease_types: ['Diabetes', 'Asthma'], question_categories: ['Diagnosis'] });
    const response = await call('PUT', `/module-library/${m.id}`, {
      payload: {
        name: 'Respiratory',
        description: 'Lungs',
        disease_types: ['asthma', 'COPD'],
        question_categories: ['Treatment'],
      },
    });
    expect(response.statusCode).toBe(200);
    const edited = response.json<ModuleLibrary>();
    expect(edited).toMatchObject({
      id: m.id,
      name: 'Respiratory',
      description: 'Lungs',
      disease_types: [
        { id: entryId(m.module.disease_types, 'Asthma'), name: 'Asthma' },
        { id: expect.any(String), name: 'COPD' },
      ],
      question_categories: [{ id: expect.any(String), name: 'Treatment' }],
      updated_at: new Date(NOW).toISOString(),
    });
    expect((await call('GET', `/module-library/${m.id}`)).json()).toEqual(edited);

    // Its own name, in another case, is not a duplicate.
    const renamed = await call('PUT', `/module-library/${m.id}`, {
      payload: { ...moduleBody(), name: 'RESPIRATORY', description: '' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'RESPIRATORY', description: null });
  });

  it('refuses a name another module has, in any case, and creates or changes nothing', async () => {
    const first = await newModule({ name: 'Endocrinology' });
    const second = await newModule({ name: 'Nephrology' });
    const before = await moduleCount();

    const duplicate = await call('POST', '/module-library', { payload: moduleBody({ name: ' endocrinology ' }) });
    expectError(duplicate, 400, 'VALIDATION_ERROR');
    expect(fieldIssues(duplicate).map((i) => i.field)).toEqual(['body.name']);

    const renamed = await call('PUT', `/module-library/${second.id}`, {
      payload: moduleBody({ name: 'ENDOCRINOLOGY', disease_types: ['Gout'] }),
    });
    expectError(renamed, 400, 'VALIDATION_ERROR');
    expect(fieldIssues(renamed).map((i) => i.field)).toEqual(['body.name']);

    expect(await moduleCount()).toBe(before);
    expect((await call('GET', `/module-library/${first.id}`)).json()).toEqual(first.module);
    expect((await call('GET', `/module-library/${second.id}`)).json()).toEqual(second.module);
  });

  it('needs a name, a disease type and a question category', async () => {
    const before = await moduleCount();
    const noDisease = await call('POST', '/module-library', { payload: moduleBody({ disease_types: [] }) });
    expectError(noDisease, 400, 'VALIDATION_ERROR');
    expect(fieldIssues(noDisease)).toEqual([
      expect.objectContaining({ field: 'body.disease_types', errorCode: 'PROJECT_DISEASE_TYPE_REQUIRED' }),
    ]);

    const noCategory = await call('POST', '/module-library', { payload: moduleBody({ question_categories: [] }) });
    expectError(noCategory, 400, 'VALIDATION_ERROR');
    expect(fieldIssues(noCategory)).toEqual([
      expect.objectContaining({ field: 'body.question_categories', errorCode: 'PROJECT_QUESTION_CATEGORY_REQUIRED' }),
    ]);

    const blankName = await call('POST', '/module-library', { payload: moduleBody({ name: '   ' }) });
    expectError(blankName, 400, 'VALIDATION_ERROR');
    expect(fieldIssues(blankName).map((i) => i.field)).toEqual(['body.name']);

    const unknownField = await call('POST', '/module-library', {
      payload: { ...moduleBody(), client_id: randomUUID() },
    });
    expectError(unknownField, 400, 'VALIDATION_ERROR');

    const m = await newModule();
    const editWithout = await call('PUT', `/module-library/${m.id}`, {
      payload: moduleBody({ disease_types: ['  '] }),
    });
    expectError(editWithout, 400, 'VALIDATION_ERROR');
    expect((await call('GET', `/module-library/${m.id}`)).json()).toEqual(m.module);
    expect(await moduleCount()).toBe(before + 1);
  });

  it('answers 404 NOT_FOUND for a module that does not exist, and 400 for an id that is not one', async () => {
    const unknown = randomUUID();
    const calls: [Method, string, object?][] = [
      ['GET', `/module-library/${unknown}`],
      ['PUT', `/module-library/${unknown}`, moduleBody()],
      ['DELETE', `/module-library/${unknown}`],
      ['GET', `/module-library/${unknown}/cases`],
      ['GET', `/module-library/${unknown}/disease-types`],
      ['GET', `/module-library/${unknown}/question-categories`],
      ['GET', `/module-library/${unknown}/associated-projects`],
      ['DELETE', `/module-library/${unknown}/remove-cases?${filterQuery({ all: true })}`],
    ];
    const before = await moduleCount();
    for (const [method, url, payload] of calls) {
      const response = await call(method, url, { payload });
      expect({ call: `${method} ${url}`, status: response.statusCode, code: response.json().errorCode }).toEqual({
        call: `${method} ${url}`,
        status: 404,
        code: 'NOT_FOUND',
      });
    }
    expectError(await call('GET', '/module-library/not-an-id'), 400, 'VALIDATION_ERROR');
    expect(await moduleCount()).toBe(before);
  });

  it('deletes an empty module, and refuses one with cases', async () => {
    const empty = await newModule();
    const deleted = await call('DELETE', `/module-library/${empty.id}`);
    expect(deleted.statusCode).toBe(204);
    expectError(await call('GET', `/module-library/${empty.id}`), 404, 'NOT_FOUND');

    const full = await newModule();
    const doc = await createModuleCase(full);
    expectError(await call('DELETE', `/module-library/${full.id}`), 409, 'ASSOCIATED_ITEMS_DELETE_FORBIDDEN');
    expect((await call('GET', `/module-library/${full.id}`)).json()).toMatchObject({ id: full.id, case_count: 1 });
    expect(await getCase(doc.id)).toEqual(doc);

    // Emptied, it goes.
    const removed = await call('DELETE', `/module-library/${full.id}/remove-cases?${filterQuery({ ids: [doc.id] })}`);
    expect(removed.statusCode).toBe(200);
    expect((await call('DELETE', `/module-library/${full.id}`)).statusCode).toBe(204);
  });

  it('lists modules: searched by name, sorted by name or case count, paged', async () => {
    const beta = await newModule({ name: 'Listed beta' });
    const alpha = await newModule({ name: 'listed Alpha' });
    const gamma = await newModule({ name: 'Listed gamma' });
    await createModuleCase(beta, { name: 'One' });
    await createModuleCase(beta, { name: 'Two' });
    await createModuleCase(gamma, { name: 'Three' });

    const list = async (query: string) => {
      const response = await call('GET', `/module-library?search=LISTED${query}`);
      expect(response.statusCode).toBe(200);
      return response.json<{ items: ModuleSummary[]; total: number; page: number; limit: number }>();
    };
    const byName = await list('');
    expect(byName).toMatchObject({ total: 3, page: 1, limit: 25 });
    expect(byName.items.map((m) => [m.name, m.case_count])).toEqual([
      ['listed Alpha', 0],
      ['Listed beta', 2],
      ['Listed gamma', 1],
    ]);
    expect(byName.items[0]).toEqual({
      id: alpha.id,
      name: 'listed Alpha',
      description: null,
      case_count: 0,
      created_at: alpha.module.created_at,
      updated_at: alpha.module.updated_at,
    });
    expect(names((await list('&sort=name:DESC')).items)).toEqual(['Listed gamma', 'Listed beta', 'listed Alpha']);
    expect(names((await list('&sort=case_count:DESC')).items)).toEqual(['Listed beta', 'Listed gamma', 'listed Alpha']);
    expect(names((await list('&sort=case_count')).items)).toEqual(['listed Alpha', 'Listed gamma', 'Listed beta']);

    const second = await list('&sort=name&limit=2&page=2');
    expect(second).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(names(second.items)).toEqual(['Listed gamma']);
    expect(names((await list('&sort=name&limit=2')).items)).toEqual(['listed Alpha', 'Listed beta']);
    expect(
      names(
        (await call('GET', '/module-library?search=d%20gam').then((r) => r.json<{ items: ModuleSummary[] }>())).items,
      ),
    ).toEqual(['Listed gamma']);

    expectError(await call('GET', '/module-library?sort=client_name'), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/module-library?limit=0'), 400, 'VALIDATION_ERROR');
  });

  it('pages a module’s disease types and question categories by name', async () => {
    const m = await newModule({
      disease_types: ['Gout', 'asthma', 'Diabetes'],
      question_categories: ['Treatment', 'Diagnosis', 'Follow-up'],
    });
    type Page = { items: CatalogueEntry[]; total: number; page: number; limit: number };
    const page = async (kind: string, query: string) => {
      const response = await call('GET', `/module-library/${m.id}/${kind}${query}`);
      expect(response.statusCode).toBe(200);
      return response.json<Page>();
    };

    const diseases = await page('disease-types', '');
    expect(diseases).toMatchObject({ total: 3, page: 1, limit: 25 });
    expect(diseases.items).toEqual(m.module.disease_types);
    expect(names(diseases.items)).toEqual(['Asthma', 'Diabetes', 'Gout']);
    const secondPage = await page('disease-types', '?limit=2&page=2');
    expect(secondPage).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(names(secondPage.items)).toEqual(['Gout']);
    expect(names((await page('disease-types', '?sort=name:DESC&limit=2')).items)).toEqual(['Gout', 'Diabetes']);
    const searched = await page('disease-types', '?search=GOU');
    expect(searched).toMatchObject({ total: 1 });
    expect(names(searched.items)).toEqual(['Gout']);

    const categories = await page('question-categories', '?limit=1');
    expect(categories).toMatchObject({ total: 3, limit: 1 });
    expect(names(categories.items)).toEqual(['Diagnosis']);
    expect(names((await page('question-categories', '?sort=name:DESC')).items)).toEqual([
      'Treatment',
      'Follow-up',
      'Diagnosis',
    ]);
    expect(names((await page('question-categories', '?search=follow')).items)).toEqual(['Follow-up']);
  });
});

/* ---------- 2. access ---------- */

describe('access', () => {
  it('refuses every module library call to a client administrator (403) and without a token (401)', async () => {
    const m = await newModule();
    const other = await newModule();
    const doc = await createModuleCase(m);
    const p = await projectA();
    const projectCase = await createProjectCase(p);
    const moduleBefore = (await call('GET', `/module-library/${m.id}`)).json();
    const before = { modules: await moduleCount(), cases: await caseCount() };

    const calls: [Method, string, object?][] = [
      ['GET', '/module-library'],
      ['POST', '/module-library', moduleBody()],
      ['GET', `/module-library/${m.id}`],
      ['PUT', `/module-library/${m.id}`, moduleBody()],
      ['DELETE', `/module-library/${other.id}`],
      ['GET', `/module-library/${m.id}/cases`],
      ['DELETE', `/module-library/${m.id}/remove-cases?${filterQuery({ ids: [doc.id] })}`],
      ['GET', `/module-library/${m.id}/disease-types`],
      ['GET', `/module-library/${m.id}/question-categories`],
      ['GET', `/module-library/${m.id}/associated-projects`],
      ['POST', '/module-library/cases/to-project', { project_id: p.id, case_ids: [doc.id] }],
      ['POST', '/module-library/cases/modules', { module_id: other.id, case_ids: [doc.id] }],
      ['POST', `/cases/${projectCase.id}/move-to-module`, { module_id: m.id }],
    ];
    for (const [method, url, payload] of calls) {
      const asAdmin = await call(method, url, { headers: f.asAdminA, payload });
      expect({ call: `${method} ${url}`, status: asAdmin.statusCode, code: asAdmin.json().errorCode }).toEqual({
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

    expect({ modules: await moduleCount(), cases: await caseCount() }).toEqual(before);
    expect((await call('GET', `/module-library/${m.id}`)).json()).toEqual(moduleBefore);
    expect((await call('GET', `/module-library/${other.id}`)).statusCode).toBe(200);
    expect(await getCase(doc.id)).toEqual(doc);
    expect(await getCase(projectCase.id, f.asAdminA)).toEqual(projectCase);
    expect(await projectCases(p.id)).toHaveLength(1);
  });

  it('hides a module case from client administrators as CASE_NOT_FOUND, and changes nothing', async () => {
    const m = await newModule();
    const doc = await createModuleCase(m);
    const before = await caseCount();
    const calls: [Method, string, object?][] = [
      ['GET', `/cases/${doc.id}`],
      ['PUT', `/cases/${doc.id}`, validCase(m)],
      ['DELETE', `/cases/${doc.id}`],
      ['GET', `/cases/${doc.id}/status`],
      ['POST', `/cases/${doc.id}/status`, { status: 'PUBLISHED' }],
      ['GET', `/cases/${doc.id}/count`],
      ['POST', `/cases/${doc.id}/duplicate`, {}],
      ['GET', `/cases/${doc.id}/preview`],
      ['GET', `/cases/${doc.id}/previews`],
      ['POST', '/previews', { case_id: doc.id, answers: requiredAnswers(doc) }],
    ];
    for (const headers of [f.asAdminA, f.asAdminB]) {
      for (const [method, url, payload] of calls) {
        const response = await call(method, url, { headers, payload });
        expect({ call: `${method} ${url}`, status: response.statusCode, code: response.json().errorCode }).toEqual({
          call: `${method} ${url}`,
          status: 404,
          code: 'CASE_NOT_FOUND',
        });
      }
    }
    expect(await caseCount()).toBe(before);
    expect(await getCase(doc.id)).toEqual(doc);
  });

  it('lets only a superadmin create a module case, and needs exactly one of project_id and module_id', async () => {
    const m = await newModule();
    const p = await projectA();
    const before = await caseCount();

    expectError(
      await call('POST', '/cases', { headers: f.asAdminA, payload: { module_id: m.id, name: 'Planted' } }),
      403,
      'FORBIDDEN',
    );
    const both = await call('POST', '/cases', { payload: { project_id: p.id, module_id: m.id, name: 'Both' } });
    expectError(both, 400, 'VALIDATION_ERROR');
    expect(fieldIssues(both).map((i) => i.field)).toEqual(['body.project_id']);
    const neither = await call('POST', '/cases', { payload: { name: 'Neither' } });
    expectError(neither, 400, 'VALIDATION_ERROR');
    expect(fieldIssues(neither).map((i) => i.field)).toEqual(['body.project_id']);
    expectError(
      await call('POST', '/cases', { headers: f.asAdminA, payload: { project_id: p.id, module_id: m.id, name: 'B' } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await call('POST', '/cases', { payload: { module_id: randomUUID(), name: 'Lost' } }), 404, 'NOT_FOUND');

    expect(await caseCount()).toBe(before);
    expect(await moduleCases(m.id)).toEqual([]);
    expect(await projectCases(p.id)).toEqual([]);
  });
});

/* ---------- 3. module cases ---------- */

describe('module cases', () => {
  it('creates a draft in a module and saves it whole with the module’s catalogue entries', async () => {
    const m = await newModule();
    const created = await call('POST', '/cases', {
      payload: { module_id: m.id, name: '  Thirsty all day ', disease_type_id: m.diseaseTypeId },
    });
    expect(created.statusCode).toBe(201);
    const draft = created.json<CaseDocument>();
    expect(draft).toMatchObject({
      origin: 'MODULE_LIBRARY',
      project_id: null,
      client_id: null,
      status: 'DRAFT',
      name: 'Thirsty all day',
      disease_type_id: m.diseaseTypeId,
      disease_type_name: 'Diabetes',
      source_case_id: null,
    });

    const saved = await call('PUT', `/cases/${draft.id}`, { payload: validCase(m, { name: 'Thirsty all day' }) });
    expect(saved.statusCode).toBe(200);
    const doc = saved.json<CaseDocument>();
    expect(doc).toMatchObject({
      id: draft.id,
      origin: 'MODULE_LIBRARY',
      project_id: null,
      name: 'Thirsty all day',
      season_id: null,
      round_number: null,
    });
    expect(doc.questions.map((q) => q.category_id)).toEqual([m.categoryId, m.categoryId, m.categoryId, m.categoryId]);
    expect(await getCase(doc.id)).toEqual(doc);
    expect((await call('GET', `/module-library/${m.id}`)).json()).toMatchObject({ case_count: 1 });
  });

  it('refuses a season, a disease type or a category that are not the module’s, keeping the stored case', async () => {
    const m = await newModule();
    const p = await projectA({ disease_types: ['Asthma'], question_categories: ['Treatment'] });
    const doc = await createModuleCase(m);
    const before = await caseCount();

    const withSeason = await call('PUT', `/cases/${doc.id}`, {
      payload: validCase(m, { season_id: p.seasons['Spring 2026']!, round_number: 2 }),
    });
    expectError(withSeason, 400, 'VALIDATION_ERROR');
    expect(fieldIssues(withSeason).map((i) => i.field)).toEqual(['body.season_id']);
    expectError(
      await call('PUT', `/cases/${doc.id}`, { payload: validCase(m, { disease_type_id: p.diseaseTypeId }) }),
      422,
      'WRONG_DISEASE_TYPE',
    );
    expectError(
      await call('PUT', `/cases/${doc.id}`, { payload: validCase({ ...m, categoryId: p.categoryId }) }),
      422,
      'PROJECT_MISSING_QUESTION_CATEGORIES',
    );
    expectError(
      await call('PUT', `/cases/${doc.id}`, {
        payload: validCase({ ...m, ...{ diseaseTypeId: p.diseaseTypeId, categoryId: p.categoryId } }),
      }),
      422,
      'PROJECT_MISSING_QUESTION_CATEGORIES_AND_DISEASE_TYPES',
    );
    expectError(
      await call('POST', '/cases', { payload: { module_id: m.id, name: 'Wrong', disease_type_id: p.diseaseTypeId } }),
      422,
      'WRONG_DISEASE_TYPE',
    );

    expect(await getCase(doc.id)).toEqual(doc);
    expect(await caseCount()).toBe(before);
  });

  it('checks and publishes a module case; a published one is read-only', async () => {
    const m = await newModule();
    const doc = await createModuleCase(m);
    const status = await call('GET', `/cases/${doc.id}/status`);
    expect(status.statusCode).toBe(200);
    expect(status.json<CaseStatusReport>()).toEqual({ id: doc.id, status: 'DRAFT', valid: true, problems: [] });

    const published = await setStatus(doc.id, 'PUBLISHED');
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({ id: doc.id, status: 'PUBLISHED', origin: 'MODULE_LIBRARY' });
    expect((await call('GET', `/cases/${doc.id}/status`)).json()).toEqual({
      id: doc.id,
      status: 'PUBLISHED',
      valid: true,
      problems: [],
    });
    expectError(await call('PUT', `/cases/${doc.id}`, { payload: validCase(m) }), 403, 'CHANGES_FORBIDDEN');

    // An incomplete draft is listed with its problems, and not published.
    const incomplete = await call('POST', '/cases', { payload: { module_id: m.id, name: 'Bare' } });
    const bare = incomplete.json<CaseDocument>();
    const report = (await call('GET', `/cases/${bare.id}/status`)).json<CaseStatusReport>();
    expect(report).toMatchObject({ status: 'DRAFT', valid: false });
    expect(report.problems.length).toBeGreaterThan(0);
    expectError(await setStatus(bare.id, 'PUBLISHED'), 422, 'CASE_INVALID_FOR_PUBLISH');
    expect((await getCase(bare.id)).status).toBe('DRAFT');
  });

  it('lists a module’s cases, searched and filtered by status', async () => {
    const m = await newModule();
    const other = await newModule();
    const chest = await createModuleCase(m, { name: 'Chest pain', patient_name: 'Ann' });
    await createModuleCase(m, { name: 'Headache', patient_name: 'Bob' });
    await createModuleCase(m, { name: 'Fever', patient_name: 'Chester' });
    await createModuleCase(other, { name: 'Elsewhere' });
    expect((await setStatus(chest.id, 'PUBLISHED')).statusCode).toBe(200);

    const page = await call('GET', `/module-library/${m.id}/cases?limit=2`);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 3, page: 1, limit: 2 });
    const all = await moduleCases(m.id);
    expect(names(all)).toEqual(['Chest pain', 'Fever', 'Headache']);
    expect(all[0]).toMatchObject({
      id: chest.id,
      project_id: null,
      origin: 'MODULE_LIBRARY',
      status: 'PUBLISHED',
      patient_name: 'Ann',
      disease_type_name: 'Diabetes',
      season_name: null,
      round_number: null,
      question_count: 4,
    });
    expect(names(await moduleCases(m.id, 'search=CHEST'))).toEqual(['Chest pain', 'Fever']);
    expect(names(await moduleCases(m.id, filterQuery({ status: 'PUBLISHED' })))).toEqual(['Chest pain']);
    expect(names(await moduleCases(m.id, `${filterQuery({ status: 'DRAFT' })}&sort=name:DESC`))).toEqual([
      'Headache',
      'Fever',
    ]);
    expect(names(await moduleCases(m.id, `search=chester&${filterQuery({ status: 'DRAFT' })}`))).toEqual(['Fever']);
    expectError(
      await call('GET', `/module-library/${m.id}/cases?${filterQuery({ status: 'GONE' })}`),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('duplicates a module case within its module, a detached duplicate too, both module cases', async () => {
    const m = await newModule();
    const original = await createModuleCase(m, { name: 'Original' });
    const linked = await call('POST', `/cases/${original.id}/duplicate`, { payload: {} });
    expect(linked.statusCode).toBe(201);
    expect(linked.json()).toMatchObject({
      name: 'Original (copy)',
      origin: 'MODULE_LIBRARY',
      project_id: null,
      client_id: null,
      source_case_id: original.id,
    });
    const detached = await call('POST', `/cases/${original.id}/duplicate-detach`, { payload: { name: 'Detached' } });
    expect(detached.statusCode).toBe(201);
    expect(detached.json()).toMatchObject({
      name: 'Detached',
      origin: 'MODULE_LIBRARY',
      project_id: null,
      client_id: null,
      source_case_id: null,
    });
    expect((await moduleCases(m.id)).map((c) => [c.name, c.origin])).toEqual([
      ['Detached', 'MODULE_LIBRARY'],
      ['Original', 'MODULE_LIBRARY'],
      ['Original (copy)', 'MODULE_LIBRARY'],
    ]);
  });

  it('lets a superadmin preview a module case', async () => {
    const m = await newModule();
    const doc = await createModuleCase(m);
    const shown = await call('GET', `/cases/${doc.id}/preview`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ id: doc.id, name: doc.name });

    const response = await call('POST', '/previews', { payload: { case_id: doc.id, answers: requiredAnswers(doc) } });
    expect(response.statusCode).toBe(201);
    const preview = response.json<{ id: string; case_id: string; score: number }>();
    expect(preview).toMatchObject({ case_id: doc.id, case_name: doc.name });
    expect((await call('GET', `/previews/${preview.id}`)).json()).toEqual(preview);
    expect((await call('GET', `/cases/${doc.id}/previews`)).json()).toMatchObject({ total: 1 });
    expectError(await call('GET', `/previews/${preview.id}`, { headers: f.asAdminA }), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/previews/${preview.id}`, { headers: f.asAdminA }), 404, 'NOT_FOUND');
    expect((await call('GET', `/previews/${preview.id}`)).statusCode).toBe(200);
  });
});

/* ---------- 4. copying into a project ---------- */

describe('copying module cases into a project', () => {
  it('copies as drafts that remember their module case, with new ids; the module case stays', async () => {
    const m = await newModule();
    const p = await projectA();
    const published = await createModuleCase(m, { name: 'Published one' });
    expect((await setStatus(published.id, 'PUBLISHED')).statusCode).toBe(200);
    const draft = await createModuleCase(m, { name: 'Draft one' });
    const originals = [await getCase(published.id), await getCase(draft.id)];

    const response = await call('POST', '/module-library/cases/to-project', {
      payload: { project_id: p.id, case_ids: [published.id, draft.id] },
    });
    expect(response.statusCode).toBe(201);
    const copyIds = response.json<{ ids: string[] }>().ids;
    expect(copyIds).toHaveLength(2);
    expect(copyIds.filter((id) => [published.id, draft.id].includes(id))).toEqual([]);

    const listed = await projectCases(p.id);
    expect(ids(listed)).toEqual([...copyIds].sort());
    for (const item of listed) {
      expect(item).toMatchObject({ project_id: p.id, origin: 'MODULE_LIBRARY', status: 'DRAFT' });
    }

    for (const original of originals) {
      const copyId = listed.find((c) => c.name === original.name)!.id;
      // The client's administrator now sees the copy: it is their project's case.
      const copy = await getCase(copyId, f.asAdminA);
      expect(copy).toMatchObject({
        id: copyId,
        project_id: p.id,
        client_id: f.clientA.id,
        origin: 'MODULE_LIBRARY',
        status: 'DRAFT',
        source_case_id: original.id,
        name: original.name,
        disease_type_id: original.disease_type_id,
        season_id: null,
        round_number: null,
        patient_name: original.patient_name,
        explanation: original.explanation,
      });
      expect(copy.questions.map((q) => q.text)).toEqual(original.questions.map((q) => q.text));
      expect(copy.questions.map((q) => q.category_id)).toEqual(original.questions.map((q) => q.category_id));
      expect(innerIds(copy).filter((id) => innerIds(original).includes(id))).toEqual([]);
      // Questions point at the copy's own groupers, in the same places.
      const grouperIndex = (doc: CaseDocument, id: string | null) =>
        id ? doc.groupers.findIndex((g) => g.id === id) : null;
      expect(copy.questions.map((q) => grouperIndex(copy, q.grouper_id))).toEqual(
        original.questions.map((q) => grouperIndex(original, q.grouper_id)),
      );
      expect((await call('GET', `/cases/${copyId}/status`)).json()).toMatchObject({ valid: true });
      // The module case is unchanged.
      expect(await getCase(original.id)).toEqual(original);
    }
    expect(ids(await moduleCases(m.id))).toEqual([published.id, draft.id].sort());

    // Copies are drafts of the project: editing one leaves its module case alone.
    const copyOfDraft = listed.find((c) => c.name === 'Draft one')!.id;
    const edited = await call('PUT', `/cases/${copyOfDraft}`, {
      headers: f.asAdminA,
      payload: validCase(p, { name: 'Draft one, edited', season_id: p.seasons['Spring 2026']!, round_number: 3 }),
    });
    expect(edited.statusCode).toBe(200);
    expect(await getCase(draft.id)).toEqual(originals[1]);
  });

  it('lists the projects holding copies of a module’s cases, with how many', async () => {
    const m = await newModule();
    const [a, b] = [await createModuleCase(m, { name: 'A' }), await createModuleCase(m, { name: 'B' })];
    const pA = await projectA({ name: 'Zulu project' });
    const pB = await newProject(f.clientB.id, { name: 'Yankee project' });
    const untouched = await projectA({ name: 'Untouched project' });
    await createProjectCase(untouched);
    const copy = (projectId: string, caseIds: string[]) =>
      call('POST', '/module-library/cases/to-project', { payload: { project_id: projectId, case_ids: caseIds } });
    expect((await copy(pA.id, [a.id, b.id])).statusCode).toBe(201);
    expect((await copy(pA.id, [a.id])).statusCode).toBe(201);
    expect((await copy(pB.id, [b.id])).statusCode).toBe(201);

    type Page = {
      items: { id: string; name: string; client_id: string; client_name: string; copied_cases: number }[];
      total: number;
    };
    const page = async (query = '') => {
      const response = await call('GET', `/module-library/${m.id}/associated-projects${query}`);
      expect(response.statusCode).toBe(200);
      return response.json<Page>();
    };
    const all = await page();
    expect(all.total).toBe(2);
    expect(all.items).toEqual([
      { id: pB.id, name: 'Yankee project', client_id: f.clientB.id, client_name: 'Bravo Medical', copied_cases: 1 },
      { id: pA.id, name: 'Zulu project', client_id: f.clientA.id, client_name: 'Alpha Health', copied_cases: 3 },
    ]);
    expect(names((await page('?sort=client_name')).items)).toEqual(['Zulu project', 'Yankee project']);
    expect(names((await page('?sort=name:DESC')).items)).toEqual(['Zulu project', 'Yankee project']);
    const searched = await page('?search=zulu');
    expect(searched.total).toBe(1);
    expect(names(searched.items)).toEqual(['Zulu project']);
    const second = await page('?limit=1&page=2');
    expect(second.total).toBe(2);
    expect(names(second.items)).toEqual(['Zulu project']);

    // A module whose cases were never copied has none.
    const lonely = await newModule();
    await createModuleCase(lonely);
    expect((await call('GET', `/module-library/${lonely.id}/associated-projects`)).json()).toMatchObject({
      items: [],
      total: 0,
    });
  });

  it('refuses cases that do not fit the project, and each refusal copies nothing', async () => {
    const m = await newModule({
      disease_types: ['Diabetes', 'Asthma'],
      question_categories: ['Diagnosis', 'Treatment'],
    });
    const fits = await createModuleCase(m, { name: 'Fits' });
    // Uses the module's second category, which the target project lacks.
    const treatment = entryId(m.module.question_categories, 'Treatment');
    const other = await createModuleCase({ ...m, categoryId: treatment }, { name: 'Uses Treatment' });
    const target = await projectA();
    const noDisease = await projectA({ disease_types: ['Asthma'] });
    const noCategory = await projectA({ question_categories: ['Treatment'] });
    const neither = await projectA({ disease_types: ['Hypertension'], question_categories: ['Follow-up'] });
    const existing = await createProjectCase(target, { name: 'Already there' });
    const anotherModule = await newModule();
    const foreign = await createModuleCase(anotherModule, { name: 'Foreign' });

    const projects = [target, noDisease, noCategory, neither];
    const snapshot = async () => ({
      cases: await caseCount(),
      lists: await Promise.all(projects.map(async (p) => ids(await projectCases(p.id)))),
    });
    const before = await snapshot();
    const copy = (projectId: string, caseIds: string[]) =>
      call('POST', '/module-library/cases/to-project', { payload: { project_id: projectId, case_ids: caseIds } });

    expectError(await copy(noDisease.id, [fits.id]), 422, 'WRONG_DISEASE_TYPE');
    expectError(await copy(noCategory.id, [fits.id]), 422, 'PROJECT_MISSING_QUESTION_CATEGORIES');
    expectError(await copy(neither.id, [fits.id]), 422, 'PROJECT_MISSING_QUESTION_CATEGORIES_AND_DISEASE_TYPES');
    // All or nothing: the first case would fit, the second does not.
    const partly = await copy(target.id, [fits.id, other.id]);
    expectError(partly, 422, 'PROJECT_MISSING_QUESTION_CATEGORIES');
    expect(partly.json<{ details?: { case_ids?: string[] } }>().details?.case_ids).toEqual([other.id]);
    // Only module cases are copied.
    const projectCaseCopy = await copy(target.id, [fits.id, existing.id]);
    expectError(projectCaseCopy, 404, 'CASE_NOT_FOUND');
    expect(projectCaseCopy.json<{ details?: { case_ids?: string[] } }>().details?.case_ids).toEqual([existing.id]);
    expectError(await copy(target.id, [randomUUID()]), 404, 'CASE_NOT_FOUND');
    expectError(await copy(randomUUID(), [fits.id]), 404, 'PROJECT_NOT_FOUND');
    expectError(await copy(target.id, [fits.id, foreign.id]), 400, 'CASES_FROM_DIFFERENT_PROJECTS');
    expectError(await copy(target.id, []), 400, 'VALIDATION_ERROR');
    expectError(
      await call('POST', '/module-library/cases/to-project', {
        payload: { project_id: target.id, case_ids: [fits.id], extra: true },
      }),
      400,
      'VALIDATION_ERROR',
    );

    expect(await snapshot()).toEqual(before);
    expect(ids(await moduleCases(m.id))).toEqual([fits.id, other.id].sort());

    // The one that fits goes alone.
    const alone = await copy(target.id, [fits.id]);
    expect(alone.statusCode).toBe(201);
    expect(names(await projectCases(target.id)).sort()).toEqual(['Already there', 'Fits']);
  });
});

/* ---------- 5. copying between modules ---------- */

describe('copying cases between modules', () => {
  it('copies into another module as drafts that remember their source', async () => {
    const from = await newModule();
    const to = await newModule({ disease_types: ['Diabetes', 'Gout'], question_categories: ['Diagnosis', 'Imaging'] });
    const original = await createModuleCase(from, { name: 'Travels' });
    expect((await setStatus(original.id, 'PUBLISHED')).statusCode).toBe(200);
    const before = await getCase(original.id);

    const response = await call('POST', '/module-library/cases/modules', {
      payload: { module_id: to.id, case_ids: [original.id] },
    });
    expect(response.statusCode).toBe(201);
    const [copyId] = response.json<{ ids: string[] }>().ids;
    expect(copyId).toBeDefined();
    expect(copyId).not.toBe(original.id);

    const listed = await moduleCases(to.id);
    expect(listed.map((c) => [c.id, c.name, c.origin, c.status, c.project_id])).toEqual([
      [copyId, 'Travels', 'MODULE_LIBRARY', 'DRAFT', null],
    ]);
    const copy = await getCase(copyId!);
    expect(copy).toMatchObject({
      project_id: null,
      client_id: null,
      origin: 'MODULE_LIBRARY',
      status: 'DRAFT',
      source_case_id: original.id,
      disease_type_id: original.disease_type_id,
    });
    expect(innerIds(copy).filter((id) => innerIds(original).includes(id))).toEqual([]);
    expect(await getCase(original.id)).toEqual(before);
    expect(ids(await moduleCases(from.id))).toEqual([original.id]);
    expect((await call('GET', `/module-library/${to.id}`)).json()).toMatchObject({ case_count: 1 });
  });

  it('refuses a target lacking the case’s category or disease type, copying nothing', async () => {
    const from = await newModule();
    const original = await createModuleCase(from);
    const noCategory = await newModule({ question_categories: ['Imaging'] });
    const noDisease = await newModule({ disease_types: ['Gout'] });
    const before = await caseCount();
    const copy = (moduleId: string, caseIds: string[]) =>
      call('POST', '/module-library/cases/modules', { payload: { module_id: moduleId, case_ids: caseIds } });

    expectError(await copy(noCategory.id, [original.id]), 422, 'PROJECT_MISSING_QUESTION_CATEGORIES');
    expectError(await copy(noDisease.id, [original.id]), 422, 'WRONG_DISEASE_TYPE');
    expectError(await copy(randomUUID(), [original.id]), 404, 'NOT_FOUND');
    expectError(await copy(noCategory.id, [randomUUID()]), 404, 'CASE_NOT_FOUND');

    expect(await caseCount()).toBe(before);
    expect(await moduleCases(noCategory.id)).toEqual([]);
    expect(await moduleCases(noDisease.id)).toEqual([]);
  });
});

/* ---------- 6. removing cases from a module ---------- */

describe('removing cases from a module', () => {
  it('removes chosen cases, or all but some', async () => {
    const m = await newModule();
    const a = await createModuleCase(m, { name: 'A' });
    const b = await createModuleCase(m, { name: 'B' });
    const c = await createModuleCase(m, { name: 'C' });
    const d = await createModuleCase(m, { name: 'D searched' });

    const chosen = await call('DELETE', `/module-library/${m.id}/remove-cases?${filterQuery({ ids: [a.id] })}`);
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toEqual({ ids: [a.id] });
    expect(names(await moduleCases(m.id))).toEqual(['B', 'C', 'D searched']);
    expectError(await call('GET', `/cases/${a.id}`), 404, 'CASE_NOT_FOUND');

    const searched = await call(
      'DELETE',
      `/module-library/${m.id}/remove-cases?${filterQuery({ all: true, search: 'SEARCHED' })}`,
    );
    expect(searched.statusCode).toBe(200);
    expect(searched.json()).toEqual({ ids: [d.id] });

    const allBut = await call(
      'DELETE',
      `/module-library/${m.id}/remove-cases?${filterQuery({ all: true, except: [c.id] })}`,
    );
    expect(allBut.statusCode).toBe(200);
    expect(allBut.json()).toEqual({ ids: [b.id] });
    expect(names(await moduleCases(m.id))).toEqual(['C']);
    expect((await call('GET', `/module-library/${m.id}`)).json()).toMatchObject({ case_count: 1 });
  });

  it('refuses cases that are not the module’s, removing nothing', async () => {
    const m = await newModule();
    const own = await createModuleCase(m, { name: 'Own' });
    const otherModule = await newModule();
    const theirs = await createModuleCase(otherModule, { name: 'Theirs' });
    const p = await projectA();
    const projectCase = await createProjectCase(p);
    const before = await caseCount();
    const remove = (filter: string) => call('DELETE', `/module-library/${m.id}/remove-cases?${filter}`);

    expectError(await remove(filterQuery({ ids: [own.id, theirs.id] })), 400, 'CASES_FROM_WRONG_PROJECT');
    expectError(await remove(filterQuery({ ids: [projectCase.id] })), 400, 'CASES_FROM_WRONG_PROJECT');
    expectError(await remove(filterQuery({ ids: [randomUUID()] })), 400, 'CASES_FROM_WRONG_PROJECT');
    expectError(await remove('filter=%7Bids'), 400, 'VALIDATION_ERROR');
    expectError(await remove(filterQuery({ ids: [] })), 400, 'VALIDATION_ERROR');
    expectError(await call('DELETE', `/module-library/${m.id}/remove-cases`), 400, 'VALIDATION_ERROR');

    expect(await caseCount()).toBe(before);
    expect(await getCase(own.id)).toEqual(own);
    expect(await getCase(theirs.id)).toEqual(theirs);
    expect(await getCase(projectCase.id, f.asAdminA)).toEqual(projectCase);
    // A select-all reaches this module's cases only.
    const all = await remove(filterQuery({ all: true }));
    expect(all.json()).toEqual({ ids: [own.id] });
    expect(ids(await moduleCases(otherModule.id))).toEqual([theirs.id]);
  });

  it('leaves the copies in projects when their module case goes', async () => {
    const m = await newModule();
    const original = await createModuleCase(m);
    const p = await projectA();
    const copied = await call('POST', '/module-library/cases/to-project', {
      payload: { project_id: p.id, case_ids: [original.id] },
    });
    const [copyId] = copied.json<{ ids: string[] }>().ids;
    const copy = await getCase(copyId!, f.asAdminA);

    const removed = await call('DELETE', `/module-library/${m.id}/remove-cases?${filterQuery({ ids: [original.id] })}`);
    expect(removed.statusCode).toBe(200);
    expectError(await call('GET', `/cases/${original.id}`), 404, 'CASE_NOT_FOUND');
    expect(await getCase(copyId!, f.asAdminA)).toEqual(copy);
    expect(ids(await projectCases(p.id))).toEqual([copyId]);
    expect((await call('GET', `/cases/${copyId}/status`, { headers: f.asAdminA })).json()).toMatchObject({
      valid: true,
    });
    // And the emptied module can go.
    expect((await call('DELETE', `/module-library/${m.id}`)).statusCode).toBe(204);
    expect(await getCase(copyId!, f.asAdminA)).toEqual(copy);
  });
});

/* ---------- 7. moving a project case into a module ---------- */

describe('moving a project case into a module', () => {
  /** A client A project with a past season (Autumn 2025, one round) besides Spring 2026. */
  const withPastSeason = () =>
    projectA({
      seasons: [
        { name: 'Autumn 2025', rounds: [{ number: 1, start_date: '2025-09-01', end_date: '2025-09-30' }] },
        ...projectBody(f.clientA.id).seasons!,
      ],
    });

  it('moves a draft without a season, or in a past season: it becomes a module case', async () => {
    const p = await withPastSeason();
    const m = await newModule();
    const unplaced = await createProjectCase(p, { name: 'Unplaced' });
    const past = await createProjectCase(p, { name: 'Past', season_id: p.seasons['Autumn 2025']!, round_number: 1 });
    const stays = await createProjectCase(p, { name: 'Stays' });

    const response = await call('POST', `/cases/${unplaced.id}/move-to-module`, { payload: { module_id: m.id } });
    expect(response.statusCode).toBe(200);
    const moved = response.json<CaseDocument>();
    expect(moved).toMatchObject({
      id: unplaced.id,
      origin: 'MODULE_LIBRARY',
      project_id: null,
      client_id: null,
      status: 'DRAFT',
      season_id: null,
      round_number: null,
      name: 'Unplaced',
      questions: unplaced.questions,
    });
    expect(await getCase(unplaced.id)).toEqual(moved);
    expectError(await call('GET', `/cases/${unplaced.id}`, { headers: f.asAdminA }), 404, 'CASE_NOT_FOUND');

    const fromPast = await call('POST', `/cases/${past.id}/move-to-module`, { payload: { module_id: m.id } });
    expect(fromPast.statusCode).toBe(200);
    expect(fromPast.json()).toMatchObject({ project_id: null, season_id: null, round_number: null });

    expect(names(await projectCases(p.id))).toEqual(['Stays']);
    expect(ids(await moduleCases(m.id))).toEqual([unplaced.id, past.id].sort());
    expect((await call('GET', `/cases/${unplaced.id}/status`)).json()).toMatchObject({ valid: true });
    expect(await getCase(stays.id, f.asAdminA)).toEqual(stays);

    // Already a module case: it cannot move to a module again.
    expectError(
      await call('POST', `/cases/${unplaced.id}/move-to-module`, { payload: { module_id: m.id } }),
      400,
      'CASES_FROM_WRONG_PROJECT',
    );
  });

  it('refuses the moves it must, and each refused move changes nothing', async () => {
    const p = await withPastSeason();
    const m = await newModule();
    const noDisease = await newModule({ disease_types: ['Asthma'] });
    const noCategory = await newModule({ question_categories: ['Treatment'] });
    const spring = p.seasons['Spring 2026']!;
    const active = await createProjectCase(p, { name: 'Active', season_id: spring, round_number: 1 });
    expect((await setStatus(active.id, 'PUBLISHED')).json()).toMatchObject({ status: 'ACTIVE' });
    const current = await createProjectCase(p, { name: 'Current', season_id: spring, round_number: 2 });
    const taken = await createProjectCase(p, { name: 'Taken', season_id: p.seasons['Autumn 2025']!, round_number: 1 });
    const participant = await createUser(ctx.db, { role: 'USER', clientId: f.clientA.id });
    await ctx.db.insert(projectParticipants).values({
      projectId: p.id,
      userId: participant.id,
      sortName: 'user test',
      email: participant.email,
      dataStatus: 'READY',
    });
    await ctx.db.insert(participantAssignments).values({
      userId: participant.id,
      seasonId: p.seasons['Autumn 2025']!,
      projectId: p.id,
      firstRound: 1,
      lastRound: 1,
      startDate: '2025-09-01',
    });
    const draft = await createProjectCase(p, { name: 'Draft' });

    const docs = await Promise.all([active, current, taken, draft].map((d) => getCase(d.id)));
    const before = { cases: await caseCount(), project: ids(await projectCases(p.id)) };
    const move = (id: string, moduleId: string, headers: Headers = f.asSuperadmin) =>
      call('POST', `/cases/${id}/move-to-module`, { headers, payload: { module_id: moduleId } });

    expectError(await move(active.id, m.id), 409, 'CASE_IS_ACTIVE');
    expectError(await move(current.id, m.id), 409, 'CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON');
    expectError(await move(taken.id, m.id), 409, 'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN');
    expectError(await move(draft.id, noDisease.id), 422, 'WRONG_DISEASE_TYPE');
    expectError(await move(draft.id, noCategory.id), 422, 'PROJECT_MISSING_QUESTION_CATEGORIES');
    expectError(await move(draft.id, m.id, f.asAdminA), 403, 'FORBIDDEN');
    expectError(await move(draft.id, randomUUID()), 404, 'NOT_FOUND');
    expectError(await move(randomUUID(), m.id), 404, 'CASE_NOT_FOUND');
    expectError(
      await call('POST', `/cases/${draft.id}/move-to-module`, { payload: { module_id: m.id, project_id: p.id } }),
      400,
      'VALIDATION_ERROR',
    );

    expect({ cases: await caseCount(), project: ids(await projectCases(p.id)) }).toEqual(before);
    expect(await Promise.all([active, current, taken, draft].map((d) => getCase(d.id)))).toEqual(docs);
    for (const target of [m, noDisease, noCategory]) expect(await moduleCases(target.id)).toEqual([]);
  });
});

/* ---------- 8. catalogue entries a module uses ---------- */

describe('catalogue entries used by a module', () => {
  it('refuses to delete a disease type or question category only a module uses, not with a 500', async () => {
    const m = await newModule({ disease_types: ['Only in a module'], question_categories: ['Module-only category'] });
    const diseaseTypeId = m.diseaseTypeId;
    const categoryId = m.categoryId;

    expectError(await call('DELETE', `/disease-types/${diseaseTypeId}`), 409, 'DISEASE_TYPE_DELETE_FORBIDDEN');
    expectError(await call('DELETE', `/question-categories/${categoryId}`), 409, 'ASSOCIATED_ITEMS_DELETE_FORBIDDEN');
    expect((await call('GET', `/module-library/${m.id}`)).json()).toEqual(m.module);
    expect((await call('GET', '/disease-types?search=only%20in%20a%20module')).json()).toMatchObject({ total: 1 });

    // Once the module is gone, so may they be.
    expect((await call('DELETE', `/module-library/${m.id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/disease-types/${diseaseTypeId}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/question-categories/${categoryId}`)).statusCode).toBe(204);
    expect((await call('GET', '/disease-types?search=only%20in%20a%20module')).json()).toMatchObject({ total: 0 });
  });
  it('refuses to delete a disease type or question category a case still uses after its module dropped them', async () => {
    const m = await newModule({ disease_types: ['Dropped disease'], question_categories: ['Dropped category'] });
    await createModuleCase(m);
    const edited = await call('PUT', `/module-library/${m.id}`, {
      payload: moduleBody({
        name: m.module.name,
        disease_types: ['Kept disease'],
        question_categories: ['Kept category'],
      }),
    });
    expect(edited.statusCode).toBe(200);
    expectError(await call('DELETE', `/disease-types/${m.diseaseTypeId}`), 409, 'DISEASE_TYPE_DELETE_FORBIDDEN');
    expectError(await call('DELETE', `/question-categories/${m.categoryId}`), 409, 'ASSOCIATED_ITEMS_DELETE_FORBIDDEN');
  });
});
