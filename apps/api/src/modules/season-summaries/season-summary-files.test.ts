import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MAX_SUMMARY_SHEET_BYTES, type SeasonSummary, type SeasonSummaryOfSeason } from '@pss/contract';
import { seasonSummaries } from '../../db/schema/index.js';
import { expectError, fieldsOf } from '../../../test/kit.js';
import { summarySetup } from '../../../test/summary-calls.js';
import { smallDocx, smallPdf, smallXlsx, videoHead } from '../../../test/summary-files.js';

const { call, ctx, f, getSummary, savedSummary, saveSummary, summaryBody, upload, work } = summarySetup();

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Where the summary's stored file is on disk (null when it has none). */
async function storedPath(id: string, kind: 'sheet' | 'video'): Promise<string | null> {
  const [row] = await ctx.db.select().from(seasonSummaries).where(eq(seasonSummaries.id, id));
  const file = row?.[kind];
  return file ? path.join(ctx.config.dataDir, 'files', file.key) : null;
}

const summaryOf = async (projectId: string) => (await getSummary(projectId)).json<SeasonSummaryOfSeason>().summary;

describe('the sheet', () => {
  it('takes a PDF by its content and serves the same bytes as an attachment of its true type', async () => {
    const p = await work.project(f.clientA.id);
    const summary = await savedSummary(p.id);
    const pdf = smallPdf();
    const uploaded = await upload(summary.id, 'sheet', pdf, 'Spring results.pdf');
    expect(uploaded.statusCode).toBe(200);
    expect(uploaded.json<SeasonSummary>().sheet).toEqual({
      file_name: 'Spring results.pdf',
      content_type: 'application/pdf',
      bytes: pdf.length,
    });

    const sheet = await call('GET', `/season-summaries/${summary.id}/sheet`);
    expect(sheet.statusCode).toBe(200);
    expect(sheet.headers['content-type']).toBe('application/pdf');
    expect(sheet.headers['x-content-type-options']).toBe('nosniff');
    expect(sheet.headers['content-disposition']).toBe(
      `attachment; filename="Spring results.pdf"; filename*=UTF-8''Spring%20results.pdf`,
    );
    expect(sheet.rawPayload.equals(pdf)).toBe(true);
  });

  it('takes an XLSX whatever its name, giving it the right extension and removing the sheet it replaces', async () => {
    const p = await work.project(f.clientA.id);
    const summary = await savedSummary(p.id);
    expect((await upload(summary.id, 'sheet', smallPdf(), 'first.pdf')).statusCode).toBe(200);
    const first = (await storedPath(summary.id, 'sheet'))!;
    expect(existsSync(first)).toBe(true);

    const xlsx = smallXlsx();
    const uploaded = await upload(summary.id, 'sheet', xlsx, 'résultats');
    expect(uploaded.json<SeasonSummary>().sheet).toEqual({
      file_name: 'résultats.xlsx',
      content_type: XLSX,
      bytes: xlsx.length,
    });
    expect(existsSync(first)).toBe(false);
    const sheet = await call('GET', `/season-summaries/${summary.id}/sheet`);
    expect(sheet.headers['content-type']).toBe(XLSX);
    expect(sheet.headers['content-disposition']).toBe(
      `attachment; filename="r_sultats.xlsx"; filename*=UTF-8''r%C3%A9sultats.xlsx`,
    );
    expect(sheet.rawPayload.equals(xlsx)).toBe(true);
  });

  it('refuses a text file renamed .pdf, a Word document, an oversized file and no file, keeping the sheet', async () => {
    const p = await work.project(f.clientA.id);
    const summary = await savedSummary(p.id);
    const pdf = smallPdf();
    expect((await upload(summary.id, 'sheet', pdf, 'results.pdf')).statusCode).toBe(200);
    const before = await summaryOf(p.id);
    const kept = (await storedPath(summary.id, 'sheet'))!;

    for (const [content, name] of [
      ['Completion: 82%\nScore: 74\n', 'results.pdf'],
      [smallDocx(), 'results.xlsx'],
      [videoHead('mp4'), 'results.pdf'],
    ] as const) {
      const refused = await upload(summary.id, 'sheet', content, name);
      expectError(refused, 400, 'VALIDATION_ERROR');
      expect(fieldsOf(refused)).toEqual(['body.file']);
    }
    const big = Buffer.concat([pdf, Buffer.alloc(MAX_SUMMARY_SHEET_BYTES)]);
    expectError(await upload(summary.id, 'sheet', big, 'big.pdf'), 413, 'PAYLOAD_TOO_LARGE');
    const json = await call('POST', `/season-summaries/${summary.id}/sheet`, { payload: { file: 'x' } });
    expectError(json, 400, 'VALIDATION_ERROR');

    expect(await summaryOf(p.id)).toEqual(before);
    expect(existsSync(kept)).toBe(true);
    expect((await call('GET', `/season-summaries/${summary.id}/sheet`)).rawPayload.equals(pdf)).toBe(true);
  });

  it('is removed with its file; a summary without one has no sheet to get', async () => {
    const p = await work.project(f.clientA.id);
    const summary = await savedSummary(p.id);
    expectError(await call('GET', `/season-summaries/${summary.id}/sheet`), 404, 'NOT_FOUND');
    expect((await upload(summary.id, 'sheet', smallPdf(), 'results.pdf')).statusCode).toBe(200);
    const stored = (await storedPath(summary.id, 'sheet'))!;
    const removed = await call('DELETE', `/season-summaries/${summary.id}/sheet`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json<SeasonSummary>().sheet).toBeNull();
    expect(existsSync(stored)).toBe(false);
    expectError(await call('GET', `/season-summaries/${summary.id}/sheet`), 404, 'NOT_FOUND');
    // Removing what is not there is no error.
    expect((await call('DELETE', `/season-summaries/${summary.id}/sheet`)).statusCode).toBe(200);
  });

  it('needs a summary: an id that names none is not found and keeps no file', async () => {
    const p = await work.project(f.clientA.id);
    expectError(await upload(p.id, 'sheet', smallPdf(), 'results.pdf'), 404, 'NOT_FOUND');
    expectError(await upload('not-an-id', 'sheet', smallPdf(), 'results.pdf'), 400, 'VALIDATION_ERROR');
  });
});

describe('the video', () => {
  it('takes an MP4 or a MOV by content and serves it with its type', async () => {
    const p = await work.project(f.clientA.id);
    const summary = await savedSummary(p.id);
    const mov = videoHead('mov', 4096);
    const uploaded = await upload(summary.id, 'video', mov, 'message.MOV');
    expect(uploaded.json<SeasonSummary>().video).toEqual({
      file_name: 'message.MOV',
      content_type: 'video/quicktime',
      bytes: mov.length,
    });
    const mp4 = videoHead('mp4', 4096);
    expect((await upload(summary.id, 'video', mp4, 'message')).json<SeasonSummary>().video).toMatchObject({
      file_name: 'message.mp4',
      content_type: 'video/mp4',
    });
    const video = await call('GET', `/season-summaries/${summary.id}/video`);
    expect(video.headers['content-type']).toBe('video/mp4');
    expect(video.headers['x-content-type-options']).toBe('nosniff');
    expect(video.rawPayload.equals(mp4)).toBe(true);
  });

  it('refuses what is not a video, and is one video: an upload or a link, never both', async () => {
    const p = await work.project(f.clientA.id);
    const summary = await savedSummary(p.id, summaryBody({ video_url: 'https://videos.example.org/s' }));
    const refused = await upload(summary.id, 'video', videoHead('mp4'), 'message.mp4');
    expectError(refused, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(refused)).toEqual(['body.file']);

    expect((await saveSummary(p.id, summaryBody({ video_url: null }))).statusCode).toBe(200);
    expectError(await upload(summary.id, 'video', smallPdf(), 'message.mp4'), 400, 'VALIDATION_ERROR');
    expect((await upload(summary.id, 'video', videoHead('mp4'), 'message.mp4')).statusCode).toBe(200);
    const before = await summaryOf(p.id);
    const link = await saveSummary(p.id, summaryBody({ title: 'Changed', video_url: 'https://videos.example.org/s' }));
    expectError(link, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(link)).toEqual(['body.video_url']);
    expect(await summaryOf(p.id)).toEqual(before);

    // Without the uploaded video the link is taken.
    expect((await call('DELETE', `/season-summaries/${summary.id}/video`)).json<SeasonSummary>().video).toBeNull();
    expect((await saveSummary(p.id, summaryBody({ video_url: 'https://videos.example.org/s' }))).statusCode).toBe(200);
  });
});
