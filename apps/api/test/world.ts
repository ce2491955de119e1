import type { CaseDocument, Dashboard, DueSurveys, Project } from '@pss/contract';
import { randomUUID } from 'node:crypto';
import { participantAssignments, projectParticipants } from '../src/db/schema/index.js';
import { createTokenService, newRefreshToken } from '../src/lib/tokens.js';
import { createSessionsRepository } from '../src/modules/auth/sessions.repository.js';
import { perfectAnswers, validCase } from './case-bodies.js';
import { multipartFile, projectBody } from './fixtures.js';
import { smallPdf, videoHead } from './summary-files.js';
import { as } from './kit.js';
import { halfSignedInToken } from './second-factor-kit.js';
import { createClient, createUser, TEST_PASSWORD, type TestContext } from './test-app.js';
import type { UserRow } from '../src/modules/users/users.repository.js';
import { worldCertificates } from './world-certificates.js';
import { worldDelivery } from './world-delivery.js';

/** A valid PNG of one pixel: the patient image of the world's cases. */
const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The callers the route matrix knows. The owner is the administrator of the client that
 * owns the world's records (client A); the other administrator belongs to client B.
 */
export const callers = [
  'anonymous',
  'participant',
  'testUser',
  'otherAdmin',
  'ownerAdmin',
  'superadmin',
  'halfSignedIn',
] as const;
export type Caller = (typeof callers)[number];

export interface WorldRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  /** The URL is the server's, not under /api (`/metrics`). */
  root?: true;
}

type Method = WorldRequest['method'];

/**
 * A populated database for tests that walk every route: two clients, their
 * administrators, a superadmin, a project of client A with a season running now, a
 * published case in its round 1 that a participant and a test user of client A have
 * started, a draft case, a preview, a CME, a module library with a case, an import job,
 * a draft results summary of its season, and a second project whose season both
 * participants completed, with its results summary posted. `make` creates fresh records for calls that consume their target (deletes, status
 * changes), so every caller is asked about a record that exists.
 */
export async function buildWorld(ctx: TestContext) {
  const clientA = await createClient(ctx.db, `Alpha Health ${Math.random().toString(36).slice(2, 7)}`);
  const clientB = await createClient(ctx.db, `Bravo Medical ${Math.random().toString(36).slice(2, 7)}`);
  const users = {
    superadmin: await createUser(ctx.db, { role: 'SUPERADMIN' }),
    ownerAdmin: await createUser(ctx.db, { role: 'ADMIN', clientId: clientA.id }),
    otherAdmin: await createUser(ctx.db, { role: 'ADMIN', clientId: clientB.id }),
    participant: await createUser(ctx.db, { role: 'USER', clientId: clientA.id }),
    testUser: await createUser(ctx.db, { role: 'TESTUSER', clientId: clientA.id }),
    // A superadmin whose password was right but who must still set up a second factor.
    halfSignedIn: await createUser(ctx.db, { role: 'SUPERADMIN' }),
  };

  async function headersOf(caller: Caller): Promise<Record<string, string>> {
    if (caller === 'anonymous') return {};
    // A step of its own each time: an enrolment that completes spends it.
    if (caller === 'halfSignedIn') {
      return { authorization: `Bearer ${await halfSignedInToken(ctx.db, users.halfSignedIn.id, ctx.clock.now())}` };
    }
    return as(ctx, users[caller]);
  }

  const isStaff = (caller: Caller) => caller === 'superadmin' || caller === 'ownerAdmin' || caller === 'otherAdmin';

  /**
   * A session of its own for a call that ends it (a sign-out): the one `headersOf` keeps
   * must stay live for the calls after it. Made as a sign-in makes one (a refresh-token
   * family and an access token naming it), without the sign-in call, whose limits the
   * fuzzing's wrong passwords may have used up.
   */
  async function ownSessionOf(caller: Caller): Promise<Record<string, string>> {
    if (caller === 'anonymous' || caller === 'halfSignedIn') return headersOf(caller);
    const user = users[caller];
    const now = ctx.clock.now();
    const sessionId = randomUUID();
    await createSessionsRepository(ctx.db).insert({
      userId: user.id,
      tokenHash: newRefreshToken().hash,
      familyId: sessionId,
      expiresAt: new Date(now.getTime() + ctx.config.refreshTokenTtlHours * 3600_000),
      createdAt: now,
    });
    const token = await createTokenService(ctx.config.sessionSecret, ctx.config.accessTokenTtlSeconds).signAccessToken(
      { userId: user.id, role: user.role, clientId: user.clientId, sessionId },
      now,
    );
    return { authorization: `Bearer ${token}` };
  }

  /**
   * The kept session while it is live, else a new one: a call that ended the caller's
   * sessions (a sign-out, an email change by a superadmin) refuses the kept token at once.
   */
  async function liveHeadersOf(caller: Caller): Promise<Record<string, string>> {
    if (caller === 'anonymous' || caller === 'halfSignedIn') return headersOf(caller);
    const kept = await headersOf(caller);
    const check = await ctx.app.inject({
      method: 'GET',
      url: isStaff(caller) ? '/api/auth/admin/verify' : '/api/auth/user/verify',
      headers: kept,
    });
    return check.statusCode === 200 ? kept : ownSessionOf(caller);
  }

  /** A call as a caller; throws unless it answers the expected status. */
  async function call<T = unknown>(caller: Caller, method: Method, url: string, payload?: unknown, status = 200) {
    const response = await ctx.app.inject({
      method,
      url: `/api${url}`,
      headers: await headersOf(caller),
      payload: payload as object | undefined,
    });
    if (response.statusCode !== status) {
      throw new Error(`${method} ${url} as ${caller}: ${response.statusCode} ${response.body}`);
    }
    return (response.body ? response.json() : undefined) as T;
  }

  const tag = Math.random().toString(36).slice(2, 7);
  // Catalogue names of client A's own: client B's administrator must not learn them.
  const created = await call<Project>(
    'superadmin',
    'POST',
    '/projects',
    projectBody(clientA.id, {
      disease_types: [`Alpha disease ${tag}`],
      question_categories: [`Alpha category ${tag}`],
    }),
    201,
  );
  const project = await call<Project>('superadmin', 'GET', `/projects/${created.id}`);
  const season = project.seasons.find((s) => s.name === 'Spring 2026')!;
  const home = {
    diseaseTypeId: project.disease_types[0]!.id,
    categoryId: project.question_categories[0]!.id,
  };
  const otherProject = await call<Project>('superadmin', 'POST', '/projects', projectBody(clientB.id), 201);

  async function draftCase(
    name = 'Chest pain at rest',
    round: number | null = null,
    where: { id: string; home: typeof home } = { id: project.id, home },
  ): Promise<CaseDocument> {
    const created = await call<CaseDocument>(
      'superadmin',
      'POST',
      '/cases',
      { project_id: where.id, name, disease_type_id: where.home.diseaseTypeId },
      201,
    );
    return call<CaseDocument>(
      'superadmin',
      'PUT',
      `/cases/${created.id}`,
      validCase(where.home, { name, season_id: round ? season.id : null, round_number: round }),
    );
  }
  async function enrol(user: UserRow, where = { projectId: project.id, seasonId: season.id }): Promise<void> {
    await ctx.db.insert(projectParticipants).values({
      projectId: where.projectId,
      userId: user.id,
      sortName: `${user.lastName} ${user.firstName}`.toLowerCase(),
      email: user.email,
      dataStatus: 'READY',
    });
    await ctx.db.insert(participantAssignments).values({
      userId: user.id,
      seasonId: where.seasonId,
      projectId: where.projectId,
      firstRound: 1,
      lastRound: 4,
      startDate: '2026-03-01',
    });
  }
  await enrol(users.participant);
  await enrol(users.testUser);
  // The running case has a patient image, which its participants may see.
  const runningDraft = await draftCase('Running case', 1);
  const patientImage = multipartFile(ONE_PIXEL_PNG, 'patient.png');
  const withImage = await ctx.app.inject({
    method: 'POST',
    url: `/api/cases/${runningDraft.id}/image`,
    headers: { ...(await headersOf('superadmin')), ...patientImage.headers },
    payload: patientImage.payload,
  });
  if (withImage.statusCode !== 200) throw new Error(`image upload failed: ${withImage.body}`);
  await call('superadmin', 'POST', `/cases/${runningDraft.id}/status`, { status: 'PUBLISHED' });
  const runningCase = runningDraft;
  const draft = await draftCase('Draft case');
  const attemptOf = async (caller: 'participant' | 'testUser', caseName: string) => {
    const dashboard = await call<Dashboard>(caller, 'GET', '/dashboard');
    return dashboard.projects.flatMap((p) => p.cases).find((c) => c.case_name === caseName)!.id;
  };
  const attempts = {
    participant: await attemptOf('participant', 'Running case'),
    testUser: await attemptOf('testUser', 'Running case'),
  };
  const question = runningCase.questions[0]!;

  const preview = await call<{ id: string }>(
    'superadmin',
    'POST',
    '/previews',
    { case_id: draft.id, answers: perfectAnswers(draft) },
    201,
  );
  const cme = await call<{ id: string }>(
    'superadmin',
    'POST',
    '/cmes',
    { project_id: project.id, min_cases: 1, credits: 1, moc: false },
    201,
  );
  const module = await call<{
    id: string;
    name: string;
    disease_types: { id: string }[];
    question_categories: { id: string }[];
  }>(
    'superadmin',
    'POST',
    '/module-library',
    {
      name: `Module ${Math.random().toString(36).slice(2, 7)}`,
      disease_types: ['Diabetes'],
      question_categories: ['Diagnosis'],
    },
    201,
  );
  const moduleHome = { diseaseTypeId: module.disease_types[0]!.id, categoryId: module.question_categories[0]!.id };
  async function moduleCase(name = 'Module case'): Promise<CaseDocument> {
    const created = await call<CaseDocument>(
      'superadmin',
      'POST',
      '/cases',
      { module_id: module.id, name, disease_type_id: moduleHome.diseaseTypeId },
      201,
    );
    return call<CaseDocument>('superadmin', 'PUT', `/cases/${created.id}`, validCase(moduleHome, { name }));
  }
  const libraryCase = await moduleCase();

  // The project's email templates (made with the project): one project email, one season email.
  const emails = {
    project: (await call<{ items: { id: string }[] }>('superadmin', 'GET', `/projects/${project.id}/emails-list`))
      .items[0]!.id,
    season: (
      await call<{ items: { id: string }[] }>(
        'superadmin',
        'GET',
        `/projects/${project.id}/season-emails-list?seasonName=${encodeURIComponent(season.name)}`,
      )
    ).items[0]!.id,
    /** A line of the project's delivery log: the participant's Initial Launch Email, sent. */
    delivery: '',
  };
  emails.delivery = await worldDelivery(ctx, project.id, emails.project, users.participant);

  const imageCase = await draftCase('Case with an image');
  const image = multipartFile(ONE_PIXEL_PNG, 'patient.png');
  const uploaded = await ctx.app.inject({
    method: 'POST',
    url: `/api/cases/${imageCase.id}/image`,
    headers: { ...(await headersOf('superadmin')), ...image.headers },
    payload: image.payload,
  });
  if (uploaded.statusCode !== 200) throw new Error(`image upload failed: ${uploaded.body}`);

  // Client A on the CAP roster.
  const capId = `CAP-${Math.random().toString(36).slice(2, 8)}`;
  await call('superadmin', 'PUT', `/clients/${clientA.id}`, { name: clientA.name, cap_id: capId });
  const roster = multipartFile(`cap_id,name,status\n${capId},Alpha Health,Active\n`, 'cap.csv');
  const rosterUpload = await ctx.app.inject({
    method: 'POST',
    url: '/api/clients/cap/import',
    headers: { ...(await headersOf('superadmin')), ...roster.headers },
    payload: roster.payload,
  });
  if (rosterUpload.statusCode !== 202) throw new Error(`CAP import failed: ${rosterUpload.body}`);
  await ctx.app.imports.runPending();

  /** The participant answers every required question but the first, which the matrix's answer call saves. */
  const firstAnswer = {
    question_id: runningCase.questions[0]!.id,
    choice_ids: runningCase.questions[0]!.choices.filter((c) => c.marked_as === 'NECESSARY').map((c) => c.id),
  };
  async function answerTheRest(caller: 'participant' | 'testUser'): Promise<void> {
    for (const answer of perfectAnswers(runningCase).slice(1)) {
      await call(caller, 'POST', `/cases/${attempts[caller]}/answer`, answer);
    }
  }

  /**
   * Season Results Summaries: the world project's Spring 2026 has a draft; a second project
   * of client A ("results") has a Spring 2026 that the participant and the test user
   * completed, whose summary is posted with a sheet and a video.
   */
  const summaryBody = { title: 'What Spring 2026 found', description: '<p>Thank you.</p>', greeting: 'Hello' };
  const seasonQuery = `seasonName=${encodeURIComponent(season.name)}`;
  const uploadTo = async (id: string, kind: 'sheet' | 'video', content: Buffer, name: string) => {
    const file = multipartFile(content, name);
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/season-summaries/${id}/${kind}`,
      headers: { ...(await headersOf('superadmin')), ...file.headers },
      payload: file.payload,
    });
    if (response.statusCode !== 200) throw new Error(`summary ${kind} upload failed: ${response.body}`);
  };
  const resultsProject = await call<Project>('superadmin', 'POST', '/projects', projectBody(clientA.id), 201);
  const resultsSeason = resultsProject.seasons[0]!;
  const resultsHome = {
    diseaseTypeId: resultsProject.disease_types[0]!.id,
    categoryId: resultsProject.question_categories[0]!.id,
  };
  const resultsCase = await call<CaseDocument>(
    'superadmin',
    'POST',
    '/cases',
    { project_id: resultsProject.id, name: 'Results case', disease_type_id: resultsHome.diseaseTypeId },
    201,
  );
  await call(
    'superadmin',
    'PUT',
    `/cases/${resultsCase.id}`,
    validCase(resultsHome, { name: 'Results case', season_id: resultsSeason.id, round_number: 1 }),
  );
  await call('superadmin', 'POST', `/cases/${resultsCase.id}/status`, { status: 'PUBLISHED' });
  const resultsDoc = await call<CaseDocument>('superadmin', 'GET', `/cases/${resultsCase.id}`);
  const resultsAttempts = { participant: '', testUser: '' };
  for (const who of ['participant', 'testUser'] as const) {
    await enrol(users[who], { projectId: resultsProject.id, seasonId: resultsSeason.id });
    const dashboard = await call<Dashboard>(who, 'GET', '/dashboard');
    const attempt = dashboard.projects.flatMap((p) => p.cases).find((c) => c.case_name === 'Results case')!.id;
    resultsAttempts[who] = attempt;
    for (const answer of perfectAnswers(resultsDoc)) await call(who, 'POST', `/cases/${attempt}/answer`, answer);
    await call(who, 'POST', `/cases/${attempt}/submit`);
  }
  const postedSummary = await call<{ id: string }>(
    'superadmin',
    'POST',
    `/projects/${resultsProject.id}/season-summary?${seasonQuery}`,
    summaryBody,
  );
  await uploadTo(postedSummary.id, 'sheet', smallPdf(), 'results.pdf');
  await uploadTo(postedSummary.id, 'video', videoHead('mp4'), 'thanks.mp4');
  await call('superadmin', 'POST', `/projects/${postedSummary.id}/status`, { status: 'POSTED' });
  const draftSummary = await call<{ id: string }>(
    'superadmin',
    'POST',
    `/projects/${project.id}/season-summary?${seasonQuery}`,
    summaryBody,
  );
  const summaries = { draft: draftSummary.id, posted: postedSummary.id, body: summaryBody, seasonQuery };
  const certificates = { resultsProjectId: resultsProject.id, ...(await worldCertificates(call, resultsProject.id)) };

  /**
   * Survey templates: a START_NEW and a START_RETURNING one that the world project uses
   * (client B's administrator must be told 404 for them), and one no project uses.
   */
  const surveyBody = (name: string, type: string) => ({
    name,
    type,
    pages: [
      {
        name: 'Welcome',
        components: [
          {
            kind: 'QUESTION',
            type: 'MULTI_ONE',
            text: 'How did you hear of this project?',
            required: true,
            choices: [{ text: 'Email' }, { text: 'A colleague' }],
            allow_other: false,
            allow_none_of_below: false,
          },
        ],
      },
    ],
  });
  const newTemplate = async (name: string, type = 'START_NEW') =>
    (await call<{ id: string }>('superadmin', 'POST', '/survey-templates', surveyBody(name, type), 201)).id;
  const surveys = {
    startNew: await newTemplate('World start survey'),
    startReturning: await newTemplate('World returning survey', 'START_RETURNING'),
    free: await newTemplate('Unused survey'),
    body: surveyBody,
  };
  await call('superadmin', 'PUT', `/projects/${project.id}/survey`, {
    start_new_template_id: surveys.startNew,
    start_returning_template_id: surveys.startReturning,
  });
  // The results project asks them too, after its season was completed: its start survey stays
  // due to both participants for ever, so answering it so far (`complete: false`) is always
  // possible, whatever the matrix ran before.
  await call('superadmin', 'PUT', `/projects/${resultsProject.id}/survey`, {
    start_new_template_id: surveys.startNew,
    start_returning_template_id: surveys.startReturning,
  });

  /**
   * The caller completes the world project's start survey, if it is still due: a case is
   * not started, answered or submitted before it (START_SURVEY_REQUIRED).
   */
  async function answerStartSurvey(caller: 'participant' | 'testUser'): Promise<void> {
    const due = await call<DueSurveys>(caller, 'GET', `/users/${attempts[caller]}/surveys`);
    if (!due.start) return;
    const answers = due.start.pages
      .flatMap((p) => p.components)
      .flatMap((c) =>
        c.kind === 'QUESTION' && c.required ? [{ component_id: c.id, choice_ids: [c.choices[0]!.id] }] : [],
      );
    await call(caller, 'POST', `/survey-templates/${due.start.template_id}/${attempts[caller]}/answer`, {
      answers,
      complete: true,
    });
  }
  /** The resource library: an uploaded image (its thumbnail made) and a text resource. */
  const imageUpload = multipartFile(ONE_PIXEL_PNG, 'scan.png');
  const uploadedResource = await ctx.app.inject({
    method: 'POST',
    url: '/api/resource-library/upload',
    headers: { ...(await headersOf('superadmin')), ...imageUpload.headers },
    payload: imageUpload.payload,
  });
  if (uploadedResource.statusCode !== 201) throw new Error(`resource upload failed: ${uploadedResource.body}`);
  await ctx.app.resources.runPending();
  const textResource = await call<{ id: string }>(
    'superadmin',
    'POST',
    '/resource-library',
    { name: 'Reading list', source_type: 'TEXT', details: 'Chapter 4 of the guidelines.' },
    201,
  );
  const fileLink = await call<{ url: string }>(
    'superadmin',
    'GET',
    `/resource-library/file/${uploadedResource.json<{ id: string }>().id}/link`,
  );
  const resources = {
    file: uploadedResource.json<{ id: string }>().id,
    text: textResource.id,
    /** The signed link's path below /api. */
    signedPath: fileLink.url.replace(/^\/api/, ''),
  };

  let counter = 0;
  const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${(counter += 1)}`;

  /** Fresh records for calls that use up their target. */
  const make = {
    client: async () =>
      (await call<{ id: string }>('superadmin', 'POST', '/clients', { name: unique('Client') }, 201)).id,
    project: async () => (await call<Project>('superadmin', 'POST', '/projects', projectBody(clientA.id), 201)).id,
    /** A draft in the world's project, or in another project (its first disease type and category). */
    draftCase: async (projectId?: string) => {
      if (!projectId) return (await draftCase(unique('Case'))).id;
      const p = await call<Project>('superadmin', 'GET', `/projects/${projectId}`);
      const where = {
        id: p.id,
        home: { diseaseTypeId: p.disease_types[0]!.id, categoryId: p.question_categories[0]!.id },
      };
      return (await draftCase(unique('Case'), null, where)).id;
    },
    /** A project of client A with the world project's disease types and categories (a case fits it). */
    projectLikeTheWorlds: async () =>
      (
        await call<Project>(
          'superadmin',
          'POST',
          '/projects',
          projectBody(clientA.id, {
            disease_types: project.disease_types.map((d) => d.name),
            question_categories: project.question_categories.map((c) => c.name),
          }),
          201,
        )
      ).id,
    moduleCase: async () => (await moduleCase(unique('Module case'))).id,
    /** A survey template no project uses. */
    surveyTemplate: async () => newTemplate(unique('Survey')),
    /**
     * A preview of the draft as it is now (an edit gives its questions new ids), taken by
     * client A's administrator: only its taker (or a superadmin) may delete it.
     */
    preview: async () => {
      const now = await call<CaseDocument>('ownerAdmin', 'GET', `/cases/${draft.id}`);
      const answers = perfectAnswers(now);
      return (await call<{ id: string }>('ownerAdmin', 'POST', '/previews', { case_id: draft.id, answers }, 201)).id;
    },
    cme: async () =>
      (
        await call<{ id: string }>(
          'superadmin',
          'POST',
          '/cmes',
          { project_id: project.id, min_cases: 1, credits: 1, moc: false },
          201,
        )
      ).id,
    module: async (diseaseTypes = ['Asthma'], questionCategories = ['Therapy']) =>
      (
        await call<{ id: string }>(
          'superadmin',
          'POST',
          '/module-library',
          { name: unique('Module'), disease_types: diseaseTypes, question_categories: questionCategories },
          201,
        )
      ).id,
    /** A disease type and a question category that nothing uses (projects keep theirs). */
    unusedCatalogueEntries: async () => {
      const body = projectBody(clientA.id, {
        disease_types: [unique('Disease')],
        question_categories: [unique('Cat')],
      });
      const p = await call<Project>('superadmin', 'POST', '/projects', body, 201);
      const entries = { diseaseTypeId: p.disease_types[0]!.id, categoryId: p.question_categories[0]!.id };
      const { client_id: _client, ...replacement } = projectBody(clientA.id);
      await call('superadmin', 'PUT', `/projects/${p.id}`, { ...replacement, status: 'ACTIVE' });
      return entries;
    },
  };

  return {
    ctx,
    clientA,
    clientB,
    users,
    project,
    season,
    home,
    otherProject,
    runningCase,
    draft,
    attempts,
    resultsAttempts,
    answerStartSurvey,
    question,
    preview,
    cme,
    module,
    libraryCase,
    emails,
    summaries,
    certificates,
    surveys,
    resources,
    imageCase,
    capId,
    firstAnswer,
    answerTheRest,
    password: TEST_PASSWORD,
    make,
    unique,
    headersOf,
    ownSessionOf,
    liveHeadersOf,
    call,
    /** Ids of client A's records: none may appear in what client B's administrator is shown. */
    ownerIds: [
      clientA.id,
      project.id,
      runningCase.id,
      draft.id,
      cme.id,
      users.participant.id,
      users.testUser.id,
      home.diseaseTypeId,
      home.categoryId,
      `Alpha disease ${tag}`,
      resultsProject.id,
      draftSummary.id,
      postedSummary.id,
      surveys.startNew,
      surveys.startReturning,
    ],
  };
}

export type World = Awaited<ReturnType<typeof buildWorld>>;
