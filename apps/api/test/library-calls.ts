import { expect } from 'vitest';
import { count } from 'drizzle-orm';
import type { CaseDocument, CaseSummary, CreateProjectBody, ModuleBody, UpdateCaseBody } from '@pss/contract';
import { cases, modules } from '../src/db/schema/index.js';
import { validCase } from './case-bodies.js';
import { twoClients, type Headers } from './fixtures.js';
import { callAs, madeBefore, newModule, newProject, savedCase, testContext, type Home } from './kit.js';

/**
 * The setup and calls of the module library tests (module-library-*.test.ts) and the
 * elements tests: each file gets its own context with two clients. Module libraries are
 * the superadmin's, so calls are theirs unless told otherwise; project cases are client A's
 * administrator's.
 */
export function librarySetup(now = '2026-03-02T09:00:00Z') {
  const ctx = testContext({ now });
  const f = madeBefore(() => twoClients(ctx));
  const call = callAs(ctx, () => f.asSuperadmin);

  async function casesOf(url: string): Promise<CaseSummary[]> {
    const response = await call('GET', url);
    expect(response.statusCode).toBe(200);
    return response.json<{ items: CaseSummary[] }>().items;
  }

  return {
    ctx,
    f,
    call,
    newProject: (clientId: string, overrides: Partial<CreateProjectBody> = {}) =>
      newProject(ctx, f.asSuperadmin, clientId, overrides),
    projectA: (overrides: Partial<CreateProjectBody> = {}) => newProject(ctx, f.asSuperadmin, f.clientA.id, overrides),
    /** A module library (Diabetes, Diagnosis unless told otherwise); its first names are the ones cases use. */
    newModule: (overrides: Partial<ModuleBody> = {}) => newModule(ctx, f.asSuperadmin, overrides),
    /** A module case saved whole with `validCase` (and the overrides). */
    createModuleCase: (m: Home, overrides: Partial<UpdateCaseBody> = {}) =>
      savedCase(ctx, f.asSuperadmin, { module_id: m.id }, validCase(m, overrides)),
    /** A client A project case saved whole, by client A's administrator. */
    createProjectCase: (p: Home, overrides: Partial<UpdateCaseBody> = {}) =>
      savedCase(ctx, f.asAdminA, { project_id: p.id }, validCase(p, overrides)),
    getCase: async (id: string, headers: Headers = f.asSuperadmin) =>
      (await call('GET', `/cases/${id}`, { headers })).json<CaseDocument>(),
    setStatus: (id: string, status: 'DRAFT' | 'PUBLISHED') =>
      call('POST', `/cases/${id}/status`, { payload: { status } }),
    projectCases: (projectId: string) => casesOf(`/projects/${projectId}/cases?limit=200`),
    moduleCases: (moduleId: string, query = '') =>
      casesOf(`/module-library/${moduleId}/cases?limit=200${query ? `&${query}` : ''}`),
    caseCount: async () => (await ctx.db.select({ n: count() }).from(cases))[0]!.n,
    moduleCount: async () => (await ctx.db.select({ n: count() }).from(modules))[0]!.n,
  };
}

export const ids = (items: { id: string }[]) => items.map((i) => i.id).sort();
export const names = (items: { name: string }[]) => items.map((i) => i.name);

/** Every id inside a case's content: sections, groupers, questions, choices. */
export const innerIds = (doc: CaseDocument) => [
  ...doc.details_sections.map((s) => s.id),
  ...doc.groupers.map((g) => g.id),
  ...doc.questions.flatMap((q) => [q.id, ...q.choices.map((c) => c.id)]),
];
