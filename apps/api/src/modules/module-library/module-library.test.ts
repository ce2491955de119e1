import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { type CatalogueEntry, type ModuleLibrary, type ModuleSummary } from '@pss/contract';
import { entryId, expectError, fieldIssues, filterQuery, type Method, moduleBody } from '../../../test/kit.js';
import { requiredAnswers, validCase } from '../../../test/case-bodies.js';
import { names } from '../../../test/library-calls.js';
import { librarySetup } from '../../../test/library-calls.js';

const {
  f,
  call,
  projectA,
  newModule,
  createModuleCase,
  createProjectCase,
  getCase,
  projectCases,
  moduleCases,
  caseCount,
  moduleCount,
} = librarySetup();

const NOW = '2026-03-02T09:00:00Z';

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
