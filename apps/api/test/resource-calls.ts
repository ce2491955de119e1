import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { CaseDocument, Resource } from '@pss/contract';
import { multipartFile, twoClients, type Headers } from './fixtures.js';
import { callAs, madeBefore, testContext, type Caller, type Reply } from './kit.js';
import { participantWork } from './participant-work.js';
import { createUser } from './test-app.js';

/**
 * The setup and calls of the resource library's tests (resources-*.test.ts): importing them
 * gives the test file its own context on 2 March 2026 (round 1 of Spring 2026 runs), with
 * two clients, their administrators and a superadmin. Calls are the superadmin's unless told
 * otherwise.
 */
export function resourceSetup(now = '2026-03-02T09:00:00Z') {
  const ctx = testContext({ now });
  const f = madeBefore(() => twoClients(ctx));
  const superadmin = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
  const work = madeBefore(() => Promise.resolve(participantWork(ctx, superadmin)));
  const call = callAs(ctx, () => f.asSuperadmin);

  function upload(content: Buffer | string, name: string, headers: Caller = f.asSuperadmin): Promise<Reply> {
    const file = multipartFile(content, name);
    return call('POST', '/resource-library/upload', {
      headers: { ...(headers as Headers), ...file.headers },
      payload: file.payload,
    });
  }

  async function uploaded(content: Buffer | string, name: string): Promise<Resource> {
    const response = await upload(content, name);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Resource>();
  }

  let linkCounter = 0;
  async function urlResource(overrides: Record<string, unknown> = {}): Promise<Resource> {
    linkCounter += 1;
    const response = await call('POST', '/resource-library', {
      payload: {
        name: `Guideline ${linkCounter}`,
        source_type: 'URL',
        link: `https://guidelines.example.org/${linkCounter}-${Math.random().toString(36).slice(2, 8)}`,
        ...overrides,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Resource>();
  }

  async function textResource(name = 'Reading list', details = 'Chapter 4.'): Promise<Resource> {
    const response = await call('POST', '/resource-library', { payload: { name, source_type: 'TEXT', details } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Resource>();
  }

  const get = async (id: string) => (await call('GET', `/resource-library/${id}`)).json<Resource>();

  /** A draft case of a project of the client (the world's Spring 2026 season). */
  async function draftCase(clientId: string = f.clientA.id): Promise<{ projectId: string; caseId: string }> {
    const p = await work.project(clientId);
    const created = await call('POST', '/cases', {
      payload: { project_id: p.id, name: 'Chest pain', disease_type_id: p.diseaseTypeId },
    });
    expect(created.statusCode).toBe(201);
    return { projectId: p.id, caseId: created.json<CaseDocument>().id };
  }

  const attach = (caseId: string, ids: string[], headers: Caller = f.asSuperadmin) =>
    call('PUT', `/cases/${caseId}/resources`, { headers, payload: { resource_ids: ids } });

  const deleteSelection = (selection: object, headers: Caller = f.asSuperadmin) =>
    call('DELETE', `/resource-library?filter=${encodeURIComponent(JSON.stringify(selection))}`, { headers });

  /** The files stored under resources/ (uploads and thumbnails). */
  async function storedFiles(): Promise<string[]> {
    const root = path.join(ctx.config.dataDir, 'files', 'resources');
    const entries = await readdir(root, { recursive: true }).catch(() => [] as string[]);
    return entries.filter((e) => !e.endsWith('thumbnails')).sort();
  }

  /** The path below /api of a signed link. */
  const pathOf = (url: string) => url.replace(/^\/api/, '');

  return {
    ctx,
    f,
    superadmin,
    work,
    call,
    upload,
    uploaded,
    urlResource,
    textResource,
    get,
    draftCase,
    attach,
    deleteSelection,
    storedFiles,
    pathOf,
  };
}
