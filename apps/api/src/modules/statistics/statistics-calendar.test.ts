import { describe, expect, it } from 'vitest';
import type { Paged, ParticipantStatistics } from '@pss/contract';
import { call, expectError, fieldIssues, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { projectBody } from '../../../test/fixtures.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

/**
 * The statistics count days where the schedule does (SCHEDULE_TIME_ZONE), and answer the
 * participants' figures for the project's default season when no season is named.
 */
const { ctx, f } = twoClientsContext({
  now: '2026-03-10T12:00:00Z',
  env: { SCHEDULE_TIME_ZONE: 'America/Chicago' },
});
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
// Users, not bearer headers made once: signed in again after a test moves the clock.
const adminA = madeBefore(() => createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id }));
const adminB = madeBefore(() => createUser(ctx.db, { role: 'ADMIN', clientId: f.clientB.id }));
const work = participantWork(ctx, staff);

describe('statistics on the schedule’s calendar', () => {
  it('counts a completion on the day it was made in the schedule’s time zone, as the emails do', async () => {
    const p = await work.project(f.clientA.id);
    const doc = await work.publishedCase(p, 1, { name: 'Evening case' });
    const participant = await work.enrol(p, f.clientA.id);
    // 9 pm in Chicago on 12 March is 03:00 on 13 March in UTC.
    ctx.clock.set('2026-03-13T03:00:00Z');
    await work.complete(participant, doc);
    ctx.clock.set('2026-03-13T15:00:00Z');
    const reply = await call(ctx, 'GET', `/statistics/${p.id}/completions-by-day?seasonName=Spring%202026`, adminA);
    expect(reply.statusCode, reply.body).toBe(200);
    const days = reply.json<{ items: { date: string; completed: number }[] }>().items;
    expect(days.at(-1)!.date).toBe('2026-03-13');
    expect(days.filter((d) => d.completed > 0)).toEqual([{ date: '2026-03-12', completed: 1 }]);
  });

  it('answers the participants of the default season when seasonName is left out, as the spec lists the call', async () => {
    ctx.clock.set('2026-03-10T12:00:00Z');
    const p = await work.project(f.clientA.id, {
      seasons: [
        { name: 'Winter 2026', rounds: [{ number: 1, start_date: '2026-01-05', end_date: '2026-01-30' }] },
        { name: 'Spring 2026', rounds: [{ number: 1, start_date: '2026-03-01', end_date: '2026-03-31' }] },
      ],
    });
    await work.publishedCase(p, 1, { name: 'Winter case' });
    await work.enrol(p, f.clientA.id);
    const named = await call(ctx, 'GET', `/statistics/${p.id}/participants?seasonName=Spring%202026`, adminA);
    const unnamed = await call(ctx, 'GET', `/statistics/${p.id}/participants`, adminA);
    expect(unnamed.statusCode, unnamed.body).toBe(200);
    // The running season (Spring), not the first: nobody is assigned to it.
    expect(unnamed.json<Paged<ParticipantStatistics>>()).toEqual(named.json<Paged<ParticipantStatistics>>());
    expect(unnamed.json<Paged<ParticipantStatistics>>().total).toBe(0);
    const winter = await call(ctx, 'GET', `/statistics/${p.id}/participants?seasonName=Winter%202026`, adminA);
    expect(winter.json<Paged<ParticipantStatistics>>().total).toBe(1);

    // Still refused: another client's administrator, a blank season name, a season the project lacks.
    expectError(await call(ctx, 'GET', `/statistics/${p.id}/participants`, adminB), 404, 'PROJECT_NOT_FOUND');
    const blank = await call(ctx, 'GET', `/statistics/${p.id}/participants?seasonName=%20`, adminA);
    expectError(blank, 400, 'VALIDATION_ERROR');
    expect(fieldIssues(blank)).toMatchObject([{ field: 'querystring.seasonName', errorCode: 'BLANK_TEXT' }]);
    expectError(await call(ctx, 'GET', `/statistics/${p.id}/participants?seasonName=Autumn`, adminA), 404, 'NOT_FOUND');
  });

  it('is NOT_FOUND for a project with no season to default to', async () => {
    const created = await call(ctx, 'POST', '/projects', staff, projectBody(f.clientA.id, { seasons: [] }));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: string }>().id;
    expectError(await call(ctx, 'GET', `/statistics/${id}/participants`, adminA), 404, 'NOT_FOUND');
  });
});
