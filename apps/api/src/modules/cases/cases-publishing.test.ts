import { beforeAll, describe, expect, it } from 'vitest';
import { type CaseSummary } from '@pss/contract';
import { expectError, fieldsOf, filterQuery, type ProjectFacts } from '../../../test/kit.js';
import { choice, everyTypeCase as validCase } from '../../../test/case-bodies.js';
import { onePixelPng } from '../../../test/images.js';
import { contentOf, casesSetup } from '../../../test/case-calls.js';

const { ctx, call, projectA, createDraft, createCase, getCase, setStatus, listNames, uploadImage } = casesSetup();

const NOW = '2026-03-02T09:00:00Z';

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
