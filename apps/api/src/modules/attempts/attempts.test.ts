import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import type {
  Attempt,
  CaseAnswer,
  CaseDocument,
  CreateProjectBody,
  Dashboard,
  DashboardProject,
  ParticipantProgress,
  Project,
  UpdateCaseBody,
} from '@pss/contract';
import { buildApp } from '../../app.js';
import { createPglite, openDatabase, type Database } from '../../db/client.js';
import {
  caseAnswers,
  keyTakeaways,
  participantAssignments,
  projectParticipants,
  userSeasonRoundCases,
} from '../../db/schema/index.js';
import { fixedClock } from '../../lib/clock.js';
import {
  createClient,
  createUser,
  openTestDatabase,
  testConfig,
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/test-app.js';
import { adminUrl } from '../../../test/postgres-databases.js';
import { projectBody, type Headers } from '../../../test/fixtures.js';
// The expected score comes from the scoring rule itself, not from the service under test.
// eslint-disable-next-line boundaries/no-cross-feature -- a test may check against the rule directly
import { scoreCase } from '../cases/scoring.js';
import type { UserRow } from '../users/users.service.js';

const NOW = '2026-03-02T09:00:00Z';

/* ---------- a test context that can be restarted on the same database ---------- */

/**
 * Like createTestContext, but on a database that outlives the app: `restart()` closes the
 * app and the database connection, opens the database again and builds a new app, as a
 * server restart would. On PGlite the database lives in a data directory on disk (loaded
 * from the migrated snapshot); on PostgreSQL it is a copy of the template, reopened by URL.
 */
interface RestartableContext extends TestContext {
  restart(): Promise<void>;
}

async function restartableTestContext(now: string): Promise<RestartableContext> {
  const config = testConfig();
  const clock = fixedClock(now);
  const testDatabaseUrl = process.env.TEST_DATABASE_URL;
  let database: Database;
  let reopen: () => Promise<Database>;
  let remove: () => Promise<void>;
  if (testDatabaseUrl) {
    database = (await openTestDatabase()).database;
    const result = await database.db.execute(sql`select current_database() as name`);
    const name = (result as unknown as { rows: { name: string }[] }).rows[0]!.name;
    reopen = () => openDatabase({ databaseUrl: adminUrl(testDatabaseUrl, name) });
    remove = async () => {
      const admin = new pg.Client({ connectionString: testDatabaseUrl });
      await admin.connect();
      try {
        await admin.query(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.end();
      }
    };
  } else {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pss-attempts-'));
    const snapshot = new Blob([readFileSync(inject('pgliteSnapshotFile'))]);
    database = await openDatabase({ pglite: createPglite(dataDir, { loadDataDir: snapshot }) });
    reopen = () => openDatabase({ pgliteDataDir: dataDir });
    remove = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  const build = async (db: Database) => {
    const app = await buildApp({ config, database: db, clock, logger: process.env.TEST_LOGS === '1' });
    await app.ready();
    return app;
  };
  const context: RestartableContext = {
    app: await build(database),
    db: database.db,
    database,
    config,
    clock,
    restart: async () => {
      await context.app.close();
      await context.database.close();
      context.database = await reopen();
      context.db = context.database.db;
      context.app = await build(context.database);
    },
    close: async () => {
      await context.app.close();
      await context.database.close();
      await remove();
    },
  };
  return context;
}

/* ---------- fixture ---------- */

let ctx: RestartableContext;
let clientA: { id: string };
let clientB: { id: string };
let superadmin: UserRow;
let adminA: UserRow;
let adminB: UserRow;

beforeAll(async () => {
  ctx = await restartableTestContext(NOW);
  clientA = await createClient(ctx.db, 'Alpha Health');
  clientB = await createClient(ctx.db, 'Bravo Medical');
  superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
  adminA = await createUser(ctx.db, { role: 'ADMIN', clientId: clientA.id });
  adminB = await createUser(ctx.db, { role: 'ADMIN', clientId: clientB.id });
});
afterAll(() => ctx?.close());
// Some tests move the clock; each starts on 2 March 2026 (round 1 of Spring 2026 runs).
beforeEach(() => ctx.clock.set(NOW));

/* ---------- helpers ---------- */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Reply {
  statusCode: number;
  body: string;
  json<
    T = { errorCode?: string; message?: string; details?: { fields?: { field: string; errorCode?: string }[] } },
  >(): T;
}

const signedIn = new Map<string, Headers>();
/**
 * A bearer header for the user, signed in through the real call (staff or participant);
 * signed in again whenever the clock has moved, since access tokens expire.
 */
async function as(user: UserRow): Promise<Headers> {
  const key = `${user.id}@${ctx.clock.now().getTime()}`;
  const known = signedIn.get(key);
  if (known) return known;
  const staff = user.role === 'SUPERADMIN' || user.role === 'ADMIN';
  const response = await ctx.app.inject({
    method: 'POST',
    url: staff ? '/api/auth/admin/login' : '/api/auth/login/user',
    payload: { email: user.email, password: TEST_PASSWORD },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.body}`);
  const headers = { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
  signedIn.set(key, headers);
  return headers;
}

async function call(method: Method, url: string, user: UserRow, payload?: object): Promise<Reply> {
  return (await ctx.app.inject({ method, url: `/api${url}`, headers: await as(user), payload })) as Reply;
}

function expectError(response: Reply, status: number, errorCode: string): void {
  expect({ status: response.statusCode, errorCode: response.json().errorCode }).toEqual({ status, errorCode });
}

const fieldsOf = (response: Reply) => (response.json().details?.fields ?? []).map((issue) => issue.field);

interface ProjectFacts {
  id: string;
  diseaseTypeId: string;
  categoryId: string;
  spring: string;
}

async function newProject(clientId = clientA.id, overrides: Partial<CreateProjectBody> = {}): Promise<ProjectFacts> {
  const created = await call('POST', '/projects', superadmin, projectBody(clientId, overrides));
  expect(created.statusCode).toBe(201);
  const project = (await call('GET', `/projects/${created.json<Project>().id}`, superadmin)).json<Project>();
  return {
    id: project.id,
    diseaseTypeId: project.disease_types[0]!.id,
    categoryId: project.question_categories[0]!.id,
    spring: project.seasons.find((s) => s.name === 'Spring 2026')!.id,
  };
}

type QuestionInput = UpdateCaseBody['questions'][number];
type Mark = QuestionInput['choices'][number]['marked_as'];
const choice = (text: string, marked_as: Mark) => ({ text, marked_as });

function question(
  p: ProjectFacts,
  fields: Partial<QuestionInput> & Pick<QuestionInput, 'type' | 'text'>,
): QuestionInput {
  return {
    grouper_id: null,
    text_before: '',
    required: true,
    category_id: p.categoryId,
    choices: [],
    allow_other: false,
    allow_none_of_below: false,
    ...fields,
  };
}

/**
 * A complete, publishable case (as in cases.test.ts): questions 0 (MULTI_ONE), 1
 * (MULTI_MANY) and 3 (DROPDOWN) are required; 2 (TEXT) and 4 (TYPE_AHEAD) are not.
 */
function validCase(p: ProjectFacts, overrides: Partial<UpdateCaseBody> = {}): UpdateCaseBody {
  const workUp = randomUUID();
  return {
    name: 'Chest pain at rest',
    disease_type_id: p.diseaseTypeId,
    patient_name: 'Ann Smith',
    patient_age: 54,
    reason_for_encounter: '<p>Chest pain for two hours.</p>',
    season_id: null,
    round_number: null,
    feedback_type: 'PERSONALIZED_FEEDBACK',
    references: '<p>ESC guidelines, 2023.</p>',
    test_results: '<p>Troponin 0.4 ng/mL.</p>',
    explanation: '<p>An acute coronary syndrome until proven otherwise.</p>',
    details_sections: [{ name: 'History', text: '<p>Smoker, <strong>40 pack-years</strong>.</p>' }],
    groupers: [{ id: workUp, name: 'Work-up' }],
    questions: [
      question(p, {
        type: 'MULTI_ONE',
        text: 'First test?',
        grouper_id: workUp,
        text_before: '<p>In the emergency room.</p>',
        choices: [
          choice('ECG', 'NECESSARY'),
          choice('Chest X-ray', 'APPROPRIATE'),
          choice('Colonoscopy', 'UNNECESSARY'),
        ],
      }),
      question(p, {
        type: 'MULTI_MANY',
        text: 'Which blood tests?',
        grouper_id: workUp,
        choices: [
          choice('Troponin', 'NECESSARY'),
          choice('CK-MB', 'NECESSARY'),
          choice('D-dimer', 'APPROPRIATE'),
          choice('Lipase', 'UNNECESSARY'),
        ],
        allow_other: true,
        allow_none_of_below: true,
      }),
      question(p, { type: 'TEXT', text: 'What do you tell the patient?', required: false }),
      question(p, {
        type: 'DROPDOWN',
        text: 'Disposition',
        choices: [choice('Admit to cardiology', 'NECESSARY'), choice('Discharge home', 'UNNECESSARY')],
      }),
      question(p, {
        type: 'TYPE_AHEAD',
        text: 'Working diagnosis',
        required: false,
        choices: [choice('Acute myocardial infarction', null), choice('Stable angina', null)],
      }),
    ],
    ...overrides,
  };
}

/** A case saved whole with `validCase` (and the overrides), placed in a round and published. */
async function publishedCase(
  p: ProjectFacts,
  round: number | null,
  overrides: Partial<UpdateCaseBody> = {},
  author: UserRow = superadmin,
): Promise<CaseDocument> {
  const name = overrides.name ?? 'Chest pain at rest';
  const draft = await call('POST', '/cases', author, { project_id: p.id, name, disease_type_id: p.diseaseTypeId });
  expect(draft.statusCode).toBe(201);
  const id = draft.json<CaseDocument>().id;
  const content = validCase(p, { season_id: round ? p.spring : null, round_number: round, ...overrides });
  expect((await call('PUT', `/cases/${id}`, author, content)).statusCode).toBe(200);
  const published = await call('POST', `/cases/${id}/status`, author, { status: 'PUBLISHED' });
  expect(published.statusCode).toBe(200);
  return (await call('GET', `/cases/${id}`, author)).json<CaseDocument>();
}

/** A participant (a USER with the test password) assigned to rounds of the project's Spring 2026. */
async function enrol(
  p: ProjectFacts,
  options: { firstRound?: number; lastRound?: number; startDate?: string; clientId?: string } = {},
): Promise<UserRow> {
  const user = await createUser(ctx.db, { role: 'USER', clientId: options.clientId ?? clientA.id });
  await ctx.db
    .insert(projectParticipants)
    .values({ projectId: p.id, userId: user.id, sortName: 'user test', email: user.email, dataStatus: 'READY' });
  await ctx.db.insert(participantAssignments).values({
    userId: user.id,
    seasonId: p.spring,
    projectId: p.id,
    firstRound: options.firstRound ?? 1,
    lastRound: options.lastRound ?? 4,
    startDate: options.startDate ?? '2026-03-01',
  });
  return user;
}

async function dashboardOf(user: UserRow): Promise<Dashboard> {
  const response = await call('GET', '/dashboard', user);
  expect(response.statusCode).toBe(200);
  return response.json<Dashboard>();
}

/** The participant's UserSeasonRoundCase id for a case, as their dashboard lists it. */
async function attemptOf(user: UserRow, caseName: string): Promise<string> {
  const cases = (await dashboardOf(user)).projects.flatMap((p) => p.cases);
  const found = cases.filter((c) => c.case_name === caseName);
  expect(found).toHaveLength(1);
  return found[0]!.id;
}

const getAttempt = (user: UserRow, id: string) => call('GET', `/users/${id}/questions`, user);
const start = (user: UserRow, id: string) => call('POST', `/cases/${id}/start`, user);
const answer = (user: UserRow, id: string, body: CaseAnswer) => call('POST', `/cases/${id}/answer`, user, body);
const submit = (user: UserRow, id: string) => call('POST', `/cases/${id}/submit`, user);

/** Choice ids by text, across the case's questions. */
function choiceIds(view: Attempt['case']): Record<string, string> {
  return Object.fromEntries(view.questions.flatMap((q) => q.choices.map((c) => [c.text, c.id])));
}

async function attemptRow(id: string) {
  const [row] = await ctx.db.select().from(userSeasonRoundCases).where(eq(userSeasonRoundCases.id, id));
  return row!;
}

async function answerCount(id: string): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(caseAnswers).where(eq(caseAnswers.userSeasonRoundCaseId, id));
  return row!.n;
}

/** The score by the one scoring rule (scoring.ts), from the staff's copy of the case with its marks. */
function expectedScore(doc: CaseDocument, answers: CaseAnswer[]): number {
  return scoreCase(
    doc.questions.map((q) => ({
      id: q.id,
      type: q.type,
      choices: q.choices.map((c) => ({ id: c.id, markedAs: c.marked_as ?? 'APPROPRIATE' })),
    })),
    new Map(
      answers.map((a) => [a.question_id, { choiceIds: a.choice_ids ?? [], noneOfTheBelow: a.none_of_below ?? false }]),
    ),
  ).score;
}

/** Answers every required question of a `validCase` case and submits it. */
async function complete(user: UserRow, id: string): Promise<Attempt> {
  const view = (await getAttempt(user, id)).json<Attempt>().case;
  const ids = choiceIds(view);
  const q = view.questions;
  for (const body of [
    { question_id: q[0]!.id, choice_ids: [ids['ECG']!] },
    { question_id: q[1]!.id, choice_ids: [ids['Troponin']!, ids['CK-MB']!] },
    { question_id: q[3]!.id, choice_ids: [ids['Admit to cardiology']!] },
  ]) {
    expect((await answer(user, id, body)).statusCode).toBe(200);
  }
  const submitted = await submit(user, id);
  expect(submitted.statusCode).toBe(200);
  return submitted.json<Attempt>();
}

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

describe('submitting a case', () => {
  let p: ProjectFacts;
  let doc: CaseDocument;

  beforeAll(async () => {
    p = await newProject();
    doc = await publishedCase(p, 1, { name: 'Scored' });
    await publishedCase(p, 1, { name: 'Second' });
  });

  it('lists the required questions unanswered, then scores once by the scoring rule', async () => {
    const me = await enrol(p);
    const id = await attemptOf(me, 'Scored');
    const view = (await getAttempt(me, id)).json<Attempt>().case;
    const ids = choiceIds(view);
    const q = view.questions;

    const nothing = await submit(me, id);
    expectError(nothing, 409, 'CASES_NOT_COMPLETED');
    expect(fieldsOf(nothing)).toEqual(['questions.0', 'questions.1', 'questions.3']);

    const given: CaseAnswer[] = [
      { question_id: q[0]!.id, choice_ids: [ids['Chest X-ray']!] },
      { question_id: q[2]!.id, text: 'Stay calm.' },
    ];
    for (const body of given) expect((await answer(me, id, body)).statusCode).toBe(200);
    // Only an empty answer: not an answer.
    expect((await answer(me, id, { question_id: q[1]!.id, choice_ids: [] })).statusCode).toBe(200);
    const missing = await submit(me, id);
    expectError(missing, 409, 'CASES_NOT_COMPLETED');
    expect(missing.json().details?.fields).toEqual([
      expect.objectContaining({ field: 'questions.1', errorCode: 'FIELD_REQUIRED' }),
      expect.objectContaining({ field: 'questions.3', errorCode: 'FIELD_REQUIRED' }),
    ]);
    expect((await attemptRow(id)).status).toBe('IN_PROGRESS');

    given.push(
      { question_id: q[1]!.id, choice_ids: [ids['Troponin']!, ids['Lipase']!] },
      { question_id: q[3]!.id, choice_ids: [ids['Admit to cardiology']!] },
    );
    for (const body of given.slice(2)) expect((await answer(me, id, body)).statusCode).toBe(200);

    ctx.clock.advance(60_000);
    const submitted = await submit(me, id);
    expect(submitted.statusCode).toBe(200);
    const attempt = submitted.json<Attempt>();
    const score = expectedScore(doc, given);
    // (2 necessary chosen − 1 unnecessary) ÷ 4 necessary = 25.
    expect(score).toBe(25);
    expect(attempt).toMatchObject({
      id,
      status: 'COMPLETE',
      result: { score, feedback_type: 'PERSONALIZED_FEEDBACK' },
    });
    expect(attempt.next_case_id).toBe(await attemptOf(me, 'Second'));
    const feedback = Object.fromEntries(attempt.result!.questions.map((f) => [f.text, f]));
    expect(feedback['Which blood tests?']).toMatchObject({
      scored: true,
      necessary_missed: ['CK-MB'],
      unnecessary_chosen: ['Lipase'],
    });
    expect(feedback['First test?']).toMatchObject({ necessary_missed: ['ECG'], unnecessary_chosen: [] });
    expect(feedback['What do you tell the patient?']).toMatchObject({ scored: false, answer_text: 'Stay calm.' });
    expect(attempt.result).toMatchObject({
      explanation: doc.explanation,
      references: doc.references,
      test_results: doc.test_results,
    });
    const stored = await attemptRow(id);
    expect(stored).toMatchObject({ status: 'COMPLETE', score });
    expect(stored.submittedAt?.toISOString()).toBe('2026-03-02T09:01:00.000Z');

    // A second submit answers the same result and records nothing new.
    ctx.clock.advance(60_000);
    const again = await submit(me, id);
    expect(again.statusCode).toBe(200);
    expect(again.json<Attempt>().result?.score).toBe(score);
    expect(again.json<Attempt>().result).toEqual(attempt.result);
    expect((await attemptRow(id)).submittedAt?.toISOString()).toBe('2026-03-02T09:01:00.000Z');

    // Answers are final.
    const late = await answer(me, id, { question_id: q[0]!.id, choice_ids: [ids['ECG']!] });
    expectError(late, 403, 'CHANGES_FORBIDDEN');
    const reread = (await getAttempt(me, id)).json<Attempt>();
    expect(reread.answers.find((a) => a.question_id === q[0]!.id)?.choice_ids).toEqual([ids['Chest X-ray']!]);
    expect(reread.result?.score).toBe(score);

    // The dashboard shows the score.
    const [project] = (await dashboardOf(me)).projects as [DashboardProject];
    expect(project.cases.find((c) => c.id === id)).toMatchObject({ status: 'COMPLETE', score });
  });

  it('notes the score seen and the case finished only after submitting, once', async () => {
    const me = await enrol(p);
    const id = await attemptOf(me, 'Scored');
    for (const path of ['score-accessed', 'finish']) {
      expectError(await call('POST', `/cases/${id}/${path}`, me), 409, 'CASES_NOT_COMPLETED');
    }
    expect(await attemptRow(id)).toMatchObject({ scoreAccessedAt: null, finishedAt: null });

    await complete(me, id);
    ctx.clock.advance(5 * 60_000);
    const accessed = await call('POST', `/cases/${id}/score-accessed`, me);
    expect(accessed.statusCode).toBe(204);
    expect(accessed.body).toBe('');
    ctx.clock.advance(5 * 60_000);
    expect((await call('POST', `/cases/${id}/finish`, me)).statusCode).toBe(204);
    ctx.clock.advance(5 * 60_000);
    // Again: the first moment stays.
    expect((await call('POST', `/cases/${id}/score-accessed`, me)).statusCode).toBe(204);
    expect((await call('POST', `/cases/${id}/finish`, me)).statusCode).toBe(204);

    const row = await attemptRow(id);
    expect(row.scoreAccessedAt?.toISOString()).toBe('2026-03-02T09:05:00.000Z');
    expect(row.finishedAt?.toISOString()).toBe('2026-03-02T09:10:00.000Z');
  });
});

/* ---------- a case participants have started ---------- */

describe('a published case participants have started', () => {
  it('cannot go back to draft nor be deleted; one no participant has can go back', async () => {
    const p = await newProject();
    const started = await publishedCase(p, 1, { name: 'Started' });
    // Unplaced: nobody has it (a placed case is on its participants' dashboards: it stays).
    const untouched = await publishedCase(p, null, { name: 'Untouched' });
    const me = await enrol(p);
    expect((await start(me, await attemptOf(me, 'Started'))).statusCode).toBe(200);

    // Round 1 is over: neither case is active any more, only the start tells them apart.
    ctx.clock.set('2026-03-20T09:00:00Z');
    expect((await call('GET', `/cases/${started.id}`, superadmin)).json<CaseDocument>().status).toBe('PUBLISHED');
    const toDraft = await call('POST', `/cases/${started.id}/status`, superadmin, { status: 'DRAFT' });
    expectError(toDraft, 403, 'CHANGES_FORBIDDEN');
    expect(toDraft.json().message).toBe('Participants have this case: it stays published.');
    expectError(
      await call('DELETE', `/cases/${started.id}`, superadmin),
      409,
      'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN',
    );
    // Even once the participant is no longer assigned to the round, their attempt holds the case.
    await ctx.db
      .delete(participantAssignments)
      .where(and(eq(participantAssignments.userId, me.id), eq(participantAssignments.projectId, p.id)));
    expectError(
      await call('DELETE', `/cases/${started.id}`, superadmin),
      409,
      'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN',
    );
    expect((await call('GET', `/cases/${started.id}`, superadmin)).json<CaseDocument>().status).toBe('PUBLISHED');

    const back = await call('POST', `/cases/${untouched.id}/status`, superadmin, { status: 'DRAFT' });
    expect(back.statusCode).toBe(200);
    expect(back.json<CaseDocument>().status).toBe('DRAFT');
  });
});

/* ---------- an administrator's view of a participant ---------- */

describe('a participant’s progress, for administrators', () => {
  it('counts the cases and the completed ones, for the client’s own staff only', async () => {
    const p = await newProject();
    await publishedCase(p, 1, { name: 'First' });
    await publishedCase(p, 2, { name: 'Second' });
    await publishedCase(p, 3, { name: 'Third' });
    const me = await enrol(p, { firstRound: 1, lastRound: 2 });
    const url = `/users/${me.id}/project/${p.id}`;

    // The admin's call makes the participant's cases, before they ever sign in.
    const before = await call('GET', url, adminA);
    expect(before.statusCode).toBe(200);
    expect(before.json<ParticipantProgress>()).toMatchObject({
      user_id: me.id,
      project_id: p.id,
      completed: 0,
      total: 2,
    });
    expect(before.json<ParticipantProgress>().cases.map((c) => [c.case_name, c.status, c.unlocked])).toEqual([
      ['First', 'NOT_STARTED', true],
      ['Second', 'NOT_STARTED', false],
    ]);

    await complete(me, await attemptOf(me, 'First'));
    const after = await call('GET', url, adminA);
    expect(after.json<ParticipantProgress>()).toMatchObject({ completed: 1, total: 2 });
    expect(after.json<ParticipantProgress>().cases[0]).toMatchObject({
      case_name: 'First',
      status: 'COMPLETE',
      score: 100,
    });
    expect((await call('GET', url, superadmin)).json<ParticipantProgress>()).toMatchObject({ completed: 1, total: 2 });

    expectError(await call('GET', url, adminB), 404, 'PROJECT_NOT_FOUND');
    expectError(await call('GET', url, me), 403, 'FORBIDDEN');
    expectError(await call('GET', `/users/${me.id}/project/${randomUUID()}`, adminA), 404, 'PROJECT_NOT_FOUND');
  });
});

describe('the participants list filtered by progress', () => {
  it('finds participants who have not started, are part-way, or have completed their cases', async () => {
    const p = await newProject();
    await publishedCase(p, 1, { name: 'Alpha' });
    await publishedCase(p, 1, { name: 'Beta' });
    const idle = await enrol(p);
    const halfway = await enrol(p);
    const done = await enrol(p);
    await complete(halfway, await attemptOf(halfway, 'Alpha'));
    await complete(done, await attemptOf(done, 'Alpha'));
    await complete(done, await attemptOf(done, 'Beta'));

    const withProgress = async (progress: string) => {
      const response = await call(
        'GET',
        `/projects/${p.id}/users?filter=${encodeURIComponent(JSON.stringify({ progress }))}`,
        adminA,
      );
      expect(response.statusCode).toBe(200);
      const page = response.json<{ total: number; items: { user_id: string; completed_cases: number }[] }>();
      return { total: page.total, ids: page.items.map((i) => i.user_id).sort(), items: page.items };
    };
    expect(await withProgress('NOT_STARTED')).toMatchObject({ total: 1, ids: [idle.id] });
    expect(await withProgress('IN_PROGRESS')).toMatchObject({ total: 1, ids: [halfway.id] });
    const complete_ = await withProgress('COMPLETE');
    expect(complete_).toMatchObject({ total: 1, ids: [done.id] });
    expect(complete_.items[0]!.completed_cases).toBe(2);
    expectError(
      await call('GET', `/projects/${p.id}/users?filter=${encodeURIComponent('{"progress":"LATE"}')}`, adminA),
      400,
      'VALIDATION_ERROR',
    );
  });
});

/* ---------- answers at the same moment ---------- */

describe('answers sent at the same moment', () => {
  it('stores all 20 answers to different questions of one case', async () => {
    const p = await newProject();
    const questions = Array.from({ length: 20 }, (_, i) =>
      question(p, {
        type: 'MULTI_ONE',
        text: `Question ${i + 1}`,
        choices: [choice(`Right ${i + 1}`, 'NECESSARY'), choice(`Wrong ${i + 1}`, 'UNNECESSARY')],
      }),
    );
    const doc = await publishedCase(p, 1, { name: 'Twenty questions', groupers: [], questions });
    const me = await enrol(p);
    const id = await attemptOf(me, 'Twenty questions');
    const view = (await getAttempt(me, id)).json<Attempt>().case;
    expect(view.questions).toHaveLength(20);
    await as(me);

    const answers = view.questions.map((q) => ({ question_id: q.id, choice_ids: [q.choices[0]!.id] }));
    const replies = await Promise.all(answers.map((body) => answer(me, id, body)));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(await answerCount(id)).toBe(20);
    const read = (await getAttempt(me, id)).json<Attempt>();
    expect(read.status).toBe('IN_PROGRESS');
    expect(read.answers).toHaveLength(20);

    const submitted = await submit(me, id);
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json<Attempt>().result?.score).toBe(expectedScore(doc, answers));
    expect(submitted.json<Attempt>().result?.score).toBe(100);
  });
});
