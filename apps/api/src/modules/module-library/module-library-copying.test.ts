import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { type CaseDocument } from '@pss/contract';
import { entryId, expectError } from '../../../test/kit.js';
import { validCase } from '../../../test/case-bodies.js';
import { ids, innerIds, names } from '../../../test/library-calls.js';
import { librarySetup } from '../../../test/library-calls.js';

const {
  f,
  call,
  newProject,
  projectA,
  newModule,
  createModuleCase,
  createProjectCase,
  getCase,
  setStatus,
  projectCases,
  moduleCases,
  caseCount,
} = librarySetup();

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

    expectError(await copy(noDisease.id, [fits.id]), 422, 'PROJECT_MISSING_DISEASE_TYPES');
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
    expectError(await copy(noDisease.id, [original.id]), 422, 'PROJECT_MISSING_DISEASE_TYPES');
    expectError(await copy(randomUUID(), [original.id]), 404, 'NOT_FOUND');
    expectError(await copy(noCategory.id, [randomUUID()]), 404, 'CASE_NOT_FOUND');

    expect(await caseCount()).toBe(before);
    expect(await moduleCases(noCategory.id)).toEqual([]);
    expect(await moduleCases(noDisease.id)).toEqual([]);
  });
});
