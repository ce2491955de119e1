import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import type { CaseDocument, CasePreview, Project, UpdateCaseBody } from '@pss/contract';
import { casePreviews, participantAssignments, projectParticipants } from '../../db/schema/index.js';
import { bearerFor, createUser } from '../../../test/test-app.js';
import { projectBody, twoClients, type Headers } from '../../../test/fixtures.js';
import { scoreCase, type ScoringAnswer } from './scoring.js';
import { everyTypeCase, perfectAnswers } from '../../../test/case-bodies.js';
import { callAs, expectError, fieldsOf, testContext } from '../../../test/kit.js';

/**
 * Previews: an administrator takes a case as a participant would. The case must be valid,
 * answers are checked, scored by the one scoring rule and stored with a copy of the case.
 */

type UserRow = Awaited<ReturnType<typeof createUser>>;

let f: Awaited<ReturnType<typeof twoClients>>;
let p: { id: string; diseaseTypeId: string; categoryId: string; springId: string };
/** Two administrators of client A (the second never took the previews of the first) and a superadmin. */
let adminA: UserRow;
let asAdminA: Headers;
let asAdminA2: Headers;
let superadmin: UserRow;
let asSuperadmin: Headers;

const NOW = '2026-03-02T09:00:00.000Z';

const ctx = testContext({ now: NOW });

beforeAll(async () => {
  f = await twoClients(ctx);
  adminA = await createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id });
  asAdminA = await bearerFor(ctx.app, adminA);
  asAdminA2 = await bearerFor(ctx.app, await createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id }));
  superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
  asSuperadmin = await bearerFor(ctx.app, superadmin);
  const created = await call('POST', '/projects', { headers: asSuperadmin, payload: projectBody(f.clientA.id) });
  const project = (await call('GET', `/projects/${created.json<Project>().id}`)).json<Project>();
  p = {
    id: project.id,
    diseaseTypeId: project.disease_types[0]!.id,
    categoryId: project.question_categories[0]!.id,
    springId: project.seasons[0]!.id,
  };
});

/* ---------- helpers ---------- */

const call = callAs(ctx, () => asAdminA);
const previewCount = async () => (await ctx.db.select({ n: count() }).from(casePreviews))[0]!.n;

/** A complete case with one question of each type (see `everyTypeCase`) in the project. */
const validCase = (overrides: Partial<UpdateCaseBody> = {}) => everyTypeCase(p, overrides);

async function createCase(overrides: Partial<UpdateCaseBody> = {}): Promise<CaseDocument> {
  const created = await call('POST', '/cases', { payload: { project_id: p.id, name: 'Case' } });
  expect(created.statusCode).toBe(201);
  const saved = await call('PUT', `/cases/${created.json<CaseDocument>().id}`, { payload: validCase(overrides) });
  expect(saved.statusCode).toBe(200);
  return saved.json<CaseDocument>();
}

/** The id of the choice of question `q` with this text. */
function choiceId(doc: CaseDocument, q: number, text: string): string {
  const found = doc.questions[q]!.choices.find((c) => c.text === text);
  if (!found) throw new Error(`no choice "${text}" in question ${q}`);
  return found.id;
}

/** An answer that misses ECG and CK-MB and chooses Lipase: 100 × (2 − 1) ÷ 4 = 25. */
function mixedAnswers(doc: CaseDocument) {
  return [
    { question_id: doc.questions[0]!.id, choice_ids: [choiceId(doc, 0, 'Chest X-ray')] },
    {
      question_id: doc.questions[1]!.id,
      choice_ids: [choiceId(doc, 1, 'Troponin'), choiceId(doc, 1, 'Lipase')],
      text: 'Lactate',
    },
    { question_id: doc.questions[2]!.id, text: 'It may be your heart.' },
    { question_id: doc.questions[3]!.id, choice_ids: [choiceId(doc, 3, 'Admit to cardiology')] },
    { question_id: doc.questions[4]!.id, text: 'Acute MI' },
  ];
}

function takePreview(doc: CaseDocument, answers: object[], headers: Headers = asAdminA) {
  return call('POST', '/previews', { headers, payload: { case_id: doc.id, answers } });
}

/** The score by the platform's rule, worked out here from the case and the answers. */
function expectedScore(doc: CaseDocument, answers: { question_id: string; choice_ids?: string[] }[]): number {
  const byQuestion = new Map<string, ScoringAnswer>(
    answers.map((a) => [a.question_id, { choiceIds: a.choice_ids ?? [] }]),
  );
  return scoreCase(
    doc.questions.map((q) => ({
      id: q.id,
      type: q.type,
      choices: q.choices.map((c) => ({ id: c.id, markedAs: c.marked_as ?? 'APPROPRIATE' })),
    })),
    byQuestion,
  ).score;
}

/* ---------- tests ---------- */

describe('previewing a case', () => {
  it('refuses an invalid case, listing what is wrong, and stores nothing', async () => {
    const doc = await createCase({ patient_name: '', feedback_type: null });
    const before = await previewCount();

    const view = await call('GET', `/cases/${doc.id}/preview`);
    expectError(view, 422, 'CASE_INVALID_FOR_PREVIEW');
    expect(fieldsOf(view)).toEqual(['patient_name', 'feedback_type']);

    const taken = await takePreview(doc, mixedAnswers(doc));
    expectError(taken, 422, 'CASE_INVALID_FOR_PREVIEW');
    expect(fieldsOf(taken)).toEqual(['patient_name', 'feedback_type']);
    expect(await previewCount()).toBe(before);
  });

  it('shows a valid case as a participant sees it: no answer marks, no categories', async () => {
    const doc = await createCase();
    const view = await call('GET', `/cases/${doc.id}/preview`);
    expect(view.statusCode).toBe(200);
    const body = view.json<Record<string, unknown>>();
    expect(JSON.stringify(body)).not.toContain('marked_as');
    expect(JSON.stringify(body)).not.toContain('NECESSARY');
    expect(JSON.stringify(body)).not.toContain('category_id');
    expect(body).toEqual({
      id: doc.id,
      name: doc.name,
      patient_name: 'Ann Smith',
      patient_age: 54,
      has_image: false,
      image_alt: '',
      reason_for_encounter: doc.reason_for_encounter,
      details_sections: doc.details_sections,
      groupers: doc.groupers,
      questions: doc.questions.map(({ category_id: _c, choices, ...q }) => ({
        ...q,
        choices: choices.map((c) => ({ id: c.id, text: c.text })),
      })),
    });
  });

  it.each([
    [
      'a required question left unanswered',
      (doc: CaseDocument) => mixedAnswers(doc).filter((a) => a.question_id !== doc.questions[1]!.id),
      ['body.questions.1'],
    ],
    [
      'required questions answered with nothing',
      (doc: CaseDocument) => [
        { question_id: doc.questions[0]!.id, choice_ids: [] },
        { question_id: doc.questions[1]!.id, text: '   ' },
      ],
      ['body.questions.0', 'body.questions.1', 'body.questions.3'],
    ],
    [
      'a choice of another question',
      (doc: CaseDocument) => [
        { question_id: doc.questions[0]!.id, choice_ids: [choiceId(doc, 1, 'Troponin')] },
        ...mixedAnswers(doc).slice(1),
      ],
      ['body.answers.0.choice_ids'],
    ],
    [
      'two choices on a single-answer question',
      (doc: CaseDocument) => [
        { question_id: doc.questions[0]!.id, choice_ids: [choiceId(doc, 0, 'ECG'), choiceId(doc, 0, 'Chest X-ray')] },
        ...mixedAnswers(doc).slice(1),
      ],
      ['body.answers.0.choice_ids'],
    ],
    [
      'a question of another case',
      (doc: CaseDocument) => [...mixedAnswers(doc), { question_id: randomUUID(), choice_ids: [] }],
      ['body.answers.5.question_id'],
    ],
    [
      '"none of the below" where the question has none',
      (doc: CaseDocument) => [
        { question_id: doc.questions[0]!.id, none_of_below: true },
        ...mixedAnswers(doc).slice(1),
      ],
      ['body.answers.0.none_of_below'],
    ],
    [
      'a choice id that is not a uuid',
      (doc: CaseDocument) => [{ question_id: doc.questions[0]!.id, choice_ids: ['ECG'] }],
      ['body.answers.0.choice_ids.0'],
    ],
  ])('refuses %s with 400 VALIDATION_ERROR and stores nothing', async (_label, answers, fields) => {
    const doc = await createCase();
    const before = await previewCount();
    const response = await takePreview(doc, answers(doc));
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(response)).toEqual(fields);
    expect(await previewCount()).toBe(before);
  });

  it('scores the answers by the scoring rule and gives personalised feedback by choice text', async () => {
    const doc = await createCase();
    const answers = mixedAnswers(doc);
    const response = await takePreview(doc, answers);
    expect(response.statusCode).toBe(201);
    const preview = response.json<CasePreview>();
    expect(preview.score).toBe(expectedScore(doc, answers));
    expect(preview.score).toBe(25);
    expect(preview).toMatchObject({
      case_id: doc.id,
      case_name: doc.name,
      taken_by: { id: adminA.id, name: 'Test Admin' },
      feedback_type: 'PERSONALIZED_FEEDBACK',
      explanation: doc.explanation,
      references: doc.references,
      test_results: doc.test_results,
      completed_at: NOW,
    });
    expect(preview.questions.map((q) => [q.necessary_missed, q.unnecessary_chosen])).toEqual([
      [['ECG'], []],
      [['CK-MB'], ['Lipase']],
      [[], []],
      [[], []],
      [[], []],
    ]);
    expect(preview.questions[0]).toMatchObject({
      question_id: doc.questions[0]!.id,
      grouper_name: 'Work-up',
      scored: true,
      choices: [
        { text: 'ECG', marked_as: 'NECESSARY', chosen: false },
        { text: 'Chest X-ray', marked_as: 'APPROPRIATE', chosen: true },
        { text: 'Colonoscopy', marked_as: 'UNNECESSARY', chosen: false },
      ],
    });
    expect(preview.questions[1]).toMatchObject({ answer_text: 'Lactate', none_of_below: false });
    expect(preview.questions[2]).toMatchObject({ answer_text: 'It may be your heart.', scored: false });
    expect(preview.questions[4]).toMatchObject({ answer_text: 'Acute MI', scored: false });

    const read = await call('GET', `/previews/${preview.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(preview);
  });

  it('scores "none of the below" as choosing none of the listed choices', async () => {
    const doc = await createCase();
    const answers = perfectAnswers(doc).map((a) =>
      a.question_id === doc.questions[1]!.id ? { question_id: a.question_id, none_of_below: true } : a,
    );
    const preview = (await takePreview(doc, answers)).json<CasePreview>();
    // 2 of 4 necessary choices found: 50.
    expect(preview.score).toBe(50);
    expect(preview.questions[1]).toMatchObject({ none_of_below: true, necessary_missed: ['Troponin', 'CK-MB'] });
  });

  it('shows no answer key with general feedback, but the explanation', async () => {
    const doc = await createCase({ feedback_type: 'GENERAL_FEEDBACK' });
    const answers = mixedAnswers(doc);
    const response = await takePreview(doc, answers);
    expect(response.statusCode).toBe(201);
    const preview = response.json<CasePreview>();
    expect(preview).toMatchObject({
      feedback_type: 'GENERAL_FEEDBACK',
      explanation: '<p>An acute coronary syndrome until proven otherwise.</p>',
      score: expectedScore(doc, answers),
    });
    for (const q of preview.questions) {
      expect(q.choices.every((c) => c.marked_as === null)).toBe(true);
      expect(q.necessary_missed).toEqual([]);
      expect(q.unnecessary_chosen).toEqual([]);
    }
    expect(preview.questions[0]!.choices.map((c) => c.chosen)).toEqual([false, true, false]);
  });

  it('keeps what the case was when taken, after the draft changes', async () => {
    const doc = await createCase();
    const preview = (await takePreview(doc, mixedAnswers(doc))).json<CasePreview>();
    const edited = { ...validCase(), name: 'Renamed', groupers: doc.groupers, questions: doc.questions.slice(0, 2) };
    expect((await call('PUT', `/cases/${doc.id}`, { payload: edited })).statusCode).toBe(200);
    const read = (await call('GET', `/previews/${preview.id}`)).json<CasePreview>();
    expect(read).toEqual(preview);
    expect(read.case_name).toBe(doc.name);
    expect(read.questions).toHaveLength(5);
  });

  it('answers NOT_FOUND for a preview that does not exist', async () => {
    expectError(await call('GET', `/previews/${randomUUID()}`), 404, 'NOT_FOUND');
    expectError(await call('DELETE', `/previews/${randomUUID()}`), 404, 'NOT_FOUND');
    expectError(await takePreview({ id: randomUUID() } as CaseDocument, []), 404, 'CASE_NOT_FOUND');
  });
});

describe('a case’s previews', () => {
  let doc: CaseDocument;
  let mixed: CasePreview;
  let perfect: CasePreview;
  let bySuperadmin: CasePreview;

  beforeAll(async () => {
    doc = await createCase();
    mixed = (await takePreview(doc, mixedAnswers(doc))).json<CasePreview>();
    ctx.clock.advance(60_000);
    perfect = (await takePreview(doc, perfectAnswers(doc))).json<CasePreview>();
    ctx.clock.advance(60_000);
    bySuperadmin = (await takePreview(doc, mixedAnswers(doc).slice(0, 4), asSuperadmin)).json<CasePreview>();
    ctx.clock.set(NOW);
  });

  const list = async (query = '', headers: Headers = asAdminA) => {
    const response = await call('GET', `/cases/${doc.id}/previews${query}`, { headers });
    expect(response.statusCode).toBe(200);
    return response.json<{
      items: { id: string; name: string; score: number; completed_at: string }[];
      total: number;
    }>();
  };

  it('lists them, newest first, with taker, time and score', async () => {
    const page = await list();
    expect(page.total).toBe(3);
    expect(page.items).toEqual([
      {
        id: bySuperadmin.id,
        name: 'Test Superadmin',
        score: bySuperadmin.score,
        completed_at: '2026-03-02T09:02:00.000Z',
      },
      { id: perfect.id, name: 'Test Admin', score: 100, completed_at: '2026-03-02T09:01:00.000Z' },
      { id: mixed.id, name: 'Test Admin', score: 25, completed_at: NOW },
    ]);
  });

  it('searches by taker, sorts by score, pages, and filters to the caller’s own', async () => {
    expect((await list('?search=superadmin')).items.map((i) => i.id)).toEqual([bySuperadmin.id]);
    expect((await list('?search=nobody')).total).toBe(0);
    expect((await list('?sort=score:DESC')).items.map((i) => i.score)).toEqual(
      [100, 25, bySuperadmin.score].sort((a, b) => b - a),
    );
    expect((await list('?sort=score:ASC')).items.map((i) => i.score)).toEqual(
      [100, 25, bySuperadmin.score].sort((a, b) => a - b),
    );
    const paged = await list('?sort=score:DESC&limit=1&page=2');
    expect(paged.total).toBe(3);
    expect(paged.items).toHaveLength(1);
    expect((await list(`?filter=${encodeURIComponent('{"mine":true}')}`)).items.map((i) => i.id).sort()).toEqual(
      [mixed.id, perfect.id].sort(),
    );
    expect((await list(`?filter=${encodeURIComponent('{"mine":true}')}`, asSuperadmin)).items.map((i) => i.id)).toEqual(
      [bySuperadmin.id],
    );
    expectError(await call('GET', `/cases/${doc.id}/previews?sort=taker:ASC`), 400, 'VALIDATION_ERROR');
  });

  it('counts the case’s participants, previews and questions', async () => {
    const response = await call('GET', `/cases/${doc.id}/count`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ participants: 0, previews: 3, questions: 5 });

    // A participant assigned to the round the case is placed in counts.
    const placed = await createCase({ season_id: p.springId, round_number: 2 });
    const participant = await createUser(ctx.db, { role: 'USER', clientId: f.clientA.id });
    await ctx.db
      .insert(projectParticipants)
      .values({ projectId: p.id, userId: participant.id, sortName: 'user test', email: participant.email });
    await ctx.db.insert(participantAssignments).values({
      userId: participant.id,
      seasonId: p.springId,
      projectId: p.id,
      firstRound: 1,
      lastRound: 2,
      startDate: '2026-03-01',
    });
    expect((await call('GET', `/cases/${placed.id}/count`)).json()).toEqual({
      participants: 1,
      previews: 0,
      questions: 5,
    });
  });

  it('gives the answer key of the scored questions, paged and filtered by type', async () => {
    const response = await call('GET', `/cases/${doc.id}/feedback`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      total: 3,
      page: 1,
      limit: 25,
      items: [
        {
          question_id: doc.questions[0]!.id,
          position: 1,
          text: 'First test?',
          type: 'MULTI_ONE',
          necessary: ['ECG'],
          appropriate: ['Chest X-ray'],
          unnecessary: ['Colonoscopy'],
        },
        {
          question_id: doc.questions[1]!.id,
          position: 2,
          text: 'Which blood tests?',
          type: 'MULTI_MANY',
          necessary: ['Troponin', 'CK-MB'],
          appropriate: ['D-dimer'],
          unnecessary: ['Lipase'],
        },
        {
          question_id: doc.questions[3]!.id,
          position: 4,
          text: 'Disposition',
          type: 'DROPDOWN',
          necessary: ['Admit to cardiology'],
          appropriate: [],
          unnecessary: ['Discharge home'],
        },
      ],
    });

    const many = (
      await call('GET', `/cases/${doc.id}/feedback?filter=${encodeURIComponent('{"type":"MULTI_MANY"}')}`)
    ).json<{
      items: { question_id: string }[];
      total: number;
    }>();
    expect(many.total).toBe(1);
    expect(many.items.map((i) => i.question_id)).toEqual([doc.questions[1]!.id]);

    const second = (await call('GET', `/cases/${doc.id}/feedback?limit=2&page=2`)).json<{
      items: { position: number }[];
      total: number;
      page: number;
      limit: number;
    }>();
    expect(second).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(second.items.map((i) => i.position)).toEqual([4]);
    const reversed = (await call('GET', `/cases/${doc.id}/feedback?sort=position:DESC&limit=2`)).json<{
      items: { position: number }[];
    }>();
    expect(reversed.items.map((i) => i.position)).toEqual([4, 2]);

    expectError(
      await call('GET', `/cases/${doc.id}/feedback?filter=${encodeURIComponent('{"type":"ESSAY"}')}`),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('lets only the taker, or a superadmin, delete a preview', async () => {
    const before = await previewCount();
    expectError(await call('DELETE', `/previews/${mixed.id}`, { headers: asAdminA2 }), 409, 'PREVIEW_DELETE_FORBIDDEN');
    expectError(await call('DELETE', `/previews/${bySuperadmin.id}`), 409, 'PREVIEW_DELETE_FORBIDDEN');
    expect(await previewCount()).toBe(before);
    expect((await call('GET', `/previews/${mixed.id}`)).statusCode).toBe(200);

    const byTaker = await call('DELETE', `/previews/${mixed.id}`);
    expect(byTaker.statusCode).toBe(204);
    expectError(await call('GET', `/previews/${mixed.id}`), 404, 'NOT_FOUND');

    expect((await call('DELETE', `/previews/${perfect.id}`, { headers: asSuperadmin })).statusCode).toBe(204);
    expect((await call('DELETE', `/previews/${bySuperadmin.id}`, { headers: asSuperadmin })).statusCode).toBe(204);
    expect(await previewCount()).toBe(before - 3);
    expect((await list()).total).toBe(0);
  });
});
