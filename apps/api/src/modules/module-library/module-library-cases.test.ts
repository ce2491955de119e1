import { describe, expect, it } from 'vitest';
import { type CaseDocument, type CaseStatusReport } from '@pss/contract';
import { expectError, fieldIssues, filterQuery, moduleBody } from '../../../test/kit.js';
import { requiredAnswers, validCase } from '../../../test/case-bodies.js';
import { names } from '../../../test/library-calls.js';
import { librarySetup } from '../../../test/library-calls.js';

const { f, call, projectA, newModule, createModuleCase, getCase, setStatus, moduleCases, caseCount } = librarySetup();

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
