import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { seedReportProject } from '../../../../../bench/report-seed.js';
import { call, expectError, fieldsOf, type Reply } from '../../../test/kit.js';
import { csvRows, ctx, report, world, xlsxRows } from '../../../test/report-calls.js';

// Who may download a project's reports, what a bad query answers, and a report read over
// many pages (test/report-calls.ts has the world).

const reports = [
  'participants-progress',
  `participants-progress-subset?filter=${encodeURIComponent('{"progress":"COMPLETE"}')}`,
  'project-progress',
  'project-score',
  'project-survey-response/REVIEW',
  'project-usage',
  'project-emails',
];
const withQuery = (path: string, extra: string) => `${path}${path.includes('?') ? '&' : '?'}${extra}`;

/** A refusal: a catalogue error as JSON, and not a byte of a file. */
function expectRefused(reply: Reply, status: number, errorCode: string): void {
  expectError(reply, status, errorCode);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  expect(reply.headers['content-disposition']).toBeUndefined();
}

describe('who may download a report', () => {
  it.each(reports)(
    '%s: the client’s administrator and a superadmin; another client’s administrator is told 404',
    async (path) => {
      const url = `/reports/${world.project.id}/${path}`;
      for (const caller of [world.adminA, world.superadmin]) {
        const reply = await call(ctx, 'GET', url, caller);
        expect(reply.statusCode).toBe(200);
        expect(reply.headers['content-disposition']).toMatch(/^attachment; /);
      }
      const other = await call(ctx, 'GET', url, world.adminB);
      expectRefused(other, 404, 'PROJECT_NOT_FOUND');
      expect(other.body).not.toContain('Cardio');
      expectRefused(await call(ctx, 'GET', withQuery(url, 'format=xlsx'), world.adminB), 404, 'PROJECT_NOT_FOUND');
      expectRefused(await call(ctx, 'GET', url, world.tester), 403, 'FORBIDDEN');
      expectRefused(await call(ctx, 'GET', url), 401, 'NOT_AUTHORIZED');
      expectRefused(
        await call(ctx, 'GET', `/reports/${randomUUID()}/${path}`, world.superadmin),
        404,
        'PROJECT_NOT_FOUND',
      );
    },
  );
});

describe('a bad query', () => {
  it.each(reports)('%s: an unknown format or project id is a 400', async (path) => {
    const badFormat = await call(
      ctx,
      'GET',
      `/reports/${world.project.id}/${withQuery(path, 'format=pdf')}`,
      world.adminA,
    );
    expectRefused(badFormat, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(badFormat)).toEqual(['querystring.format']);
    expectRefused(await call(ctx, 'GET', `/reports/not-a-project/${path}`, world.adminA), 400, 'VALIDATION_ERROR');
  });

  it('names the season parameter the project does not have', async () => {
    for (const path of ['participants-progress', 'project-score']) {
      const reply = await report(path, { seasonName: 'Winter 2031' });
      expectRefused(reply, 400, 'VALIDATION_ERROR');
      expect(fieldsOf(reply)).toEqual(['querystring.seasonName']);
      expectRefused(await report(path, { seasonName: ' ' }), 400, 'VALIDATION_ERROR');
      expectRefused(await report(path, { seasonName: 'x'.repeat(121) }), 400, 'VALIDATION_ERROR');
    }
  });

  it('refuses a survey type that does not exist', async () => {
    expectRefused(await report('project-survey-response/EXIT'), 400, 'VALIDATION_ERROR');
  });

  it('refuses a project filter with unknown keys or values', async () => {
    for (const filter of ['{"season":"Spring 2026"}', '{"round_number":0}', '[]', 'spring']) {
      expectRefused(await report('project-progress', { filter }), 400, 'VALIDATION_ERROR');
    }
  });
});

describe('a report over many pages', () => {
  it('reads every participant once, in name order, continuing page after page', async () => {
    const seeded = await seedReportProject(
      ctx.ownerDb,
      { participants: 1_105, cases: 2, questions: 2 },
      ctx.clock.now(),
    );
    const get = (path: string, format = 'csv') =>
      call(ctx, 'GET', `/reports/${seeded.projectId}/${path}?format=${format}`, world.superadmin);
    const progress = csvRows(await get('participants-progress')).slice(1);
    expect(progress).toHaveLength(1_105);
    const names = progress.map((row) => row[0]!);
    expect(names).toEqual([...names].sort());
    expect(new Set(progress.map((row) => row[2])).size).toBe(1_105);
    const score = csvRows(await get('project-score')).slice(1);
    expect(score).toHaveLength(seeded.attempts);
    expect(new Set(score.map((row) => `${row[2]} ${row[7]}`)).size).toBe(seeded.attempts);
    const usage = await get('project-usage', 'xlsx');
    expect((await xlsxRows(usage)).slice(1).map((row) => row[2])).toEqual(progress.map((row) => row[2]));
  }, 120_000);
});
