import { expect } from 'vitest';
import type { DueSurveys, ProjectSurvey, SurveyTemplate } from '@pss/contract';
import { participantAssignments } from '../src/db/schema/index.js';
import type { UserRow } from '../src/modules/users/users.repository.js';
import { twoClients } from './fixtures.js';
import { callAs, madeBefore, testContext, type Caller, type Reply } from './kit.js';
import { participantWork, type WorkProject } from './participant-work.js';
import { createUser } from './test-app.js';

/**
 * The setup and calls of the survey tests (surveys-*.test.ts), exported at the end:
 * importing them gives the test file its own context on 2 March 2026 (round 1 of Spring 2026
 * runs), with two clients, their administrators and a superadmin. Calls are the
 * superadmin's unless told otherwise.
 */
export function surveySetup(now = '2026-03-02T09:00:00Z') {
  const ctx = testContext({ now });
  const f = madeBefore(() => twoClients(ctx));
  const superadmin = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
  const work = madeBefore(() => Promise.resolve(participantWork(ctx, superadmin)));
  const call = callAs(ctx, () => f.asSuperadmin);

  const question = (text: string, overrides: object = {}) => ({
    kind: 'QUESTION',
    type: 'MULTI_ONE',
    text,
    required: true,
    choices: [{ text: 'Yes' }, { text: 'No' }],
    allow_other: false,
    allow_none_of_below: false,
    ...overrides,
  });
  const infoReview = { kind: 'INFO_REVIEW', text: 'Are these details right?' };

  /** A template of every question type over two pages (an info review on the second, unless START_NEW). */
  const templateBody = (name: string, type = 'START_RETURNING', overrides: object = {}) => ({
    name,
    type,
    pages: [
      {
        name: 'About you',
        components: [
          question('Is this your first simulation?'),
          question('Which topics interest you?', {
            type: 'MULTI_MANY',
            required: false,
            choices: [{ text: 'Cardiology' }, { text: 'Diabetes' }, { text: 'Asthma' }],
            allow_other: true,
            allow_none_of_below: true,
          }),
          question('Where do you practise?', {
            type: 'DROPDOWN',
            choices: [{ text: 'Hospital' }, { text: 'Clinic' }],
          }),
        ],
      },
      {
        name: 'Your words',
        components: [
          question('What do you expect?', { type: 'TEXT', choices: [], required: false }),
          question('Your specialty', { type: 'TYPE_AHEAD', choices: [{ text: 'Cardiology' }], required: false }),
          ...(type === 'START_NEW' ? [] : [infoReview]),
        ],
      },
    ],
    ...overrides,
  });

  async function template(name: string, type = 'START_RETURNING', overrides: object = {}): Promise<SurveyTemplate> {
    const created = await call('POST', '/survey-templates', { payload: templateBody(name, type, overrides) });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<SurveyTemplate>();
  }

  const attach = (projectId: string, body: object, headers: Caller = f.asSuperadmin): Promise<Reply> =>
    call('PUT', `/projects/${projectId}/survey`, { headers, payload: body });

  async function attached(projectId: string, body: object): Promise<ProjectSurvey> {
    const saved = await attach(projectId, body);
    expect(saved.statusCode, saved.body).toBe(200);
    return saved.json<ProjectSurvey>();
  }

  /** A project of the client with a published case in Round 1 of Spring 2026, and a participant on it. */
  async function seasonProject(clientId: string = f.clientA.id, caseNames = ['Round one case']) {
    const p: WorkProject = await work.project(clientId);
    const docs = [];
    for (const name of caseNames) docs.push(await work.publishedCase(p, 1, { name }));
    const participant = await work.enrol(p, clientId);
    const attemptId = await work.attemptOf(participant, caseNames[0]!);
    return { p, docs, doc: docs[0]!, participant, attemptId };
  }

  /** Makes the participant a returning one: assigned to a season of another project that began in 2025. */
  async function returningFrom2025(user: UserRow, clientId: string = f.clientA.id): Promise<void> {
    const earlier = await work.project(clientId, {
      seasons: [{ name: 'Autumn 2025', rounds: [{ number: 1, start_date: '2025-09-01', end_date: '2025-09-30' }] }],
    });
    await ctx.db.insert(participantAssignments).values({
      userId: user.id,
      seasonId: earlier.seasonId,
      projectId: earlier.id,
      firstRound: 1,
      lastRound: 1,
      startDate: '2025-09-01',
    });
  }

  const due = async (user: UserRow, attemptId: string): Promise<DueSurveys> => {
    const reply = await work.call('GET', `/users/${attemptId}/surveys`, user);
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json<DueSurveys>();
  };

  const answer = (templateId: string, attemptId: string, user: UserRow, body: object) =>
    work.call('POST', `/survey-templates/${templateId}/${attemptId}/answer`, user, body);

  /** Answers to every required question of a template made by `templateBody`: Yes, Hospital. */
  function requiredAnswers(t: SurveyTemplate) {
    const questions = t.pages.flatMap((p) => p.components).filter((c) => c.kind === 'QUESTION');
    return questions.filter((q) => q.required).map((q) => ({ component_id: q.id, choice_ids: [q.choices[0]!.id] }));
  }

  const deleteQuery = (selection: object) => `filter=${encodeURIComponent(JSON.stringify(selection))}`;

  return {
    ctx,
    f,
    superadmin,
    work,
    call,
    question,
    infoReview,
    templateBody,
    template,
    attach,
    attached,
    seasonProject,
    returningFrom2025,
    due,
    answer,
    requiredAnswers,
    deleteQuery,
  };
}
