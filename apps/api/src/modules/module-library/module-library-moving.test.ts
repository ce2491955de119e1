import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { type CaseDocument } from '@pss/contract';
import { participantAssignments, projectParticipants } from '../../db/schema/index.js';
import { createUser } from '../../../test/test-app.js';
import { projectBody, type Headers } from '../../../test/fixtures.js';
import { expectError, filterQuery } from '../../../test/kit.js';
import { ids, names } from '../../../test/library-calls.js';
import { librarySetup } from '../../../test/library-calls.js';

const {
  ctx,
  f,
  call,
  projectA,
  newModule,
  createModuleCase,
  createProjectCase,
  getCase,
  setStatus,
  projectCases,
  moduleCases,
  caseCount,
} = librarySetup();

/* ---------- 6. removing cases from a module ---------- */

describe('removing cases from a module', () => {
  it('removes chosen cases, or all but some', async () => {
    const m = await newModule();
    const a = await createModuleCase(m, { name: 'A' });
    const b = await createModuleCase(m, { name: 'B' });
    const c = await createModuleCase(m, { name: 'C' });
    const d = await createModuleCase(m, { name: 'D searched' });

    const chosen = await call('DELETE', `/module-library/${m.id}/remove-cases?${filterQuery({ ids: [a.id] })}`);
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toEqual({ ids: [a.id] });
    expect(names(await moduleCases(m.id))).toEqual(['B', 'C', 'D searched']);
    expectError(await call('GET', `/cases/${a.id}`), 404, 'CASE_NOT_FOUND');

    const searched = await call(
      'DELETE',
      `/module-library/${m.id}/remove-cases?${filterQuery({ all: true, search: 'SEARCHED' })}`,
    );
    expect(searched.statusCode).toBe(200);
    expect(searched.json()).toEqual({ ids: [d.id] });

    const allBut = await call(
      'DELETE',
      `/module-library/${m.id}/remove-cases?${filterQuery({ all: true, except: [c.id] })}`,
    );
    expect(allBut.statusCode).toBe(200);
    expect(allBut.json()).toEqual({ ids: [b.id] });
    expect(names(await moduleCases(m.id))).toEqual(['C']);
    expect((await call('GET', `/module-library/${m.id}`)).json()).toMatchObject({ case_count: 1 });
  });

  it('refuses cases that are not the module’s, removing nothing', async () => {
    const m = await newModule();
    const own = await createModuleCase(m, { name: 'Own' });
    const otherModule = await newModule();
    const theirs = await createModuleCase(otherModule, { name: 'Theirs' });
    const p = await projectA();
    const projectCase = await createProjectCase(p);
    const before = await caseCount();
    const remove = (filter: string) => call('DELETE', `/module-library/${m.id}/remove-cases?${filter}`);

    expectError(await remove(filterQuery({ ids: [own.id, theirs.id] })), 400, 'CASES_FROM_WRONG_PROJECT');
    expectError(await remove(filterQuery({ ids: [projectCase.id] })), 400, 'CASES_FROM_WRONG_PROJECT');
    expectError(await remove(filterQuery({ ids: [randomUUID()] })), 400, 'CASES_FROM_WRONG_PROJECT');
    expectError(await remove('filter=%7Bids'), 400, 'VALIDATION_ERROR');
    expectError(await remove(filterQuery({ ids: [] })), 400, 'VALIDATION_ERROR');
    expectError(await call('DELETE', `/module-library/${m.id}/remove-cases`), 400, 'REQUIRED_PARAMETER_MISSING');

    expect(await caseCount()).toBe(before);
    expect(await getCase(own.id)).toEqual(own);
    expect(await getCase(theirs.id)).toEqual(theirs);
    expect(await getCase(projectCase.id, f.asAdminA)).toEqual(projectCase);
    // A select-all reaches this module's cases only.
    const all = await remove(filterQuery({ all: true }));
    expect(all.json()).toEqual({ ids: [own.id] });
    expect(ids(await moduleCases(otherModule.id))).toEqual([theirs.id]);
  });

  it('leaves the copies in projects when their module case goes', async () => {
    const m = await newModule();
    const original = await createModuleCase(m);
    const p = await projectA();
    const copied = await call('POST', '/module-library/cases/to-project', {
      payload: { project_id: p.id, case_ids: [original.id] },
    });
    const [copyId] = copied.json<{ ids: string[] }>().ids;
    const copy = await getCase(copyId!, f.asAdminA);

    const removed = await call('DELETE', `/module-library/${m.id}/remove-cases?${filterQuery({ ids: [original.id] })}`);
    expect(removed.statusCode).toBe(200);
    expectError(await call('GET', `/cases/${original.id}`), 404, 'CASE_NOT_FOUND');
    expect(await getCase(copyId!, f.asAdminA)).toEqual(copy);
    expect(ids(await projectCases(p.id))).toEqual([copyId]);
    expect((await call('GET', `/cases/${copyId}/status`, { headers: f.asAdminA })).json()).toMatchObject({
      valid: true,
    });
    // And the emptied module can go.
    expect((await call('DELETE', `/module-library/${m.id}`)).statusCode).toBe(204);
    expect(await getCase(copyId!, f.asAdminA)).toEqual(copy);
  });
});

/* ---------- 7. moving a project case into a module ---------- */

describe('moving a project case into a module', () => {
  /** A client A project with a past season (Autumn 2025, one round) besides Spring 2026. */
  const withPastSeason = () =>
    projectA({
      seasons: [
        { name: 'Autumn 2025', rounds: [{ number: 1, start_date: '2025-09-01', end_date: '2025-09-30' }] },
        ...projectBody(f.clientA.id).seasons!,
      ],
    });

  it('moves a draft without a season, or in a past season: it becomes a module case', async () => {
    const p = await withPastSeason();
    const m = await newModule();
    const unplaced = await createProjectCase(p, { name: 'Unplaced' });
    const past = await createProjectCase(p, { name: 'Past', season_id: p.seasons['Autumn 2025']!, round_number: 1 });
    const stays = await createProjectCase(p, { name: 'Stays' });

    const response = await call('POST', `/cases/${unplaced.id}/move-to-module`, { payload: { module_id: m.id } });
    expect(response.statusCode).toBe(200);
    const moved = response.json<CaseDocument>();
    expect(moved).toMatchObject({
      id: unplaced.id,
      origin: 'MODULE_LIBRARY',
      project_id: null,
      client_id: null,
      status: 'DRAFT',
      season_id: null,
      round_number: null,
      name: 'Unplaced',
      questions: unplaced.questions,
    });
    expect(await getCase(unplaced.id)).toEqual(moved);
    expectError(await call('GET', `/cases/${unplaced.id}`, { headers: f.asAdminA }), 404, 'CASE_NOT_FOUND');

    const fromPast = await call('POST', `/cases/${past.id}/move-to-module`, { payload: { module_id: m.id } });
    expect(fromPast.statusCode).toBe(200);
    expect(fromPast.json()).toMatchObject({ project_id: null, season_id: null, round_number: null });

    expect(names(await projectCases(p.id))).toEqual(['Stays']);
    expect(ids(await moduleCases(m.id))).toEqual([unplaced.id, past.id].sort());
    expect((await call('GET', `/cases/${unplaced.id}/status`)).json()).toMatchObject({ valid: true });
    expect(await getCase(stays.id, f.asAdminA)).toEqual(stays);

    // Already a module case: it cannot move to a module again.
    expectError(
      await call('POST', `/cases/${unplaced.id}/move-to-module`, { payload: { module_id: m.id } }),
      400,
      'CASES_FROM_WRONG_PROJECT',
    );
  });

  it('refuses the moves it must, and each refused move changes nothing', async () => {
    const p = await withPastSeason();
    const m = await newModule();
    const noDisease = await newModule({ disease_types: ['Asthma'] });
    const noCategory = await newModule({ question_categories: ['Treatment'] });
    const spring = p.seasons['Spring 2026']!;
    const active = await createProjectCase(p, { name: 'Active', season_id: spring, round_number: 1 });
    expect((await setStatus(active.id, 'PUBLISHED')).json()).toMatchObject({ status: 'ACTIVE' });
    const current = await createProjectCase(p, { name: 'Current', season_id: spring, round_number: 2 });
    const taken = await createProjectCase(p, { name: 'Taken', season_id: p.seasons['Autumn 2025']!, round_number: 1 });
    const participant = await createUser(ctx.db, { role: 'USER', clientId: f.clientA.id });
    await ctx.db.insert(projectParticipants).values({
      projectId: p.id,
      userId: participant.id,
      sortName: 'user test',
      email: participant.email,
      dataStatus: 'READY',
    });
    await ctx.db.insert(participantAssignments).values({
      userId: participant.id,
      seasonId: p.seasons['Autumn 2025']!,
      projectId: p.id,
      firstRound: 1,
      lastRound: 1,
      startDate: '2025-09-01',
    });
    const draft = await createProjectCase(p, { name: 'Draft' });

    const docs = await Promise.all([active, current, taken, draft].map((d) => getCase(d.id)));
    const before = { cases: await caseCount(), project: ids(await projectCases(p.id)) };
    const move = (id: string, moduleId: string, headers: Headers = f.asSuperadmin) =>
      call('POST', `/cases/${id}/move-to-module`, { headers, payload: { module_id: moduleId } });

    expectError(await move(active.id, m.id), 409, 'CASE_IS_ACTIVE');
    expectError(await move(current.id, m.id), 409, 'CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON');
    expectError(await move(taken.id, m.id), 409, 'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN');
    expectError(await move(draft.id, noDisease.id), 422, 'PROJECT_MISSING_DISEASE_TYPES');
    expectError(await move(draft.id, noCategory.id), 422, 'PROJECT_MISSING_QUESTION_CATEGORIES');
    expectError(await move(draft.id, m.id, f.asAdminA), 403, 'FORBIDDEN');
    expectError(await move(draft.id, randomUUID()), 404, 'NOT_FOUND');
    expectError(await move(randomUUID(), m.id), 404, 'CASE_NOT_FOUND');
    expectError(
      await call('POST', `/cases/${draft.id}/move-to-module`, { payload: { module_id: m.id, project_id: p.id } }),
      400,
      'VALIDATION_ERROR',
    );

    expect({ cases: await caseCount(), project: ids(await projectCases(p.id)) }).toEqual(before);
    expect(await Promise.all([active, current, taken, draft].map((d) => getCase(d.id)))).toEqual(docs);
    for (const target of [m, noDisease, noCategory]) expect(await moduleCases(target.id)).toEqual([]);
  });
});
