import { expect } from 'vitest';
import { count } from 'drizzle-orm';
import { users } from '../src/db/schema/index.js';
import { multipartFile, projectBody, twoClients, type Headers } from './fixtures.js';
import { madeBefore, testContext } from './kit.js';

/**
 * The setup and calls of the participants tests (participants*.test.ts), exported at the
 * end: importing them registers the beforeAll that builds the test file's own context with
 * two clients (each test file imports its modules afresh) and the afterAll that closes it.
 * Calls are client A's administrator's unless told otherwise.
 */

export const HEADER = 'user_id,salutation,first_name,last_name,email,role,profession,season,rounds,start_date';

export function participantsSetup() {
  const ctx = testContext();
  const f = madeBefore(() => twoClients(ctx));

  async function upload(projectId: string, content: string | Buffer, headers: Headers = f.asAdminA) {
    const file = multipartFile(content, 'participants.csv');
    return ctx.app.inject({
      method: 'POST',
      url: `/api/projects/${projectId}/upload`,
      headers: { ...headers, ...file.headers },
      payload: file.payload,
    });
  }

  async function importFile(projectId: string, content: string | Buffer, headers: Headers = f.asAdminA) {
    const queued = await upload(projectId, content, headers);
    expect(queued.statusCode).toBe(202);
    await ctx.app.imports.runPending();
    return (await ctx.app.inject({ method: 'GET', url: `/api/projects/${projectId}/import`, headers })).json();
  }

  function list(projectId: string, query = '', headers: Headers = f.asAdminA) {
    return ctx.app.inject({ method: 'GET', url: `/api/projects/${projectId}/users${query}`, headers });
  }

  /** A new project of client A (with the fixture's season "Spring 2026"). */
  async function newProject(name: string): Promise<string> {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: f.asSuperadmin,
      payload: projectBody(f.clientA.id, { name }),
    });
    return created.json().id as string;
  }

  const userCount = async () => (await ctx.db.select({ n: count() }).from(users))[0]!.n;

  return { ctx, f, upload, importFile, list, newProject, userCount };
}
