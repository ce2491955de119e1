import { expect } from 'vitest';
import { count } from 'drizzle-orm';
import type { CaseDocument, CaseSummary, UpdateCaseBody } from '@pss/contract';
import { casePreviews, cases, participantAssignments, projectParticipants } from '../src/db/schema/index.js';
import { everyTypeCase } from './case-bodies.js';
import { multipartFile, twoClients, type Headers } from './fixtures.js';
import { callAs, madeBefore, newProject as kitNewProject, savedCase, testContext, type ProjectFacts } from './kit.js';
import { createUser } from './test-app.js';

/**
 * The setup and calls of the case tests (cases-*.test.ts), exported at the end: importing
 * them registers the beforeAll that builds the test file's own context (each test file
 * imports its modules afresh) and the afterAll that closes it. The context has two clients,
 * and `elsewhere`, a project of client A with other catalogue entries
 * (Asthma, Treatment) and its own Spring 2026. Calls are client A's administrator's unless
 * told otherwise.
 */
export function casesSetup(now = '2026-03-02T09:00:00Z') {
  const ctx = testContext({ now });
  const f = madeBefore(() => twoClients(ctx));
  const call = callAs(ctx, () => f.asAdminA);
  const newProject = (clientId: string, overrides: Parameters<typeof kitNewProject>[3] = {}) =>
    kitNewProject(ctx, f.asSuperadmin, clientId, overrides);
  const elsewhere = madeBefore(() =>
    newProject(f.clientA.id, { disease_types: ['Asthma'], question_categories: ['Treatment'] }),
  );

  async function createDraft(p: ProjectFacts, name = 'Chest pain at rest', headers: Headers = f.asAdminA) {
    const created = await call('POST', '/cases', {
      headers,
      payload: { project_id: p.id, name, disease_type_id: p.diseaseTypeId },
    });
    expect(created.statusCode).toBe(201);
    return created.json<CaseDocument>();
  }

  async function listNames(projectId: string, query = '', headers: Headers = f.asAdminA): Promise<string[]> {
    const response = await call('GET', `/projects/${projectId}/cases${query}`, { headers });
    expect(response.statusCode).toBe(200);
    return response.json<{ items: CaseSummary[] }>().items.map((c) => c.name);
  }

  /** A participant of client A assigned to rounds of a season of the project. */
  async function assignParticipant(projectId: string, seasonId: string, firstRound = 1, lastRound = 4) {
    const user = await createUser(ctx.db, { role: 'USER', clientId: f.clientA.id });
    await ctx.db
      .insert(projectParticipants)
      .values({ projectId, userId: user.id, sortName: 'user test', email: user.email, dataStatus: 'READY' });
    await ctx.db
      .insert(participantAssignments)
      .values({ userId: user.id, seasonId, projectId, firstRound, lastRound, startDate: '2026-03-01' });
    return user;
  }

  return {
    ctx,
    f,
    elsewhere,
    call,
    newProject,
    projectA: () => newProject(f.clientA.id),
    createDraft,
    /** A draft saved whole with `everyTypeCase` (and the overrides). */
    createCase: (p: ProjectFacts, overrides: Partial<UpdateCaseBody> = {}, headers: Headers = f.asAdminA) =>
      savedCase(ctx, headers, { project_id: p.id }, everyTypeCase(p, overrides)),
    getCase: async (id: string, headers: Headers = f.asAdminA) =>
      (await call('GET', `/cases/${id}`, { headers })).json<CaseDocument>(),
    setStatus: (id: string, status: 'DRAFT' | 'PUBLISHED', headers: Headers = f.asAdminA) =>
      call('POST', `/cases/${id}/status`, { headers, payload: { status } }),
    listNames,
    caseCount: async () => (await ctx.db.select({ n: count() }).from(cases))[0]!.n,
    previewCount: async () => (await ctx.db.select({ n: count() }).from(casePreviews))[0]!.n,
    assignParticipant,
    uploadImage: (id: string, content: Buffer, fileName = 'photo.png', headers: Headers = f.asAdminA) => {
      const file = multipartFile(content, fileName);
      return call('POST', `/cases/${id}/image`, { headers: { ...headers, ...file.headers }, payload: file.payload });
    },
  };
}

/** The editable fields of a saved case, as the editor would send them back. */
export function contentOf(doc: CaseDocument): UpdateCaseBody {
  return {
    name: doc.name,
    disease_type_id: doc.disease_type_id,
    patient_name: doc.patient_name,
    patient_age: doc.patient_age,
    reason_for_encounter: doc.reason_for_encounter,
    season_id: doc.season_id,
    round_number: doc.round_number,
    feedback_type: doc.feedback_type,
    references: doc.references,
    test_results: doc.test_results,
    explanation: doc.explanation,
    details_sections: doc.details_sections,
    groupers: doc.groupers,
    questions: doc.questions,
  };
}
