import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalogue } from '@pss/contract';
import { buildApp } from '../src/app.js';
import { bearerFor, createTestContext, createUser, testConfig, type TestContext } from './test-app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('health', () => {
  it('answers ok when the database answers', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers DATABASE_ERROR when the database does not', async () => {
    const failing = await buildApp({
      config: ctx.config,
      database: { ...ctx.database, ping: async () => false },
      logger: false,
    });
    const response = await failing.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ errorCode: 'DATABASE_ERROR', message: errorCatalogue.DATABASE_ERROR.message });
    await failing.close();
  });
});

describe('error answers', () => {
  it('answers malformed JSON with VALIDATION_ERROR', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errorCode).toBe('VALIDATION_ERROR');
  });

  it('answers an unknown API path with a JSON NOT_FOUND', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ errorCode: 'NOT_FOUND', message: errorCatalogue.NOT_FOUND.message });
  });

  it('answers an unexpected failure with INTERNAL_ERROR and no stack or internals', async () => {
    const app = await buildApp({ config: ctx.config, database: ctx.database, logger: false });
    app.get('/api/explode', { config: { access: 'public' } }, async () => {
      throw new Error('secret internal detail at /srv/app.ts:12');
    });
    const response = await app.inject({ method: 'GET', url: '/api/explode' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ errorCode: 'INTERNAL_ERROR', message: errorCatalogue.INTERNAL_ERROR.message });
    expect(response.body).not.toContain('secret');
    await app.close();
  });

  it('answers a failing SQL statement with DATABASE_ERROR and no SQL', async () => {
    const app = await buildApp({ config: ctx.config, database: ctx.database, logger: false });
    app.get('/api/bad-sql', { config: { access: 'public' } }, async () => {
      await ctx.database.db.execute('select * from no_such_table' as never);
      return 'unreachable';
    });
    const response = await app.inject({ method: 'GET', url: '/api/bad-sql' });
    expect(response.statusCode).toBe(500);
    expect(response.json().errorCode).toBe('DATABASE_ERROR');
    expect(response.body).not.toContain('no_such_table');
    await app.close();
  });

  it('answers a staff member calling a superadmin-only or participant route with FORBIDDEN', async () => {
    const app = await buildApp({ config: ctx.config, database: ctx.database, logger: false });
    app.get('/api/only-superadmin', { config: { access: 'superadmin' } }, async () => 'ok');
    app.get('/api/only-participant', { config: { access: 'participant' } }, async () => 'ok');
    await app.ready();
    const { createClient } = await import('./test-app.js');
    const client = await createClient(ctx.db);
    const admin = await createUser(ctx.db, { role: 'ADMIN', clientId: client.id });
    const superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const asAdmin = await bearerFor(app, admin);
    const asSuperadmin = await bearerFor(app, superadmin);
    expect((await app.inject({ method: 'GET', url: '/api/only-superadmin', headers: asAdmin })).json().errorCode).toBe(
      'FORBIDDEN',
    );
    expect((await app.inject({ method: 'GET', url: '/api/only-superadmin', headers: asSuperadmin })).statusCode).toBe(
      200,
    );
    const participantRoute = await app.inject({ method: 'GET', url: '/api/only-participant', headers: asSuperadmin });
    expect(participantRoute.statusCode).toBe(403);
    await app.close();
  });
});

describe('headers', () => {
  it('sends security headers with a content security policy', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBeDefined();
  });

  it('never lets API answers be cached', async () => {
    const superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: await bearerFor(ctx.app, superadmin),
    });
    expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('the built web app', () => {
  it('is served at / with client-side routes falling back to index.html', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'pss-web-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Patient Simulation Platform</title>');
    const app = await buildApp({
      config: testConfig({ WEB_DIST_DIR: dist }),
      database: ctx.database,
      logger: false,
    });
    const index = await app.inject({ method: 'GET', url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('Patient Simulation Platform');
    const deep = await app.inject({ method: 'GET', url: '/project-management/clients/abc' });
    expect(deep.statusCode).toBe(200);
    expect(deep.headers['content-type']).toContain('text/html');
    const api = await app.inject({ method: 'GET', url: '/api/nothing' });
    expect(api.json().errorCode).toBe('NOT_FOUND');
    await app.close();
  });

  it('sends hashed assets precompressed and cached for a year as immutable; index.html never cached', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'pss-web-'));
    mkdirSync(path.join(dist, 'assets'));
    const script = 'console.log("the app");'.repeat(100);
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Patient Simulation Platform</title>');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), script);
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js.gz'), gzipSync(script));
    const app = await buildApp({ config: testConfig({ WEB_DIST_DIR: dist }), database: ctx.database, logger: false });
    try {
      const br = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
      const gz = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      const plain = await app.inject({ url: '/assets/index-abc123.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(script);
      for (const answer of [br, gz, plain]) expect(answer.headers.vary).toMatch(/accept-encoding/i);
      const index = await app.inject({ url: '/' });
      expect(index.headers['cache-control']).toBe('no-cache');
    } finally {
      await app.close();
    }
  });

  it('sends index.html precompressed and never cached, for / and for every client-side route', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'pss-web-'));
    const html = `<!doctype html><title>Patient Simulation Platform</title>${'<link rel="modulepreload">'.repeat(60)}`;
    writeFileSync(path.join(dist, 'index.html'), html);
    writeFileSync(path.join(dist, 'index.html.br'), brotliCompressSync(html));
    writeFileSync(path.join(dist, 'index.html.gz'), gzipSync(html));
    const app = await buildApp({ config: testConfig({ WEB_DIST_DIR: dist }), database: ctx.database, logger: false });
    try {
      for (const url of ['/', '/participant/cases/abc', '/login-landing?next=%2Fuser-management']) {
        const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
        expect(br.statusCode, url).toBe(200);
        expect(br.headers['content-encoding'], url).toBe('br');
        expect(br.headers['content-type'], url).toContain('text/html');
        expect(br.headers['cache-control'], url).toBe('no-cache');
        expect(br.headers.vary, url).toMatch(/accept-encoding/i);
        expect(brotliDecompressSync(br.rawPayload).toString(), url).toBe(html);
        const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
        expect(gz.headers['content-encoding'], url).toBe('gzip');
        expect(gunzipSync(gz.rawPayload).toString(), url).toBe(html);
        const plain = await app.inject({ url, headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
        expect(plain.headers['content-encoding'], url).toBeUndefined();
        expect(plain.body, url).toBe(html);
      }
    } finally {
      await app.close();
    }
  });

  it("names a first screen's own chunks and style sheets in its index.html, and only that screen's", async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'pss-web-'));
    const html = '<!doctype html><html><head><title>Patient Simulation Platform</title></head><body></body></html>';
    writeFileSync(path.join(dist, 'index.html'), html);
    mkdirSync(path.join(dist, '.vite'));
    writeFileSync(
      path.join(dist, '.vite', 'route-preloads.json'),
      JSON.stringify([
        {
          pattern: '/participant/cases/:attemptId',
          files: ['/assets/case-page-1.js', '/assets/Radio-2.js'],
          styles: ['/assets/Radio-2.css'],
        },
        { pattern: '/login-landing', files: ['/assets/login-landing-page-3.js'] },
      ]),
    );
    const app = await buildApp({ config: testConfig({ WEB_DIST_DIR: dist }), database: ctx.database, logger: false });
    const preloads = (body: string) =>
      [...body.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    try {
      const caseScreen = await app.inject({
        url: '/participant/cases/abc?x=1',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(caseScreen.headers['content-encoding']).toBe('gzip');
      const caseHtml = gunzipSync(caseScreen.rawPayload).toString();
      expect(preloads(caseHtml)).toEqual(['/assets/case-page-1.js', '/assets/Radio-2.js']);
      expect(caseHtml.indexOf('modulepreload')).toBeLessThan(caseHtml.indexOf('</head>'));
      expect([...caseHtml.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1])).toEqual([
        '/assets/Radio-2.css',
      ]);
      expect(caseHtml.indexOf('Radio-2.css')).toBeLessThan(caseHtml.indexOf('</head>'));
      const signIn = await app.inject({
        url: '/login-landing?next=%2Fuser-management',
        headers: { 'accept-encoding': 'br' },
      });
      expect(preloads(brotliDecompressSync(signIn.rawPayload).toString())).toEqual(['/assets/login-landing-page-3.js']);
      // A deeper path is another screen; an unknown one gets the page as built.
      for (const url of ['/participant/cases/abc/more', '/somewhere-else']) {
        expect((await app.inject({ url })).body, url).toBe(html);
      }
    } finally {
      await app.close();
    }
  });
});

describe("the web app's style sheets", () => {
  it("are written into its index.html, Vite's and the screen's, each leaving a disabled link for the loader", async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'pss-web-'));
    mkdirSync(path.join(dist, 'assets'));
    mkdirSync(path.join(dist, '.vite'));
    const sheets = {
      'index-1.css': '@layer base{.a{color:red}}',
      'Table-2.css': '.t{background:url(data:image/svg+xml;base64,AAAA)}',
      'font-3.css': '@font-face{src:url(./font-3.woff2)}',
      'odd-4.css': '.x::after{content:"</style><script>alert(1)</script>"}',
      'big-5.css': `.b{color:blue}${' '.repeat(70 * 1024)}`,
    };
    for (const [name, text] of Object.entries(sheets)) writeFileSync(path.join(dist, 'assets', name), text);
    const html =
      '<!doctype html><html><head><link rel="stylesheet" crossorigin href="/assets/index-1.css">' +
      '<link rel="stylesheet" crossorigin href="/assets/missing-6.css"></head><body></body></html>';
    writeFileSync(path.join(dist, 'index.html'), html);
    const styles = ['Table-2.css', 'font-3.css', 'odd-4.css', 'big-5.css'].map((name) => `/assets/${name}`);
    writeFileSync(
      path.join(dist, '.vite', 'route-preloads.json'),
      JSON.stringify([{ pattern: '/project-management', files: ['/assets/clients-7.js'], styles }]),
    );
    const app = await buildApp({ config: testConfig({ WEB_DIST_DIR: dist }), database: ctx.database, logger: false });
    try {
      const page = await app.inject({ url: '/project-management', headers: { 'accept-encoding': 'br' } });
      const body = brotliDecompressSync(page.rawPayload).toString();
      expect(body).toContain(
        `<style>${sheets['index-1.css']}</style><link rel="stylesheet" disabled href="/assets/index-1.css">`,
      );
      expect(body).toContain(
        `<style>${sheets['Table-2.css']}</style><link rel="stylesheet" disabled href="/assets/Table-2.css">`,
      );
      // Kept as links: a sheet with a file beside it, one that could close its <style>, a large one, a missing one.
      expect(body).toContain('<link rel="stylesheet" href="/assets/font-3.css">');
      expect(body).toContain('<link rel="stylesheet" href="/assets/odd-4.css">');
      expect(body).not.toContain('alert(1)');
      expect(body).toContain('<link rel="stylesheet" href="/assets/big-5.css">');
      expect(body).toContain('<link rel="stylesheet" crossorigin href="/assets/missing-6.css">');
      // Another screen has Vite's sheet inline too, and none of this screen's.
      const other = (await app.inject({ url: '/somewhere' })).body;
      expect(other).toContain(`<style>${sheets['index-1.css']}</style>`);
      expect(other).not.toContain('Table-2.css');
    } finally {
      await app.close();
    }
  });
});

describe("the web app's inline script", () => {
  it('is allowed by its hash in the content security policy, and nothing else inline is', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'pss-web-'));
    const script = '(function(w){w.started=1})(window);';
    writeFileSync(path.join(dist, 'index.html'), `<!doctype html><head><script>${script}</script></head>`);
    const app = await buildApp({ config: testConfig({ WEB_DIST_DIR: dist }), database: ctx.database, logger: false });
    try {
      const hash = createHash('sha256').update(script).digest('base64');
      for (const url of ['/', '/project-management', '/api/health']) {
        const policy = String((await app.inject({ url })).headers['content-security-policy']);
        const scriptSrc = policy.split(';').find((part) => part.trim().startsWith('script-src'));
        expect(scriptSrc?.trim(), url).toBe(`script-src 'self' 'sha256-${hash}'`);
      }
    } finally {
      await app.close();
    }
    // With no web app built, scripts come from the site only.
    const policy = String((await ctx.app.inject({ url: '/api/health' })).headers['content-security-policy']);
    expect(policy).toContain("script-src 'self';");
  });
});

describe('OpenAPI', () => {
  it('documents every route that exists, with its access', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    const documented = new Set<string>();
    for (const [p, operations] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${p}`);
    }
    const ours = ctx.app.declaredRoutes.filter(
      (r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.url !== '/api/openapi.json',
    );
    for (const route of ours) {
      const openApiPath = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
      expect(documented, `${route.method} ${openApiPath}`).toContain(`${route.method} ${openApiPath}`);
    }
    expect(document.paths['/api/users/me'].get.security).toEqual([{ bearerAuth: [] }]);
  });

  it('serves the browsable docs', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });
});
