// Every call of the API is declared once, in the contract's route table
// (packages/contract/src/routes): the server registers it from there and the web app calls
// it from there. This holds that no path is written again anywhere else in the sources.
import path from 'node:path';
import * as contract from '@pss/contract';
import { describe, expect, it } from 'vitest';
import { findApiPaths, routeShapes, scanFiles, sourceFiles, type FoundPath, type ScanRules } from './find-api-paths';

const root = path.resolve(import.meta.dirname, '../..');
const shapes = routeShapes(contract);

/** The trees scanned, and what counts as an API path in each (./find-api-paths.ts). */
const TREES: { dir: string; rules: ScanRules; skip?: string[] }[] = [
  { dir: 'apps/api/src', rules: { routeShapes: true, registrations: true } },
  // The demo content first start seeds (outside src since issue #49).
  { dir: 'apps/api/demo', rules: { routeShapes: true, registrations: true } },
  { dir: 'apps/web/src', rules: { routeShapes: false, registrations: false } },
  { dir: 'apps/web/build', rules: { routeShapes: false, registrations: false } },
  // The route table itself is where the paths are written.
  {
    dir: 'packages/contract/src',
    rules: { routeShapes: true, registrations: false },
    skip: ['packages/contract/src/routes/'],
  },
];

/** Paths the API serves or names outside the route table on purpose, each with its reason. */
const EXCEPTIONS: { file: string; text: string; reason: string }[] = [
  {
    file: 'apps/api/src/lib/openapi.ts',
    text: '/api/docs',
    reason: "The API's documentation pages, served by the OpenAPI plugin: pages for people, not calls.",
  },
  {
    file: 'apps/api/src/lib/openapi.ts',
    text: '/api/openapi.json',
    reason: 'The OpenAPI document the documentation pages read, made from the route table itself.',
  },
  {
    file: 'apps/api/src/lib/security-headers.ts',
    text: '/api/docs',
    reason: 'The documentation pages may be cached, unlike the answers of calls.',
  },
  {
    file: 'apps/api/src/modules/auth/auth.routes.ts',
    text: '/api/auth',
    reason: "The refresh cookies' Path: the browser sends them to the calls under it, not a call itself.",
  },
  {
    file: 'apps/api/src/modules/auth/auth.routes.ts',
    text: '/api/auth/oidc',
    reason: "The identity provider's ID token cookie's Path, likewise.",
  },
];

function isException(found: FoundPath): boolean {
  return EXCEPTIONS.some((e) => e.file === found.file && e.text === found.text);
}

function describeFound(found: FoundPath): string {
  return `${found.file}:${found.line}: ${JSON.stringify(found.text)} (${found.why})`;
}

function scan(): FoundPath[] {
  return TREES.flatMap((tree) => scanFiles(root, sourceFiles(root, tree.dir, tree.skip), shapes, tree.rules));
}

describe('API paths', () => {
  it('are written only in the route table', () => {
    const found = scan().filter((f) => !isException(f));
    expect(found.map(describeFound), 'Use the route table (packages/contract/src/routes) instead').toEqual([]);
  });

  it('are excepted only where they are still written', () => {
    const found = scan();
    const stale = EXCEPTIONS.filter((e) => !found.some((f) => f.file === e.file && f.text === e.text));
    expect(stale).toEqual([]);
  });

  describe('are found', () => {
    const api: ScanRules = { routeShapes: true, registrations: true };
    const web: ScanRules = { routeShapes: false, registrations: false };
    const texts = (source: string, rules: ScanRules) =>
      findApiPaths('probe.ts', source, shapes, rules).map((f) => `${f.line}: ${f.text}`);

    it('under /api, in strings and templates, after an origin, with their query', () => {
      const source = [
        "fetch('/api/clients?page=1');",
        'const notes = (id: string) => `/api/users/${id}/notes`;',
        "const home = origin + '/api/settings';",
        'const far = `${origin}/api/dashboard`;',
      ].join('\n');
      expect(texts(source, web)).toEqual([
        '1: /api/clients?page=1',
        '2: /api/users/:/notes',
        '3: /api/settings',
        '4: :/api/dashboard',
      ]);
    });

    it('as a route written out as an object, or registered with a path of its own', () => {
      const source = [
        "export const DASHBOARD = { method: 'GET', path: '/dashboard' } as const;",
        "app.get('/health/extra', handler);",
        "app.route({ method: 'GET', url: '/metrics', handler });",
      ].join('\n');
      expect(texts(source, api)).toEqual(['1: /dashboard', '2: /health/extra', '3: /metrics']);
      expect(texts(source, web)).toEqual(['1: /dashboard', '3: /metrics']);
    });

    it("with a route table path's shape in the API, whatever its parameters are called", () => {
      const source = ["const one = '/clients';", 'const two = `/projects/${projectId}/seasons`;'].join('\n');
      expect(texts(source, api)).toEqual(['1: /clients', '2: /projects/:/seasons']);
      // The web app's screens share some URLs with the API: there, a screen's path is no call.
      expect(texts(source, web)).toEqual([]);
    });

    it('but not the prefix itself, a screen, or a path made from the route table', () => {
      const source = [
        "const prefix = '/api';",
        "const isApi = url.startsWith('/api/');",
        'const url = `/api${route.path}`;',
        "navigate('/project-management');",
        "const screen = { path: '/participant', element };",
      ].join('\n');
      expect(texts(source, api)).toEqual([]);
      expect(texts(source, web)).toEqual([]);
    });
  });
});
