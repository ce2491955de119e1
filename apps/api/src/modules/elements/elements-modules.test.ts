import { beforeAll, describe, expect, it } from 'vitest';
import { type CaseDocument, type CaseElements } from '@pss/contract';
import { expectError, type Home } from '../../../test/kit.js';
import { AT, brief, KT, tagRows } from '../../../test/element-calls.js';
import { elementsSetup } from '../../../test/element-calls.js';

const { f, call, newProject, newModule, createModuleCase, createProjectCase, importAndRun, takeaways, tags } =
  elementsSetup();

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

    expectError(await call('GET', `/module-library/${m.id}/cases-keys-tags`), 400, 'REQUIRED_PARAMETER_MISSING');
    const empty = await call('GET', `/module-library/${m.id}/cases-keys-tags?type=KEY_TAKEAWAYS`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ items: [], total: 0 });

    expectError(await call('GET', `/module-library/${m.id}/import`), 400, 'REQUIRED_PARAMETER_MISSING');
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
