import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { type CaseDocument, type CaseStatusReport } from '@pss/contract';
import { expectError, fieldsOf, type ProjectFacts } from '../../../test/kit.js';
import { choice, everyTypeCase as validCase } from '../../../test/case-bodies.js';
import { projectBody } from '../../../test/fixtures.js';
import { contentOf, casesSetup } from '../../../test/case-calls.js';

const { f, elsewhere, call, newProject, projectA, createDraft, createCase, getCase, caseCount } = casesSetup();

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
