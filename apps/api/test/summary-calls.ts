import { expect } from 'vitest';
import type { CaseDocument, Dashboard, SaveSeasonSummaryBody, SeasonSummary } from '@pss/contract';
import type { UserRow } from '../src/modules/users/users.repository.js';
import { perfectAnswers } from './case-bodies.js';
import { multipartFile, twoClients, type Headers } from './fixtures.js';
import { callAs, madeBefore, testContext, type Caller, type Reply } from './kit.js';
import { participantWork, type WorkProject } from './participant-work.js';
import { createUser } from './test-app.js';

/**
 * The setup and calls of the Season Results Summary tests (season-summar*.test.ts),
 * exported at the end: importing them gives the test file its own context on 2 March 2026
 * (round 1 of Spring 2026 runs), with two clients, their administrators and a superadmin.
 * Calls are client A's administrator's unless told otherwise.
 */
export function summarySetup(now = '2026-03-02T09:00:00Z') {
  const ctx = testContext({ now });
  const f = madeBefore(() => twoClients(ctx));
  const superadmin = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
  const work = madeBefore(() => Promise.resolve(participantWork(ctx, superadmin)));
  const call = callAs(ctx, () => f.asAdminA);
  const season = (name = 'Spring 2026') => `seasonName=${encodeURIComponent(name)}`;

  const summaryBody = (overrides: Partial<SaveSeasonSummaryBody> = {}): SaveSeasonSummaryBody => ({
    title: 'What Spring 2026 found',
    description: '<p>Most of you ordered an <strong>ECG</strong> first.</p>',
    greeting: 'Thank you for taking part this season.',
    video_url: null,
    ...overrides,
  });

  const getSummary = (projectId: string, headers: Caller = f.asAdminA, name?: string) =>
    call('GET', `/projects/${projectId}/season-summary?${season(name)}`, { headers });
  const saveSummary = (
    projectId: string,
    body: object = summaryBody(),
    headers: Caller = f.asAdminA,
    name?: string,
  ): Promise<Reply> =>
    call('POST', `/projects/${projectId}/season-summary?${season(name)}`, { headers, payload: body });

  /** A saved summary of the project's Spring 2026 (client A's administrator's), as answered. */
  async function savedSummary(projectId: string, body: object = summaryBody()): Promise<SeasonSummary> {
    const saved = await saveSummary(projectId, body);
    expect(saved.statusCode).toBe(200);
    return saved.json<SeasonSummary>();
  }

  const setStatus = (id: string, status: string, headers: Caller = f.asAdminA) =>
    call('POST', `/projects/${id}/status`, { headers, payload: { status } });

  function upload(
    id: string,
    kind: 'sheet' | 'video',
    content: Buffer | string,
    name: string,
    headers: Headers = f.asAdminA,
  ) {
    const file = multipartFile(content, name);
    return call('POST', `/season-summaries/${id}/${kind}`, {
      headers: { ...headers, ...file.headers },
      payload: file.payload,
    });
  }

  /** A project of the client with a published case in Round 1 of Spring 2026. */
  async function seasonProject(clientId: string = f.clientA.id): Promise<WorkProject & { doc: CaseDocument }> {
    const p = await work.project(clientId);
    const doc = await work.publishedCase(p, 1, { name: 'Round one case' });
    return { ...p, doc };
  }

  /** The participant answers every required question of their case and submits it. */
  async function completeCase(user: UserRow, doc: CaseDocument): Promise<void> {
    const attemptId = await work.attemptOf(user, doc.name);
    for (const answer of perfectAnswers(doc)) {
      expect((await work.call('POST', `/cases/${attemptId}/answer`, user, answer)).statusCode).toBe(200);
    }
    expect((await work.call('POST', `/cases/${attemptId}/submit`, user)).statusCode).toBe(200);
  }

  async function dashboardOf(user: UserRow): Promise<Dashboard> {
    const response = await work.call('GET', '/dashboard', user);
    expect(response.statusCode).toBe(200);
    return response.json<Dashboard>();
  }

  /** The summaries a participant's dashboard shows for a project. */
  async function postedOn(user: UserRow, projectId: string) {
    return (await dashboardOf(user)).projects.find((p) => p.project_id === projectId)?.season_summaries ?? [];
  }

  return {
    ctx,
    f,
    superadmin,
    work,
    call,
    summaryBody,
    getSummary,
    saveSummary,
    savedSummary,
    setStatus,
    upload,
    seasonProject,
    completeCase,
    dashboardOf,
    postedOn,
  };
}
