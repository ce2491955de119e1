import { beforeEach, expect } from 'vitest';
import { count, eq } from 'drizzle-orm';
import type { Attempt, CaseAnswer, CaseDocument, CreateProjectBody, Dashboard, UpdateCaseBody } from '@pss/contract';
import { caseAnswers, participantAssignments, projectParticipants } from '../src/db/schema/index.js';
import { userSeasonRoundCases } from '../src/db/schema/index.js';
// The expected score comes from the scoring rule itself, not from the service under test.
import { scoreCase } from '../src/modules/cases/scoring.js';
import type { UserRow } from '../src/modules/users/users.repository.js';
import { everyTypeCase } from './case-bodies.js';
import * as kit from './kit.js';
import { madeBefore, type Method, type ProjectFacts } from './kit.js';
import { restartableContext } from './restartable-context.js';
import { createClient, createUser } from './test-app.js';

/**
 * The setup and calls of the participants' attempts tests (attempts-*.test.ts): each file
 * gets a restartable context on 2 March 2026 (round 1 of Spring 2026 runs) with two
 * clients, their administrators and a superadmin. Calls name the user who makes them.
 */
/** A project with `spring`, the id of its season Spring 2026. */
export type Spring = ProjectFacts & { spring: string };

export function attemptsSetup(now = '2026-03-02T09:00:00Z') {
  const ctx = restartableContext(now);
  const clientA = madeBefore(() => createClient(ctx.db, 'Alpha Health'));
  const clientB = madeBefore(() => createClient(ctx.db, 'Bravo Medical'));
  const superadmin = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
  const adminA = madeBefore(() => createUser(ctx.db, { role: 'ADMIN', clientId: clientA.id }));
  const adminB = madeBefore(() => createUser(ctx.db, { role: 'ADMIN', clientId: clientB.id }));
  // Some tests move the clock; each starts on the same moment.
  beforeEach(() => ctx.clock.set(now));

  const call = (method: Method, url: string, user: UserRow, payload?: object) =>
    kit.call(ctx, method, url, user, payload);

  /** A case saved whole with `everyTypeCase` (and the overrides), placed in a round of Spring 2026 and published. */
  const published = (
    p: Spring,
    round: number | null,
    overrides: Partial<UpdateCaseBody> = {},
    author: UserRow = superadmin,
  ): Promise<CaseDocument> =>
    kit.publishedCase(
      ctx,
      author,
      { project_id: p.id },
      everyTypeCase(p, { season_id: round ? p.spring : null, round_number: round, ...overrides }),
    );

  /** A participant (a USER with the test password) assigned to rounds of the project's Spring 2026. */
  async function enrol(
    p: Spring,
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
  const answer = (user: UserRow, id: string, body: CaseAnswer) => call('POST', `/cases/${id}/answer`, user, body);
  const submit = (user: UserRow, id: string) => call('POST', `/cases/${id}/submit`, user);

  /** Answers every required question of an `everyTypeCase` case and submits it. */
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

  return {
    ctx,
    clientA,
    clientB,
    superadmin,
    adminA,
    adminB,
    as: (user: UserRow) => kit.as(ctx, user),
    call,
    /** A project with `spring`, the id of its season Spring 2026. */
    newProject: async (clientId = clientA.id, overrides: Partial<CreateProjectBody> = {}) => {
      const facts = await kit.newProject(ctx, superadmin, clientId, overrides);
      return { ...facts, spring: facts.seasons['Spring 2026']! };
    },
    publishedCase: published,
    enrol,
    dashboardOf,
    attemptOf,
    getAttempt,
    start: (user: UserRow, id: string) => call('POST', `/cases/${id}/start`, user),
    answer,
    submit,
    complete,
    attemptRow: async (id: string) => {
      const [row] = await ctx.db.select().from(userSeasonRoundCases).where(eq(userSeasonRoundCases.id, id));
      return row!;
    },
    answerCount: async (id: string): Promise<number> => {
      const [row] = await ctx.db
        .select({ n: count() })
        .from(caseAnswers)
        .where(eq(caseAnswers.userSeasonRoundCaseId, id));
      return row!.n;
    },
  };
}

/** Choice ids by text, across the case's questions. */
export function choiceIds(view: Attempt['case']): Record<string, string> {
  return Object.fromEntries(view.questions.flatMap((q) => q.choices.map((c) => [c.text, c.id])));
}

/** The score by the one scoring rule (scoring.ts), from the staff's copy of the case with its marks. */
export function expectedScore(doc: CaseDocument, answers: CaseAnswer[]): number {
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
