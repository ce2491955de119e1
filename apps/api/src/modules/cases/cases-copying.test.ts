import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { type CaseDocument } from '@pss/contract';
import { projectBody, type Headers } from '../../../test/fixtures.js';
import { expectError } from '../../../test/kit.js';
import { onePixelPng } from '../../../test/images.js';
import { casesSetup, contentOf } from '../../../test/case-calls.js';

const { f, call, newProject, projectA, createCase, getCase, setStatus, listNames, caseCount, uploadImage } =
  casesSetup();

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
    expectError(await move(draft.id, { project_id: noDisease.id }), 422, 'PROJECT_MISSING_DISEASE_TYPES');
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
