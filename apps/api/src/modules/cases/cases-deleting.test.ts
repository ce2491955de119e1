import { describe, expect, it } from 'vitest';
import { expectError, fieldsOf, filterQuery } from '../../../test/kit.js';
import { casesSetup } from '../../../test/case-calls.js';

const { call, projectA, createCase, getCase, setStatus, listNames, caseCount, assignParticipant } = casesSetup();

describe('deleting cases', () => {
  it('deletes one case', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    const response = await call('DELETE', `/cases/${doc.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ids: [doc.id] });
    expectError(await call('GET', `/cases/${doc.id}`), 404, 'CASE_NOT_FOUND');
    expectError(await call('DELETE', `/cases/${doc.id}`), 404, 'CASE_NOT_FOUND');
  });

  it('deletes chosen cases, or all but some', async () => {
    const p = await projectA();
    const [a, b, c, d, e] = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((name) => createCase(p, { name })));
    const chosen = await call('DELETE', `/cases/${a!.id}?${filterQuery({ ids: [b!.id] })}`);
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json<{ ids: string[] }>().ids.sort()).toEqual([a!.id, b!.id].sort());
    expect(await listNames(p.id)).toEqual(['C', 'D', 'E']);

    const allBut = await call('DELETE', `/cases/${c!.id}?${filterQuery({ all: true, except: [e!.id] })}`);
    expect(allBut.statusCode).toBe(200);
    expect(allBut.json<{ ids: string[] }>().ids.sort()).toEqual([c!.id, d!.id].sort());
    expect(await listNames(p.id)).toEqual(['E']);
  });

  it('refuses a selection reaching into another project, and deletes nothing', async () => {
    const p = await projectA();
    const q = await projectA();
    const mine = await createCase(p);
    const theirs = await createCase(q);
    const response = await call('DELETE', `/cases/${mine.id}?${filterQuery({ ids: [theirs.id] })}`);
    expectError(response, 400, 'CASES_FROM_WRONG_PROJECT');
    expect(response.json<{ details: { case_ids: string[] } }>().details.case_ids).toEqual([theirs.id]);
    expect((await call('GET', `/cases/${mine.id}`)).statusCode).toBe(200);
    expect((await call('GET', `/cases/${theirs.id}`)).statusCode).toBe(200);
  });

  it('refuses cases whose round has participants, even in a bulk delete, and deletes nothing', async () => {
    const p = await projectA();
    const spring = p.seasons['Spring 2026']!;
    await assignParticipant(p.id, spring, 2, 3);
    const taken = await createCase(p, { name: 'Taken', season_id: spring, round_number: 2 });
    const outside = await createCase(p, { name: 'Round 4', season_id: spring, round_number: 4 });
    const free = await createCase(p, { name: 'Free' });
    expect((await call('GET', `/cases/${taken.id}/count`)).json()).toMatchObject({ participants: 1 });
    expect((await call('GET', `/cases/${outside.id}/count`)).json()).toMatchObject({ participants: 0 });

    const before = await caseCount();
    expectError(await call('DELETE', `/cases/${taken.id}`), 409, 'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN');
    const bulk = await call('DELETE', `/cases/${free.id}?${filterQuery({ ids: [outside.id, taken.id] })}`);
    expectError(bulk, 409, 'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN');
    expect(bulk.json<{ details: { case_ids: string[] } }>().details.case_ids).toEqual([taken.id]);
    const all = await call('DELETE', `/cases/${free.id}?${filterQuery({ all: true })}`);
    expectError(all, 409, 'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN');
    expectError(await call('POST', `/cases/${taken.id}/remove-project`), 409, 'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN');
    expect(await caseCount()).toBe(before);
    expect(await listNames(p.id)).toEqual(['Free', 'Round 4', 'Taken']);

    // The round nobody takes may go.
    expect((await call('DELETE', `/cases/${outside.id}`)).statusCode).toBe(200);
  });

  it('refuses an active case', async () => {
    const p = await projectA();
    const active = await createCase(p, { season_id: p.seasons['Spring 2026']!, round_number: 1 });
    expect((await setStatus(active.id, 'PUBLISHED')).json()).toMatchObject({ status: 'ACTIVE' });
    expectError(await call('DELETE', `/cases/${active.id}`), 403, 'CHANGES_FORBIDDEN');
    expect((await getCase(active.id)).status).toBe('ACTIVE');
  });

  it('takes a case out of its project', async () => {
    const p = await projectA();
    const doc = await createCase(p);
    const response = await call('POST', `/cases/${doc.id}/remove-project`);
    expect(response.statusCode).toBe(204);
    expect(response.rawPayload).toHaveLength(0);
    expectError(await call('GET', `/cases/${doc.id}`), 404, 'CASE_NOT_FOUND');
    expect(await listNames(p.id)).toEqual([]);
  });

  it.each([
    ['not JSON', 'filter=%7Bids'],
    ['neither ids nor all', filterQuery({ some: true })],
    ['ids that are not uuids', filterQuery({ ids: ['x'] })],
    ['an empty id list', filterQuery({ ids: [] })],
    ['all: false', filterQuery({ all: false })],
  ])('refuses a filter that is %s, and deletes nothing', async (_label, query) => {
    const p = await projectA();
    const doc = await createCase(p);
    const response = await call('DELETE', `/cases/${doc.id}?${query}`);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(response)).toEqual(['querystring.filter']);
    expect((await call('GET', `/cases/${doc.id}`)).statusCode).toBe(200);
  });
});

/* ---------- 9. the patient image ---------- */
