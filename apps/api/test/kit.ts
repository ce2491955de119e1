import { afterAll, beforeAll, expect } from 'vitest';
import type { CaseDocument, CatalogueEntry, CreateProjectBody, ModuleBody, ModuleLibrary } from '@pss/contract';
import type { Project, UpdateCaseBody } from '@pss/contract';
import type { UserRow } from '../src/modules/users/users.repository.js';
import { projectBody, twoClients, type Headers } from './fixtures.js';
import { createTestContext, TEST_PASSWORD, type TestContext } from './test-app.js';

/**
 * The test kit: what every API test file needs to call the app and read its answers, in one
 * place. A test file builds its own context (its own database) with `testContext`, and
 * binds `callAs` to the caller its calls make unless told otherwise.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The catalogue error body, as most tests read it. */
export interface ErrorBody {
  errorCode?: string;
  message?: string;
  details?: { fields?: { field: string; errorCode?: string; message?: string }[]; [key: string]: unknown };
}

/** What the tests read of an answer (light-my-request's response fits it). */
export interface Reply {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
  rawPayload: Buffer;
  cookies: { name: string; value: string; httpOnly?: boolean; sameSite?: string; path?: string }[];
  json<T = ErrorBody>(): T;
}

/** Whom a call is made as: bearer headers (or none: `{}`), or a user who is signed in for it. */
export type Caller = UserRow | object;

/**
 * A value made in beforeAll that a test file may name at its top: reads go to the value once
 * it is made (and `close` runs in afterAll). Keeps each file's setup to a line a value.
 */
export function madeBefore<T extends object>(make: () => Promise<T>, close?: (value: T) => Promise<void>): T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await make();
  });
  if (close) afterAll(async () => value && (await close(value)));
  const made = (): T => {
    if (!value) throw new Error('read before the beforeAll that makes it');
    return value;
  };
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(made(), key),
    has: (_target, key) => Reflect.has(made(), key),
    ownKeys: () => Reflect.ownKeys(made()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(made(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

/** The whole app on a fresh database of this file's own, closed after its tests. */
export function testContext(options: Parameters<typeof createTestContext>[0] = {}): TestContext {
  return madeBefore(
    () => createTestContext(options),
    (ctx) => ctx.close(),
  );
}

/**
 * A file's context with the isolation fixture (two clients, an administrator of each and a
 * superadmin, signed in), made before its tests: `const { ctx, f } = twoClientsContext();`.
 */
export function twoClientsContext(options: Parameters<typeof createTestContext>[0] = {}) {
  const ctx = testContext(options);
  const f = madeBefore(() => twoClients(ctx));
  return { ctx, f };
}

const signedIn = new WeakMap<TestContext, Map<string, Headers>>();

/**
 * A bearer header for the user, signed in through the real call (staff or participant);
 * signed in again whenever the clock has moved, since access tokens expire.
 */
export async function as(ctx: TestContext, user: UserRow): Promise<Headers> {
  const tokens = signedIn.get(ctx) ?? new Map<string, Headers>();
  signedIn.set(ctx, tokens);
  const key = `${user.id}@${ctx.clock.now().getTime()}`;
  const known = tokens.get(key);
  if (known) return known;
  const staff = user.role === 'SUPERADMIN' || user.role === 'ADMIN';
  const response = await ctx.app.inject({
    method: 'POST',
    url: staff ? '/api/auth/admin/login' : '/api/auth/login/user',
    payload: { email: user.email, password: TEST_PASSWORD },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in of ${user.email} failed: ${response.body}`);
  const headers = { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
  tokens.set(key, headers);
  return headers;
}

const isUser = (caller: Caller): caller is UserRow => 'role' in caller && 'email' in caller;

/** Calls the API (`url` below /api) as the caller. */
export async function call(
  ctx: TestContext,
  method: Method,
  url: string,
  caller: Caller = {},
  payload?: object | string,
): Promise<Reply> {
  const headers = isUser(caller) ? await as(ctx, caller) : caller;
  return (await ctx.app.inject({ method, url: `/api${url}`, headers: { ...headers }, payload })) as unknown as Reply;
}

/** `call` as a file's usual caller unless the options name headers of their own. */
export function callAs(ctx: TestContext, usual: () => Caller) {
  return (method: Method, url: string, options: { headers?: Caller; payload?: object | string } = {}) =>
    call(ctx, method, url, options.headers ?? usual(), options.payload);
}

export function expectError(response: Reply, status: number, errorCode: string): void {
  expect({ status: response.statusCode, errorCode: response.json().errorCode }).toEqual({ status, errorCode });
}

/** The fields a validation error names, and its issues whole. */
export const fieldIssues = (response: Reply) => response.json().details?.fields ?? [];
export const fieldsOf = (response: Reply) => fieldIssues(response).map((issue) => issue.field);

export const filterQuery = (filter: object) => `filter=${encodeURIComponent(JSON.stringify(filter))}`;

export const entryId = (entries: CatalogueEntry[], name: string) =>
  entries.find((e) => e.name.toLowerCase() === name.toLowerCase())!.id;

/** Where a case lives, with the catalogue ids a valid case of it uses. */
export interface Home {
  id: string;
  diseaseTypeId: string;
  categoryId: string;
}
export interface ProjectFacts extends Home {
  /** Season ids by name. */
  seasons: Record<string, string>;
  project: Project;
}

/** A project made through the real call; its first disease type and category are the ones cases use. */
export async function newProject(
  ctx: TestContext,
  caller: Caller,
  clientId: string,
  overrides: Partial<CreateProjectBody> = {},
): Promise<ProjectFacts> {
  const body = projectBody(clientId, overrides);
  const created = await call(ctx, 'POST', '/projects', caller, body);
  expect(created.statusCode).toBe(201);
  const project = (await call(ctx, 'GET', `/projects/${created.json<Project>().id}`, caller)).json<Project>();
  return {
    id: project.id,
    diseaseTypeId: entryId(project.disease_types, body.disease_types[0]!),
    categoryId: entryId(project.question_categories, body.question_categories[0]!),
    seasons: Object.fromEntries(project.seasons.map((s) => [s.name, s.id])),
    project,
  };
}

let moduleCounter = 0;
/** A module library's body (Diabetes, Diagnosis unless told otherwise), under a name of its own. */
export function moduleBody(overrides: Partial<ModuleBody> = {}): ModuleBody {
  moduleCounter += 1;
  return {
    name: `Module ${moduleCounter}`,
    description: null,
    disease_types: ['Diabetes'],
    question_categories: ['Diagnosis'],
    ...overrides,
  };
}

/** A module library made through the real call (by a superadmin); its first names are the ones cases use. */
export async function newModule(
  ctx: TestContext,
  caller: Caller,
  overrides: Partial<ModuleBody> = {},
): Promise<Home & { module: ModuleLibrary }> {
  const body = moduleBody(overrides);
  const created = await call(ctx, 'POST', '/module-library', caller, body);
  expect(created.statusCode).toBe(201);
  const module = created.json<ModuleLibrary>();
  return {
    id: module.id,
    diseaseTypeId: entryId(module.disease_types, body.disease_types[0]!),
    categoryId: entryId(module.question_categories, body.question_categories[0]!),
    module,
  };
}

/** A draft made in a project or module and saved whole with the body. */
export async function savedCase(
  ctx: TestContext,
  caller: Caller,
  where: { project_id: string } | { module_id: string },
  body: UpdateCaseBody,
): Promise<CaseDocument> {
  const draft = await call(ctx, 'POST', '/cases', caller, {
    ...where,
    name: body.name,
    disease_type_id: body.disease_type_id,
  });
  expect(draft.statusCode).toBe(201);
  const saved = await call(ctx, 'PUT', `/cases/${draft.json<CaseDocument>().id}`, caller, body);
  expect(saved.statusCode).toBe(200);
  return saved.json<CaseDocument>();
}

/** A case saved whole with the body, then published; as read back after. */
export async function publishedCase(
  ctx: TestContext,
  caller: Caller,
  where: { project_id: string } | { module_id: string },
  body: UpdateCaseBody,
): Promise<CaseDocument> {
  const saved = await savedCase(ctx, caller, where, body);
  const published = await call(ctx, 'POST', `/cases/${saved.id}/status`, caller, { status: 'PUBLISHED' });
  expect(published.statusCode).toBe(200);
  return (await call(ctx, 'GET', `/cases/${saved.id}`, caller)).json<CaseDocument>();
}

/** The link token of a mailed or logged dashboard link (`/participant/link/{token}`). */
export function tokenOfLink(link: string): string {
  const match = /\/participant\/link\/([^\s/?#]+)/.exec(link);
  if (!match?.[1]) throw new Error(`no dashboard link in: ${link}`);
  return match[1];
}
