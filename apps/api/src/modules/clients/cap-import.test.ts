import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MAX_IMPORT_FILE_BYTES } from '@pss/contract';
import { capRoster, importJobs } from '../../db/schema/index.js';

import { twoClientsContext } from '../../../test/kit.js';
import { multipartFile } from '../../../test/fixtures.js';

const { ctx, f } = twoClientsContext();

async function upload(content: string | Buffer, headers = f.asSuperadmin) {
  const file = multipartFile(content, 'roster.csv');
  return ctx.app.inject({
    method: 'POST',
    url: '/api/clients/cap/import',
    headers: { ...headers, ...file.headers },
    payload: file.payload,
  });
}

async function importAndRun(content: string) {
  const queued = await upload(content);
  expect(queued.statusCode).toBe(202);
  expect(queued.json()).toMatchObject({ kind: 'CAP', state: 'NOT_STARTED', file_name: 'roster.csv' });
  await ctx.app.imports.runPending();
  const latest = await ctx.app.inject({ method: 'GET', url: '/api/clients/cap/import', headers: f.asSuperadmin });
  expect(latest.json().id).toBe(queued.json().id);
  return latest.json();
}

function status(capId: string, headers = f.asAdminA) {
  return ctx.app.inject({ method: 'GET', url: `/api/clients/cap/${encodeURIComponent(capId)}/status`, headers });
}

describe('CAP roster import', () => {
  it('imports a roster in the background and answers CAP status from it', async () => {
    // The client's CAP ID is on the roster: its CAP status follows the roster.
    await ctx.app.inject({
      method: 'PUT',
      url: `/api/clients/${f.clientA.id}`,
      headers: f.asSuperadmin,
      payload: { name: 'Alpha Health', cap_id: 'CAP-100' },
    });
    const job = await importAndRun(
      '\uFEFFCAP_ID;Name;Status\r\nCAP-100;Alpha Health;Active\r\nCAP-200;"Beta; Gamma";Lapsed\r\n',
    );
    expect(job).toMatchObject({ state: 'COMPLETE', total_rows: 2, processed_rows: 2, errors: [] });

    const known = await status('cap-100');
    expect(known.statusCode).toBe(200);
    expect(known.json()).toMatchObject({
      cap_id: 'CAP-100',
      name: 'Alpha Health',
      status: 'Active',
      client_id: f.clientA.id,
    });
    expect((await status('CAP-200', f.asSuperadmin)).json()).toMatchObject({
      name: 'Beta; Gamma',
      status: 'Lapsed',
      client_id: null,
    });
    const client = await ctx.app.inject({
      method: 'GET',
      url: `/api/clients/${f.clientA.id}`,
      headers: f.asSuperadmin,
    });
    expect(client.json().cap_status).toBe('Active');
  });

  it('answers CAP_CLIENT_NOT_FOUND for a CAP ID not on the roster', async () => {
    const response = await status('CAP-404');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      errorCode: 'CAP_CLIENT_NOT_FOUND',
      message: 'No CAP client exists with this CAP ID.',
    });
  });

  it('rejects the whole file when any row is wrong, listing every bad row, and keeps the old roster', async () => {
    const job = await importAndRun(
      'cap_id,name,status\nCAP-300,Fine,Active\nbad id!,Broken,Active\nCAP-300,Twice,Active\nCAP-301,,Active\n',
    );
    expect(job.state).toBe('ERROR');
    expect(job.processed_rows).toBe(0);
    expect(job.errors).toEqual([
      { line: 3, errorCode: 'INVALID_CAP_ID', message: 'Line 3: "bad id!" is not a valid CAP ID.' },
      { line: 4, errorCode: 'IMPORT_VALIDATION_FAILED', message: 'Line 4: CAP ID CAP-300 is already on line 2.' },
      { line: 5, errorCode: 'FIELD_REQUIRED', message: 'Line 5: name is required.' },
    ]);
    expect((await status('CAP-300')).statusCode).toBe(404);
    expect((await status('CAP-100')).statusCode).toBe(200);
  });

  it('lists the first 500 rejected rows of a large bad file and counts the rest', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `bad id ${i},Broken,Active`).join('\n');
    const job = await importAndRun(`cap_id,name,status\n${rows}\n`);
    expect(job).toMatchObject({ state: 'ERROR', total_rows: 3000, processed_rows: 0 });
    expect(job.errors).toHaveLength(501);
    expect(job.errors[0]).toEqual({
      line: 2,
      errorCode: 'INVALID_CAP_ID',
      message: 'Line 2: "bad id 0" is not a valid CAP ID.',
    });
    expect(job.errors[499]).toMatchObject({ line: 501, errorCode: 'INVALID_CAP_ID' });
    expect(job.errors[500]).toEqual({
      line: 0,
      errorCode: 'IMPORT_VALIDATION_FAILED',
      message: '…and 2500 more rejected rows.',
    });
    expect((await status('CAP-100')).statusCode).toBe(200);
  });

  it('rejects wrong headers or delimiter with CSV_HEADERS_OR_DELIMITER_INVALID', async () => {
    const job = await importAndRun('cap_id|name|status\nCAP-1|x|y\n');
    expect(job).toMatchObject({ state: 'ERROR', errors: [{ line: 1, errorCode: 'CSV_HEADERS_OR_DELIMITER_INVALID' }] });
    expect((await ctx.db.select().from(capRoster)).length).toBe(2);
  });

  it('rejects an empty file', async () => {
    const job = await importAndRun('cap_id,name,status\n');
    expect(job).toMatchObject({ state: 'ERROR', errors: [{ errorCode: 'IMPORT_VALIDATION_FAILED' }] });
  });

  it('refuses an upload without a file, and one over the size limit, creating no job', async () => {
    const before = (await ctx.db.select().from(importJobs)).length;
    const noFile = await ctx.app.inject({
      method: 'POST',
      url: '/api/clients/cap/import',
      headers: { ...f.asSuperadmin, 'content-type': 'application/json' },
      payload: {},
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().errorCode).toBe('VALIDATION_ERROR');
    const tooBig = await upload(Buffer.alloc(MAX_IMPORT_FILE_BYTES + 10, 'a'));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().errorCode).toBe('PAYLOAD_TOO_LARGE');
    expect((await ctx.db.select().from(importJobs)).length).toBe(before);
  });

  it('is for superadmins only', async () => {
    expect((await upload('cap_id,name,status\nA,b,c\n', f.asAdminA)).statusCode).toBe(403);
    const latest = await ctx.app.inject({ method: 'GET', url: '/api/clients/cap/import', headers: f.asAdminA });
    expect(latest.statusCode).toBe(403);
  });

  it('runs again a job whose worker died, once, and records the request that queued it', async () => {
    const queued = (await upload('cap_id,name,status\nCAP-901,Found,Active\n')).json();
    // A worker claims the job, then its process dies before it writes: the lease runs out.
    const [claimed] = await ctx.db
      .update(importJobs)
      .set({ state: 'RUNNING', attempts: 1, leaseUntil: new Date(ctx.clock.now().getTime() - 1000) })
      .where(eq(importJobs.id, queued.id))
      .returning();
    expect(claimed!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await ctx.app.imports.recoverAbandoned()).toEqual({ requeued: 1, failed: 0 });
    expect(await ctx.app.imports.runPending()).toBe(1);
    const [row] = await ctx.db.select().from(importJobs).where(eq(importJobs.id, queued.id));
    expect(row).toMatchObject({ state: 'COMPLETE', attempts: 2, processedRows: 1 });
    expect((await status('CAP-901', f.asSuperadmin)).statusCode).toBe(200);
  });

  it('ends a job in ERROR, with nothing imported, once it has killed its process IMPORT_MAX_ATTEMPTS times', async () => {
    const queued = (await upload('cap_id,name,status\nCAP-900,Lost,Active\n')).json();
    await ctx.db
      .update(importJobs)
      .set({ state: 'RUNNING', attempts: 3, leaseUntil: new Date(ctx.clock.now().getTime() - 1000) })
      .where(eq(importJobs.id, queued.id));
    expect(await ctx.app.imports.recoverAbandoned()).toEqual({ requeued: 0, failed: 1 });
    const latest = await ctx.app.inject({ method: 'GET', url: '/api/clients/cap/import', headers: f.asSuperadmin });
    expect(latest.json()).toMatchObject({ id: queued.id, state: 'ERROR', errors: [{ errorCode: 'IMPORT_FAILED' }] });
    expect((await status('CAP-900')).statusCode).toBe(404);
  });
});

describe('CAP status for client administrators', () => {
  it("answers 404 to a client administrator for any entry but their own client's; a superadmin sees all", async () => {
    await ctx.app.inject({
      method: 'PUT',
      url: `/api/clients/${f.clientB.id}`,
      headers: f.asSuperadmin,
      payload: { name: 'Bravo Medical', cap_id: 'CAP-500' },
    });
    const job = await importAndRun(
      'cap_id,name,status\nCAP-100,Alpha Health,Active\nCAP-500,Bravo Medical,Active\nCAP-600,Nobody Yet,Lapsed\n',
    );
    expect(job.state).toBe('COMPLETE');
    const notFound = { errorCode: 'CAP_CLIENT_NOT_FOUND', message: 'No CAP client exists with this CAP ID.' };

    // Another client's entry, or one no client holds, reads as not on the roster: no id, no name.
    for (const capId of ['CAP-500', 'cap-500', 'CAP-600']) {
      const refused = await status(capId, f.asAdminA);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual(notFound);
    }
    expect((await status('CAP-100', f.asAdminA)).json()).toMatchObject({ client_id: f.clientA.id });
    expect((await status('CAP-500', f.asAdminB)).json()).toMatchObject({ client_id: f.clientB.id });
    expect((await status('CAP-100', f.asAdminB)).statusCode).toBe(404);
    for (const capId of ['CAP-100', 'CAP-500', 'CAP-600']) {
      expect((await status(capId, f.asSuperadmin)).statusCode).toBe(200);
    }
  });
});
