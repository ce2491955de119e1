import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { type Attempt, type CaseAnswer, type CaseDocument, type Dashboard, type DashboardProject } from '@pss/contract';
import { keyTakeaways, projectParticipants } from '../../db/schema/index.js';
import { createUser } from '../../../test/test-app.js';
import { type UserRow } from '../users/users.service.js';
import { expectError, fieldsOf } from '../../../test/kit.js';
import { everyTypeCase as validCase } from '../../../test/case-bodies.js';

import { choiceIds, type Spring as ProjectFacts, attemptsSetup } from '../../../test/attempt-calls.js';

const {
  ctx,
  clientA,
  clientB,
  superadmin,
  adminA,
  adminB,
  call,
  newProject,
  publishedCase,
  enrol,
  dashboardOf,
  attemptOf,
  getAttempt,
  start,
  answer,
  submit,
  complete,
  attemptRow,
  answerCount,
} = attemptsSetup();

/* ---------- the dashboard ---------- */

describe('the dashboard', () => {
  let p: ProjectFacts;
  let me: UserRow;

  beforeAll(async () => {
    p = await newProject();
    const elsewhere = await newProject();
    const otherClient = await newProject(clientB.id);
    me = await enrol(p);
    // Other participants, other projects and cases that are not for me.
    const neighbour = await enrol(p, { startDate: '2026-03-05' });
    await enrol(elsewhere);
    await enrol(otherClient, { clientId: clientB.id });
    await ctx.db
      .insert(projectParticipants)
      .values({ projectId: elsewhere.id, userId: neighbour.id, sortName: 'x', email: neighbour.email });

    await publishedCase(p, 1, { name: 'Alpha chest pain', patient_name: 'Ann Smith' });
    await publishedCase(p, 1, { name: 'Beta dyspnoea', patient_name: 'Bob Jones' });
    await publishedCase(p, 3, { name: 'Gamma syncope', patient_name: 'Cat Lee' });
    await publishedCase(p, null, { name: 'Unplaced' });
    const draft = await call('POST', '/cases', superadmin, {
      project_id: p.id,
      name: 'Draft in round 1',
      disease_type_id: p.diseaseTypeId,
    });
    await call('PUT', `/cases/${draft.json<CaseDocument>().id}`, superadmin, {
      ...validCase(p, { name: 'Draft in round 1', season_id: p.spring, round_number: 1 }),
    });
    await publishedCase(elsewhere, 1, { name: 'Elsewhere' });
    await publishedCase(otherClient, 1, { name: 'Other client' }, adminB);

    const cme = await call('POST', '/cmes', adminA, { project_id: p.id, min_cases: 1, credits: 1.25, moc: true });
    expect(cme.statusCode).toBe(201);
    await call('POST', '/cmes', adminA, { project_id: elsewhere.id, min_cases: 2, credits: 1, moc: false });
  });

  it('shows only the participant’s own projects and published, placed cases, with the running round', async () => {
    const dashboard = await dashboardOf(me);
    expect(dashboard.user).toEqual({
      id: me.id,
      email: me.email,
      first_name: 'Test',
      last_name: 'User',
      role: 'USER',
      has_password: true,
    });
    expect(dashboard.projects).toHaveLength(1);
    const [project] = dashboard.projects as [DashboardProject];
    expect(project).toMatchObject({
      project_id: p.id,
      season_name: 'Spring 2026',
      round_number: 1,
      round_end_date: '2026-03-14',
      cases_unlocked: 2,
      pending_case_count: 2,
      key_takeaways: [],
    });
    expect(project.next_case).toMatchObject({ case_name: 'Alpha chest pain', patient_name: 'Ann Smith' });
    expect(
      project.cases.map((c) => [c.case_name, c.round_number, c.unlocks_on, c.unlocked, c.status, c.score]),
    ).toEqual([
      ['Alpha chest pain', 1, '2026-03-01', true, 'NOT_STARTED', null],
      ['Beta dyspnoea', 1, '2026-03-01', true, 'NOT_STARTED', null],
      ['Gamma syncope', 3, '2026-03-29', false, 'NOT_STARTED', null],
    ]);
    expect(project.cmes).toEqual([
      { id: expect.any(String), min_cases: 1, credits: 1.25, moc: true, completed_cases: 0 },
    ]);
    // Asking again creates nothing new.
    expect((await dashboardOf(me)).projects[0]!.cases.map((c) => c.id)).toEqual(project.cases.map((c) => c.id));
  });

  it('unlocks a round from the participant’s own start date when it is later', async () => {
    const late = await enrol(p, { startDate: '2026-03-05' });
    const [project] = (await dashboardOf(late)).projects as [DashboardProject];
    expect(project.cases.map((c) => [c.case_name, c.unlocks_on, c.unlocked])).toEqual([
      ['Alpha chest pain', '2026-03-05', false],
      ['Beta dyspnoea', '2026-03-05', false],
      ['Gamma syncope', '2026-03-29', false],
    ]);
    expect(project).toMatchObject({ cases_unlocked: 0, pending_case_count: 0, next_case: null });
  });

  it('counts completed cases toward the CMEs and shows their key takeaways', async () => {
    const done = await enrol(p);
    const alpha = await attemptOf(done, 'Alpha chest pain');
    const alphaCaseId = (await getAttempt(done, alpha)).json<Attempt>().case.id;
    const betaCaseId = (await getAttempt(done, await attemptOf(done, 'Beta dyspnoea'))).json<Attempt>().case.id;
    await ctx.db.insert(keyTakeaways).values([
      { caseId: alphaCaseId, position: 2, text: 'Troponin twice, three hours apart.', origin: 'CUSTOM' },
      { caseId: alphaCaseId, position: 1, text: 'An ECG within ten minutes.', origin: 'CUSTOM' },
      { caseId: betaCaseId, position: 1, text: 'Not shown: this case is not done.', origin: 'CUSTOM' },
    ]);

    const result = await complete(done, alpha);
    expect(result.result?.key_takeaways).toEqual(['An ECG within ten minutes.', 'Troponin twice, three hours apart.']);

    const [project] = (await dashboardOf(done)).projects as [DashboardProject];
    expect(project).toMatchObject({ cases_unlocked: 2, pending_case_count: 1 });
    expect(project.next_case).toMatchObject({ case_name: 'Beta dyspnoea', patient_name: 'Bob Jones' });
    expect(project.cases[0]).toMatchObject({ case_name: 'Alpha chest pain', status: 'COMPLETE', score: 100 });
    expect(project.key_takeaways).toEqual([
      {
        case_name: 'Alpha chest pain',
        items: ['An ECG within ten minutes.', 'Troponin twice, three hours apart.'],
      },
    ]);
    expect(project.cmes).toEqual([
      { id: expect.any(String), min_cases: 1, credits: 1.25, moc: true, completed_cases: 1 },
    ]);
    // Another participant's progress is their own.
    expect((await dashboardOf(me)).projects[0]!.cmes[0]!.completed_cases).toBe(0);
  });

  it('names no running round between seasons, and unlocks the later rounds as time passes', async () => {
    ctx.clock.set('2026-03-30T09:00:00Z');
    const [during] = (await dashboardOf(me)).projects as [DashboardProject];
    expect(during).toMatchObject({ round_number: 3, round_end_date: '2026-04-11', cases_unlocked: 3 });

    ctx.clock.set('2026-05-01T09:00:00Z');
    const [after] = (await dashboardOf(me)).projects as [DashboardProject];
    expect(after).toMatchObject({ season_name: null, round_number: null, round_end_date: null, cases_unlocked: 3 });
  });

  it('is empty for a participant with no assignment', async () => {
    const nobody = await createUser(ctx.db, { role: 'USER', clientId: clientA.id });
    expect((await dashboardOf(nobody)).projects).toEqual([]);
  });
});

/* ---------- one participant's cases ---------- */

describe('a participant’s cases', () => {
  let p: ProjectFacts;
  let doc: CaseDocument;
  let future: CaseDocument;

  beforeAll(async () => {
    p = await newProject();
    doc = await publishedCase(p, 1, { name: 'Round one' });
    future = await publishedCase(p, 3, { name: 'Round three' });
  });

  it('answers 404 for another participant’s case, on every call, and leaves it alone', async () => {
    const me = await enrol(p);
    const other = await enrol(p);
    const theirs = await attemptOf(other, 'Round one');
    const view = (await getAttempt(other, theirs)).json<Attempt>().case;
    await dashboardOf(me);

    for (const id of [theirs, randomUUID()]) {
      expectError(await getAttempt(me, id), 404, 'NOT_FOUND');
      expectError(await start(me, id), 404, 'NOT_FOUND');
      expectError(await answer(me, id, { question_id: view.questions[2]!.id, text: 'Mine now' }), 404, 'NOT_FOUND');
      expectError(await submit(me, id), 404, 'NOT_FOUND');
      expectError(await call('POST', `/cases/${id}/score-accessed`, me), 404, 'NOT_FOUND');
      expectError(await call('POST', `/cases/${id}/finish`, me), 404, 'NOT_FOUND');
    }
    expect(await attemptRow(theirs)).toMatchObject({ status: 'NOT_STARTED', startedAt: null });
    expect(await answerCount(theirs)).toBe(0);
    // The case id itself is not an attempt id either.
    expectError(await getAttempt(me, doc.id), 404, 'NOT_FOUND');
  });

  it('refuses to start or answer a case before its round begins, and allows it once it has', async () => {
    const me = await enrol(p);
    const id = await attemptOf(me, 'Round three');
    // A locked case is not shown yet (its place on the dashboard says when it unlocks).
    const locked = await getAttempt(me, id);
    expectError(locked, 403, 'CHANGES_FORBIDDEN');
    const listed = (await call('GET', '/dashboard', me)).json<Dashboard>();
    expect(listed.projects[0]!.cases.find((c) => c.id === id)).toMatchObject({
      status: 'NOT_STARTED',
      unlocks_on: '2026-03-29',
      unlocked: false,
    });
    const body = { question_id: future.questions[2]!.id, text: 'Too early' };

    const early = await start(me, id);
    expectError(early, 403, 'CHANGES_FORBIDDEN');
    expect(early.json().message).toBe('This case unlocks on 2026-03-29.');
    expectError(await answer(me, id, body), 403, 'CHANGES_FORBIDDEN');
    expectError(await submit(me, id), 403, 'CHANGES_FORBIDDEN');
    expect(await attemptRow(id)).toMatchObject({ status: 'NOT_STARTED', startedAt: null });
    expect(await answerCount(id)).toBe(0);

    ctx.clock.set('2026-03-28T23:59:00Z');
    expectError(await start(me, id), 403, 'CHANGES_FORBIDDEN');

    ctx.clock.set('2026-03-30T09:00:00Z');
    const started = await start(me, id);
    expect(started.statusCode).toBe(200);
    expect(started.json<Attempt>()).toMatchObject({ id, status: 'STARTED' });
    expect((await attemptRow(id)).startedAt?.toISOString()).toBe('2026-03-30T09:00:00.000Z');
    expect((await answer(me, id, body)).json()).toEqual({ saved: true });
    expect((await getAttempt(me, id)).json<Attempt>().status).toBe('IN_PROGRESS');
    expect(future.id).toBe((await getAttempt(me, id)).json<Attempt>().case.id);
  });

  it('saves answers as they are given and reads them back, also after a restart', async () => {
    const me = await enrol(p);
    const id = await attemptOf(me, 'Round one');
    const first = (await getAttempt(me, id)).json<Attempt>();
    expect(first).toMatchObject({ id, project_id: p.id, status: 'NOT_STARTED', answers: [], result: null });
    // The participant sees the case without its answer key.
    expect(first.case).toMatchObject({ id: doc.id, name: 'Round one', patient_name: 'Ann Smith', patient_age: 54 });
    expect(JSON.stringify(first)).not.toMatch(/NECESSARY|APPROPRIATE|marked_as/);

    const started = await start(me, id);
    expect(started.json<Attempt>().status).toBe('STARTED');
    const ids = choiceIds(first.case);
    const q = first.case.questions;
    const given: CaseAnswer[] = [
      { question_id: q[0]!.id, choice_ids: [ids['Colonoscopy']!] },
      { question_id: q[1]!.id, choice_ids: [ids['Troponin']!, ids['Lipase']!], text: 'Lactate' },
      { question_id: q[2]!.id, text: '  We will keep you in.  ' },
      { question_id: q[4]!.id, text: 'Unstable angina' },
    ];
    for (const body of given) expect((await answer(me, id, body)).json()).toEqual({ saved: true });
    // A second answer to a question replaces the first.
    expect((await answer(me, id, { question_id: q[0]!.id, choice_ids: [ids['ECG']!] })).statusCode).toBe(200);
    // Starting again does not undo the progress.
    expect((await start(me, id)).json<Attempt>().status).toBe('IN_PROGRESS');

    const expected = [
      { question_id: q[0]!.id, choice_ids: [ids['ECG']!], text: null, none_of_below: false },
      { question_id: q[1]!.id, choice_ids: [ids['Troponin']!, ids['Lipase']!], text: 'Lactate', none_of_below: false },
      { question_id: q[2]!.id, choice_ids: [], text: 'We will keep you in.', none_of_below: false },
      { question_id: q[4]!.id, choice_ids: [], text: 'Unstable angina', none_of_below: false },
    ];
    const byQuestion = (a: { question_id: string }, b: { question_id: string }) =>
      a.question_id.localeCompare(b.question_id);
    const read = (await getAttempt(me, id)).json<Attempt>();
    expect(read.status).toBe('IN_PROGRESS');
    expect([...read.answers].sort(byQuestion)).toEqual([...expected].sort(byQuestion));
    expect(await answerCount(id)).toBe(4);

    await ctx.restart();
    const after = await getAttempt(me, id);
    expect(after.statusCode).toBe(200);
    expect(after.json<Attempt>().status).toBe('IN_PROGRESS');
    expect([...after.json<Attempt>().answers].sort(byQuestion)).toEqual([...expected].sort(byQuestion));
    // The restarted app goes on from there.
    expect((await answer(me, id, { question_id: q[3]!.id, choice_ids: [ids['Discharge home']!] })).statusCode).toBe(
      200,
    );
    expect(await answerCount(id)).toBe(5);
  });

  it('refuses answers that do not fit the case with 400, and stores nothing', async () => {
    const me = await enrol(p);
    const id = await attemptOf(me, 'Round one');
    const view = (await getAttempt(me, id)).json<Attempt>().case;
    const ids = choiceIds(view);
    const q = view.questions;

    const unknown = await answer(me, id, { question_id: randomUUID(), text: 'Hello' });
    expectError(unknown, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(unknown)).toEqual(['body.question_id']);

    const foreign = await answer(me, id, { question_id: q[0]!.id, choice_ids: [ids['Troponin']!] });
    expectError(foreign, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(foreign)).toEqual(['body.choice_ids']);

    const two = await answer(me, id, { question_id: q[0]!.id, choice_ids: [ids['ECG']!, ids['Chest X-ray']!] });
    expectError(two, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(two)).toEqual(['body.choice_ids']);

    // A choice of another case altogether.
    const otherCase = future.questions[0]!.choices[0]!.id;
    expectError(await answer(me, id, { question_id: q[0]!.id, choice_ids: [otherCase] }), 400, 'VALIDATION_ERROR');
    // "None of the below" where the question has none, and "other" text where it has none.
    expectError(await answer(me, id, { question_id: q[0]!.id, none_of_below: true }), 400, 'VALIDATION_ERROR');
    expectError(await answer(me, id, { question_id: q[3]!.id, text: 'Home' }), 400, 'VALIDATION_ERROR');
    // Not a question id at all.
    const malformed = await answer(me, id, { question_id: 'question-1' });
    expectError(malformed, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(malformed)).toEqual(['body.question_id']);

    expect(await answerCount(id)).toBe(0);
    expect((await attemptRow(id)).status).toBe('NOT_STARTED');
  });
});

/* ---------- submitting ---------- */
