import { describe, expect, it } from 'vitest';
import { expectError } from '../../../test/kit.js';
import { summarySetup } from '../../../test/summary-calls.js';
import { smallPdf, videoHead } from '../../../test/summary-files.js';

const { completeCase, f, postedOn, savedSummary, saveSummary, seasonProject, setStatus, summaryBody, upload, work } =
  summarySetup();

/**
 * A project whose Spring 2026 has one case in Round 1, and three of its participants: one
 * who completed it, one half-way through it, and one who has not begun.
 */
async function seasonWithParticipants() {
  const p = await seasonProject(f.clientA.id);
  const done = await work.enrol(p, f.clientA.id);
  const halfway = await work.enrol(p, f.clientA.id);
  const idle = await work.enrol(p, f.clientA.id);
  await completeCase(done, p.doc);
  const attempt = await work.attemptOf(halfway, p.doc.name);
  const first = await work.firstQuestion(halfway, attempt);
  await work.call('POST', `/cases/${attempt}/answer`, halfway, {
    question_id: first.questionId,
    choice_ids: [first.right],
  });
  return { p, done, halfway, idle };
}

const fileOf = (user: Parameters<typeof work.call>[2], id: string, kind: 'sheet' | 'video') =>
  work.call('GET', `/dashboard/season-summaries/${id}/${kind}`, user);

describe('a posted summary on participants’ dashboards', () => {
  it('shows only to those who completed the season, once posted, and goes when taken down', async () => {
    const { p, done, halfway, idle } = await seasonWithParticipants();
    const summary = await savedSummary(p.id);
    expect((await upload(summary.id, 'sheet', smallPdf(), 'results.pdf')).statusCode).toBe(200);

    // A draft is shown to nobody.
    expect(await postedOn(done, p.id)).toEqual([]);

    const posted = await setStatus(summary.id, 'POSTED');
    expect(posted.statusCode).toBe(200);
    expect(await postedOn(done, p.id)).toEqual([
      {
        id: summary.id,
        season_name: 'Spring 2026',
        title: 'What Spring 2026 found',
        description: '<p>Most of you ordered an <strong>ECG</strong> first.</p>',
        greeting: 'Thank you for taking part this season.',
        video_url: null,
        sheet: { file_name: 'results.pdf', content_type: 'application/pdf', bytes: smallPdf().length },
        video: null,
        posted_at: '2026-03-02T09:00:00.000Z',
      },
    ]);
    expect(await postedOn(halfway, p.id)).toEqual([]);
    expect(await postedOn(idle, p.id)).toEqual([]);

    // Edits to a posted summary show at once.
    expect((await saveSummary(p.id, summaryBody({ title: 'Spring, revised' }))).statusCode).toBe(200);
    expect((await postedOn(done, p.id))[0]?.title).toBe('Spring, revised');

    const down = await setStatus(summary.id, 'DRAFT');
    expect(down.statusCode).toBe(200);
    expect(await postedOn(done, p.id)).toEqual([]);
    expectError(await fileOf(done, summary.id, 'sheet'), 404, 'NOT_FOUND');
  });

  it('reaches a participant who completes the season after it was posted', async () => {
    const { p, halfway } = await seasonWithParticipants();
    const summary = await savedSummary(p.id);
    await setStatus(summary.id, 'POSTED');
    expect(await postedOn(halfway, p.id)).toEqual([]);
    await completeCase(halfway, p.doc);
    expect((await postedOn(halfway, p.id)).map((s) => s.id)).toEqual([summary.id]);
  });

  it('leaves a participant whose season gained a case they have not taken until they take it', async () => {
    const { p, done } = await seasonWithParticipants();
    const summary = await savedSummary(p.id);
    expect((await upload(summary.id, 'sheet', smallPdf(), 'results.pdf')).statusCode).toBe(200);
    await setStatus(summary.id, 'POSTED');
    expect(await postedOn(done, p.id)).toHaveLength(1);

    const later = await work.publishedCase(p, 1, { name: 'A later case' });
    // The file call finds the new case too, before the dashboard has been read.
    expectError(await fileOf(done, summary.id, 'sheet'), 404, 'NOT_FOUND');
    expect(await postedOn(done, p.id)).toEqual([]);
    await completeCase(done, later);
    expect(await postedOn(done, p.id)).toHaveLength(1);
  });
});

describe('a participant’s summary files', () => {
  it('are theirs to download when they completed the season, with the true type', async () => {
    const { p, done, halfway } = await seasonWithParticipants();
    const summary = await savedSummary(p.id);
    const pdf = smallPdf();
    const mp4 = videoHead('mp4', 2048);
    expect((await upload(summary.id, 'sheet', pdf, 'results.pdf')).statusCode).toBe(200);
    expect((await upload(summary.id, 'video', mp4, 'thanks.mp4')).statusCode).toBe(200);
    // Not while it is a draft.
    expectError(await fileOf(done, summary.id, 'sheet'), 404, 'NOT_FOUND');
    await setStatus(summary.id, 'POSTED');

    const sheet = await fileOf(done, summary.id, 'sheet');
    expect(sheet.statusCode).toBe(200);
    expect(sheet.headers['content-type']).toBe('application/pdf');
    expect(sheet.headers['x-content-type-options']).toBe('nosniff');
    expect(String(sheet.headers['content-disposition'])).toMatch(/^attachment; filename="results.pdf"/);
    expect(sheet.rawPayload.equals(pdf)).toBe(true);
    const video = await fileOf(done, summary.id, 'video');
    expect(video.headers['content-type']).toBe('video/mp4');
    expect(video.rawPayload.equals(mp4)).toBe(true);

    expectError(await fileOf(halfway, summary.id, 'sheet'), 404, 'NOT_FOUND');
    expectError(await fileOf(halfway, summary.id, 'video'), 404, 'NOT_FOUND');
  });

  it('never reach a participant of another project, nor staff through the participants’ call', async () => {
    const { p, done } = await seasonWithParticipants();
    const summary = await savedSummary(p.id);
    expect((await upload(summary.id, 'sheet', smallPdf(), 'results.pdf')).statusCode).toBe(200);
    await setStatus(summary.id, 'POSTED');

    // Someone who completed the same-named season of another project of the same client.
    const other = await seasonProject(f.clientA.id);
    const elsewhere = await work.enrol(other, f.clientA.id);
    await completeCase(elsewhere, other.doc);
    const theirs = await savedSummary(other.id, summaryBody({ title: 'The other project' }));
    await setStatus(theirs.id, 'POSTED');

    expectError(await fileOf(elsewhere, summary.id, 'sheet'), 404, 'NOT_FOUND');
    expect(await postedOn(elsewhere, p.id)).toEqual([]);
    expect((await postedOn(elsewhere, other.id)).map((s) => s.title)).toEqual(['The other project']);
    expect((await postedOn(done, p.id)).map((s) => s.title)).toEqual(['What Spring 2026 found']);
    // A summary without a video has none to give.
    expectError(await fileOf(done, summary.id, 'video'), 404, 'NOT_FOUND');

    const staff = await work.call('GET', `/dashboard/season-summaries/${summary.id}/sheet`);
    expectError(staff, 403, 'FORBIDDEN');
  });
});
