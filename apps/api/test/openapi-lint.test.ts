import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './test-app.js';

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

// The document does not depend on the database: it runs once, on whichever engine this run
// tests (npm test runs it on PostgreSQL, where every API test runs; docs/testing.md).
let ctx: TestContext;
let document: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
beforeAll(async () => {
  ctx = await createTestContext();
  const response = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  document = response.json();
});
afterAll(() => ctx.close());

/**
 * Runs Redocly CLI's `lint` (the `recommended` rules) on the served document. The CLI
 * bundles its linter without a programmatic entry, so it is spawned; it reads only the
 * file given (the document has no remote `$ref`s) and telemetry and the update check are off.
 */
async function redoclyLint(
  json: string,
): Promise<{ totals: { errors: number; warnings: number }; problems: LintProblem[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pss-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, json);
    const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
    const run = await promisify(execFile)(
      process.execPath,
      [cli, 'lint', '--extends', 'recommended', '--format', 'json', '--max-problems', '10000', file],
      {
        cwd: dir, // no redocly.yaml of anyone's but the rules named here
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string }) => {
      // Lint exits 1 when it finds errors; its report is still on stdout.
      if (error.stdout) return { stdout: error.stdout };
      throw error;
    });
    return JSON.parse(run.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the OpenAPI document', () => {
  it('passes Redocly’s recommended rules without an error', async () => {
    const report = await redoclyLint(JSON.stringify(document));
    const byRule = new Map<string, number>();
    for (const p of report.problems) {
      const key = `${p.severity} ${p.ruleId}`;
      byRule.set(key, (byRule.get(key) ?? 0) + 1);
    }
    // The remaining warning is the specification's `/users/{usersIds}/{projectId}/archive`
    // beside `/users/{userId}/project/{projectId}`: paths clients use, so they stay.
    process.stdout.write(
      `Redocly lint (recommended): ${report.totals.errors} errors, ${report.totals.warnings} warnings ` +
        `${JSON.stringify(Object.fromEntries(byRule))}\n`,
    );
    const errors = report.problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId} at ${p.location.map((l) => l.pointer).join(', ')}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it('says per operation whether it needs a bearer token', () => {
    expect(document.paths['/api/health'].get.security).toEqual([]);
    expect(document.paths['/api/auth/admin/login'].post.security).toEqual([]);
    expect(document.paths['/api/clients'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents every upload as a multipart body with a binary `file`', () => {
    const uploads = [
      ['post', '/api/clients/cap/import'],
      ['post', '/api/projects/{id}/upload'],
      ['post', '/api/users/upload'],
      ['post', '/api/cases/rtf'],
      ['post', '/api/cases/{id}/image'],
      ['post', '/api/projects/{id}/key-takeaways'],
      ['post', '/api/projects/{id}/answers-tags'],
      ['post', '/api/module-library/{id}/key-takeaways'],
      ['post', '/api/module-library/{id}/answers-tags'],
    ] as const;
    for (const [method, url] of uploads) {
      const body = document.paths[url]?.[method]?.requestBody;
      expect(body, `${method} ${url}`).toBeDefined();
      expect(Object.keys(body.content), `${method} ${url}`).toEqual(['multipart/form-data']);
      expect(body.content['multipart/form-data'].schema).toMatchObject({
        required: ['file'],
        properties: { file: { type: 'string', format: 'binary' } },
      });
    }
  });

  it('documents what a file download answers: each content type the caller may ask for', () => {
    const file = { schema: { type: 'string', format: 'binary' } };
    expect(document.paths['/api/projects/{id}/export'].get.responses['200'].content).toEqual({ 'text/csv': file });
    for (const report of ['participants-progress', 'project-score', 'project-survey-response/{type}']) {
      expect(document.paths[`/api/reports/{projectId}/${report}`].get.responses['200'].content).toEqual({
        'text/csv; charset=utf-8': file,
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': file,
      });
    }
  });

  it('keeps the specification’s paths', () => {
    expect(document.paths['/api/cmes/{id}']).toHaveProperty('get');
    expect(document.paths['/api/cmes/{id}']).toHaveProperty('put');
    expect(document.paths['/api/cmes/{projectId}']).toBeUndefined();
  });
});
