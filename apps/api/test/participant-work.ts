import { expect } from 'vitest';
import type { Attempt, CaseDocument, CreateProjectBody, Dashboard, Project, UpdateCaseBody } from '@pss/contract';
import { participantAssignments, projectParticipants } from '../src/db/schema/index.js';
import type { UserRow } from '../src/modules/users/users.repository.js';
import { perfectAnswers, validCase } from './case-bodies.js';
import { multipartFile, projectBody } from './fixtures.js';
import * as kit from './kit.js';
import type { Method, Reply } from './kit.js';
import { createUser, type TestContext } from './test-app.js';

/**
 * Participants' work for API tests: a project with a season, published cases placed in its
 * rounds, participants assigned to them, and their attempts with answers — made through the
 * real calls, as a clinician would. Bound to one test context.
 */
export type { Reply } from './kit.js';

export interface WorkProject {
  id: string;
  diseaseTypeId: string;
  categoryId: string;
  /** The first season ("Spring 2026" unless overridden). */
  seasonId: string;
  project: Project;
}

export function participantWork(ctx: TestContext, staff: UserRow) {
  const as = (user: UserRow) => kit.as(ctx, user);
  const call = (method: Method, url: string, user: UserRow = staff, payload?: object): Promise<Reply> =>
    kit.call(ctx, method, url, user, payload);

  async function project(clientId: string, overrides: Partial<CreateProjectBody> = {}): Promise<WorkProject> {
    const created = await call('POST', '/projects', staff, projectBody(clientId, overrides));
    expect(created.statusCode).toBe(201);
    const p = created.json<Project>();
    return {
      id: p.id,
      diseaseTypeId: p.disease_types[0]!.id,
      categoryId: p.question_categories[0]!.id,
      seasonId: p.seasons[0]!.id,
      project: p,
    };
  }

  /**
   * A complete case placed in a round of the project's first season (or unplaced), published;
   * with a patient image when one is given (set while it is a draft).
   */
  async function publishedCase(
    p: WorkProject,
    round: number | null,
    overrides: Partial<UpdateCaseBody> = {},
    image?: { bytes: Buffer; name: string },
  ): Promise<CaseDocument> {
    const name = overrides.name ?? 'Chest pain at rest';
    const draft = await call('POST', '/cases', staff, { project_id: p.id, name, disease_type_id: p.diseaseTypeId });
    expect(draft.statusCode).toBe(201);
    const id = draft.json<CaseDocument>().id;
    const body = validCase(p, { season_id: round ? p.seasonId : null, round_number: round, ...overrides });
    expect((await call('PUT', `/cases/${id}`, staff, body)).statusCode).toBe(200);
    if (image) {
      const file = multipartFile(image.bytes, image.name);
      const uploaded = await ctx.app.inject({
        method: 'POST',
        url: `/api/cases/${id}/image`,
        headers: { ...(await as(staff)), ...file.headers },
        payload: file.payload,
      });
      expect(uploaded.statusCode, uploaded.body).toBe(200);
    }
    expect((await call('POST', `/cases/${id}/status`, staff, { status: 'PUBLISHED' })).statusCode).toBe(200);
    return (await call('GET', `/cases/${id}`, staff)).json<CaseDocument>();
  }

  /**
   * A participant (USER with the test password, unless another role is given) of the project,
   * assigned to rounds of its first season from `startDate` (1 January 2026 unless given);
   * named as given (kept in the list's sort name).
   */
  async function enrol(
    p: WorkProject,
    clientId: string,
    rounds: { first?: number; last?: number; startDate?: string } = {},
    person: { firstName?: string; lastName?: string; email?: string; role?: 'USER' | 'HALFUSER' | 'TESTUSER' } = {},
  ): Promise<UserRow> {
    const user = await createUser(ctx.db, { ...person, role: person.role ?? 'USER', clientId });
    const sortName = `${user.lastName} ${user.firstName}`.toLowerCase();
    await ctx.db
      .insert(projectParticipants)
      .values({ projectId: p.id, userId: user.id, sortName, email: user.email, dataStatus: 'READY' });
    await ctx.db.insert(participantAssignments).values({
      userId: user.id,
      seasonId: p.seasonId,
      projectId: p.id,
      firstRound: rounds.first ?? 1,
      lastRound: rounds.last ?? 4,
      startDate: rounds.startDate ?? '2026-01-01',
    });
    return user;
  }

  /** The participant's attempt (UserSeasonRoundCase) at a case, as their dashboard lists it. */
  async function attemptOf(user: UserRow, caseName: string): Promise<string> {
    const dashboard = (await call('GET', '/dashboard', user)).json<Dashboard>();
    const found = dashboard.projects.flatMap((p) => p.cases).filter((c) => c.case_name === caseName);
    expect(found).toHaveLength(1);
    return found[0]!.id;
  }

  /** The answers to a `validCase` case's first question: the right one (ECG) and a wrong one. */
  async function firstQuestion(user: UserRow, attemptId: string) {
    const view = (await call('GET', `/users/${attemptId}/questions`, user)).json<Attempt>().case;
    const q = view.questions[0]!;
    const id = (text: string) => q.choices.find((c) => c.text === text)!.id;
    return { questionId: q.id, right: id('ECG'), wrong: id('Colonoscopy'), questions: view.questions };
  }

  /** The participant answers every question of the case right and submits it, through the real calls. */
  async function complete(user: UserRow, doc: CaseDocument): Promise<void> {
    const attemptId = await attemptOf(user, doc.name);
    for (const answer of perfectAnswers(doc)) {
      expect((await call('POST', `/cases/${attemptId}/answer`, user, answer)).statusCode).toBe(200);
    }
    expect((await call('POST', `/cases/${attemptId}/submit`, user)).statusCode).toBe(200);
  }

  /**
   * The whole fixture: a project of the client with a published case in Round 1 of its
   * season, a participant assigned to the season, who has started the case and answered
   * its first question.
   */
  async function withWork(clientId: string, overrides: Partial<CreateProjectBody> = {}) {
    const p = await project(clientId, overrides);
    const doc = await publishedCase(p, 1, { name: 'Worked case' });
    const participant = await enrol(p, clientId);
    const attemptId = await attemptOf(participant, 'Worked case');
    const q = await firstQuestion(participant, attemptId);
    const answered = await call('POST', `/cases/${attemptId}/answer`, participant, {
      question_id: q.questionId,
      choice_ids: [q.right],
    });
    expect(answered.statusCode).toBe(200);
    return { p, doc, participant, attemptId };
  }

  return { as, call, project, publishedCase, enrol, attemptOf, firstQuestion, complete, withWork };
}
