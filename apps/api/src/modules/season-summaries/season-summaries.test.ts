import { describe, expect, it } from 'vitest';
import type { SeasonSummary, SeasonSummaryOfSeason } from '@pss/contract';
import { expectError, fieldsOf } from '../../../test/kit.js';
import { summarySetup } from '../../../test/summary-calls.js';
import { smallPdf } from '../../../test/summary-files.js';

const { call, ctx, f, getSummary, savedSummary, saveSummary, seasonProject, setStatus, summaryBody, upload, work } =
  summarySetup();

describe('writing a season’s results summary', () => {
  it('answers the season with no summary until one is saved, then the summary as saved', async () => {
    const p = await work.project(f.clientA.id);
    const before = await getSummary(p.id, f.asAdminA, 'spring 2026');
    expect(before.statusCode).toBe(200);
    expect(before.json<SeasonSummaryOfSeason>()).toEqual({
      season_id: p.seasonId,
      season_name: 'Spring 2026',
      summary: null,
    });

    const saved = await saveSummary(p.id);
    expect(saved.statusCode).toBe(200);
    const summary = saved.json<SeasonSummary>();
    expect(summary).toMatchObject({
      project_id: p.id,
      season_id: p.seasonId,
      season_name: 'Spring 2026',
      title: 'What Spring 2026 found',
      description: '<p>Most of you ordered an <strong>ECG</strong> first.</p>',
      greeting: 'Thank you for taking part this season.',
      video_url: null,
      sheet: null,
      video: null,
      status: 'DRAFT',
      posted_at: null,
    });
    const read = (await getSummary(p.id)).json<SeasonSummaryOfSeason>();
    expect(read.summary).toEqual(summary);
  });

  it('saves again into the same summary, sanitising the description and keeping status and files', async () => {
    const p = await work.project(f.clientA.id);
    const first = await savedSummary(p.id);
    expect((await upload(first.id, 'sheet', smallPdf(), 'results.pdf')).statusCode).toBe(200);
    expect((await setStatus(first.id, 'POSTED')).statusCode).toBe(200);

    const again = await saveSummary(
      p.id,
      summaryBody({
        title: '  Spring 2026: the results  ',
        description: '<p onclick="steal()">Read <a href="javascript:alert(1)">this</a><script>alert(1)</script></p>',
        greeting: 'See you in the autumn.',
        video_url: 'https://videos.example.org/spring-2026',
      }),
    );
    expect(again.statusCode).toBe(200);
    const summary = again.json<SeasonSummary>();
    expect(summary.id).toBe(first.id);
    expect(summary).toMatchObject({
      title: 'Spring 2026: the results',
      description: '<p>Read <a target="_blank" rel="noopener noreferrer">this</a></p>',
      greeting: 'See you in the autumn.',
      video_url: 'https://videos.example.org/spring-2026',
      status: 'POSTED',
      sheet: { file_name: 'results.pdf', content_type: 'application/pdf' },
    });
    // A link taken out again is null.
    expect((await saveSummary(p.id, summaryBody({ video_url: '' }))).json<SeasonSummary>().video_url).toBeNull();
  });

  it('refuses a summary without a title, a bad link and an unknown field, changing nothing', async () => {
    const p = await work.project(f.clientA.id);
    const saved = await savedSummary(p.id);

    for (const [body, field] of [
      [{ ...summaryBody(), title: '   ' }, 'body.title'],
      [{ description: '<p>No title</p>' }, 'body.title'],
      [summaryBody({ title: 'x'.repeat(201) }), 'body.title'],
      [summaryBody({ video_url: 'javascript:alert(1)' }), 'body.video_url'],
      [summaryBody({ video_url: 'not a link' }), 'body.video_url'],
      [{ ...summaryBody(), status: 'POSTED' }, 'body'],
    ] as const) {
      const refused = await saveSummary(p.id, body);
      expectError(refused, 400, 'VALIDATION_ERROR');
      expect(fieldsOf(refused)).toEqual([field]);
    }
    const missingTitle = await saveSummary(p.id, { greeting: 'Hello' });
    expect(missingTitle.json().details?.fields?.[0]).toMatchObject({ field: 'body.title' });
    expect((await getSummary(p.id)).json<SeasonSummaryOfSeason>().summary).toEqual(saved);
  });

  it('needs a season the project has: an unknown one, or none named, is refused and nothing is made', async () => {
    const p = await work.project(f.clientA.id);
    expectError(await getSummary(p.id, f.asAdminA, 'Autumn 2031'), 404, 'NOT_FOUND');
    expectError(await saveSummary(p.id, summaryBody(), f.asAdminA, 'Autumn 2031'), 404, 'NOT_FOUND');
    const unnamed = await call('POST', `/projects/${p.id}/season-summary`, { payload: summaryBody() });
    expectError(unnamed, 400, 'REQUIRED_PARAMETER_MISSING');
    expect(fieldsOf(unnamed)).toEqual(['querystring.seasonName']);
    expect((await getSummary(p.id)).json<SeasonSummaryOfSeason>().summary).toBeNull();
  });

  it('keeps each season’s summary its own', async () => {
    const p = await work.project(f.clientA.id, {
      seasons: [
        { name: 'Spring 2026', rounds: [{ number: 1, start_date: '2026-03-01', end_date: '2026-03-14' }] },
        { name: 'Autumn 2026', rounds: [{ number: 1, start_date: '2026-09-01', end_date: '2026-09-14' }] },
      ],
    });
    const spring = await savedSummary(p.id);
    const autumn = await saveSummary(p.id, summaryBody({ title: 'Autumn' }), f.asAdminA, 'Autumn 2026');
    expect(autumn.json<SeasonSummary>().id).not.toBe(spring.id);
    expect((await getSummary(p.id)).json<SeasonSummaryOfSeason>().summary?.title).toBe(spring.title);
  });
});

describe('posting and taking down', () => {
  it('posts a draft, keeps the first posting time when posted again, and takes it down', async () => {
    const p = await work.project(f.clientA.id);
    const draft = await savedSummary(p.id);
    const posted = await setStatus(draft.id, 'POSTED');
    expect(posted.statusCode).toBe(200);
    const postedAt = posted.json<SeasonSummary>().posted_at;
    expect(posted.json<SeasonSummary>()).toMatchObject({ id: draft.id, status: 'POSTED' });
    expect(postedAt).toBe('2026-03-02T09:00:00.000Z');
    ctx.clock.advance(60_000);
    try {
      expect((await setStatus(draft.id, 'POSTED')).json<SeasonSummary>().posted_at).toBe(postedAt);
    } finally {
      ctx.clock.advance(-60_000);
    }

    const down = await setStatus(draft.id, 'DRAFT');
    expect(down.json<SeasonSummary>()).toMatchObject({ status: 'DRAFT', posted_at: null });
    expect((await getSummary(p.id)).json<SeasonSummaryOfSeason>().summary?.status).toBe('DRAFT');
  });

  it('refuses a status that is not DRAFT or POSTED, and an id that is no summary', async () => {
    const p = await work.project(f.clientA.id);
    const draft = await savedSummary(p.id);
    for (const status of ['PUBLISHED', 'posted', '', null]) {
      const refused = await setStatus(draft.id, status as string);
      expectError(refused, 400, 'VALIDATION_ERROR');
      expect(fieldsOf(refused)).toEqual(['body.status']);
    }
    expectError(await call('POST', `/projects/${draft.id}/status`, { payload: {} }), 400, 'VALIDATION_ERROR');
    // The project's own id names no summary.
    expectError(await setStatus(p.id, 'POSTED'), 404, 'NOT_FOUND');
    expect((await getSummary(p.id)).json<SeasonSummaryOfSeason>().summary).toEqual(draft);
  });
});

describe('another client’s administrator', () => {
  it('is told the project or summary is not found, and changes nothing', async () => {
    const p = await seasonProject(f.clientA.id);
    const summary = await savedSummary(p.id);
    expect((await upload(summary.id, 'sheet', smallPdf(), 'results.pdf')).statusCode).toBe(200);
    const before = (await getSummary(p.id)).json<SeasonSummaryOfSeason>();

    expectError(await getSummary(p.id, f.asAdminB), 404, 'PROJECT_NOT_FOUND');
    expectError(await saveSummary(p.id, summaryBody({ title: 'Taken over' }), f.asAdminB), 404, 'PROJECT_NOT_FOUND');
    expectError(await setStatus(summary.id, 'POSTED', f.asAdminB), 404, 'NOT_FOUND');
    expectError(await upload(summary.id, 'sheet', smallPdf('other'), 'other.pdf', f.asAdminB), 404, 'NOT_FOUND');
    for (const kind of ['sheet', 'video']) {
      expectError(
        await call('GET', `/season-summaries/${summary.id}/${kind}`, { headers: f.asAdminB }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await call('DELETE', `/season-summaries/${summary.id}/${kind}`, { headers: f.asAdminB }),
        404,
        'NOT_FOUND',
      );
    }
    expect((await getSummary(p.id)).json<SeasonSummaryOfSeason>()).toEqual(before);
    const sheet = await call('GET', `/season-summaries/${summary.id}/sheet`);
    expect(sheet.rawPayload.equals(smallPdf())).toBe(true);

    // Client B's own project is theirs to summarise; client A's administrator cannot see it.
    const theirs = await work.project(f.clientB.id);
    expect((await saveSummary(theirs.id, summaryBody(), f.asAdminB)).statusCode).toBe(200);
    expectError(await getSummary(theirs.id, f.asAdminA), 404, 'PROJECT_NOT_FOUND');
  });

  it('is refused to participants and to callers without a session', async () => {
    const p = await seasonProject(f.clientA.id);
    const participant = await work.enrol(p, f.clientA.id);
    const summary = await savedSummary(p.id);
    expectError(await getSummary(p.id, await work.as(participant)), 403, 'FORBIDDEN');
    expectError(await setStatus(summary.id, 'POSTED', await work.as(participant)), 403, 'FORBIDDEN');
    expectError(await getSummary(p.id, {}), 401, 'NOT_AUTHORIZED');
  });
});
