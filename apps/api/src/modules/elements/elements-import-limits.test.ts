import { beforeAll, describe, expect, it } from 'vitest';
import type { ImportJob, Project } from '@pss/contract';

import { twoClientsContext } from '../../../test/kit.js';
import { multipartFile, projectBody } from '../../../test/fixtures.js';

/* A file with a rejected row on every line: the job lists the first 500 and counts the rest. */

let projectId: string;

const { ctx, f } = twoClientsContext();

beforeAll(async () => {
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: f.asSuperadmin,
    payload: projectBody(f.clientA.id),
  });
  projectId = created.json<Project>().id;
});

async function importOf(kind: 'key-takeaways' | 'answers-tags', content: string) {
  const file = multipartFile(content, 'elements.csv');
  const queued = await ctx.app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/${kind}`,
    headers: { ...f.asAdminA, ...file.headers },
    payload: file.payload,
  });
  expect(queued.statusCode).toBe(202);
  await ctx.app.imports.runPending();
  const type = kind === 'key-takeaways' ? 'SUMMARY' : 'ANSWER_TAGS';
  const latest = await ctx.app.inject({
    method: 'GET',
    url: `/api/projects/${projectId}/import?type=${type}`,
    headers: f.asAdminA,
  });
  expect(latest.json<ImportJob>().id).toBe(queued.json<ImportJob>().id);
  return latest;
}

const ROWS = 20_000;

describe('an elements file with thousands of rejected rows', () => {
  it.each([
    ['key-takeaways', 'case_name,key_takeaway', (i: number) => `No such case ${i},Text ${i}`],
    ['answers-tags', 'case_name,question,answer,tag', (i: number) => `No such case ${i},Q?,A,Tag`],
  ] as const)('%s: lists the first 500 rejected rows and counts the rest', async (kind, header, row) => {
    const content = [header, ...Array.from({ length: ROWS }, (_, i) => row(i))].join('\n');
    const reply = await importOf(kind, content);
    const job = reply.json<ImportJob>();
    expect(job).toMatchObject({ state: 'ERROR', total_rows: ROWS });
    expect(job.errors).toHaveLength(501);
    expect(job.errors[0]).toMatchObject({ line: 2, errorCode: 'IMPORT_VALIDATION_FAILED' });
    expect(job.errors[499]).toMatchObject({ line: 501 });
    expect(job.errors[500]).toEqual({
      line: 0,
      errorCode: 'IMPORT_VALIDATION_FAILED',
      message: `…and ${ROWS - 500} more rejected rows.`,
    });
    // The status reply stays small whatever the file.
    expect(reply.body.length).toBeLessThan(100_000);
  });
});
