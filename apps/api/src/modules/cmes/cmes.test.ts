import { beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { cmes } from '../../db/schema/index.js';

import { newProject, twoClientsContext } from '../../../test/kit.js';

let projectA: string;
let projectB: string;

const { ctx, f } = twoClientsContext();

beforeAll(async () => {
  projectA = (await newProject(ctx, f.asSuperadmin, f.clientA.id)).id;
  projectB = (await newProject(ctx, f.asSuperadmin, f.clientB.id)).id;
});

const cmeCount = async () => (await ctx.db.select({ n: count() }).from(cmes))[0]!.n;
const validCme = {
  min_cases: 4,
  credits: 2.5,
  moc: true,
  totera_course_id: 'TOT-42',
  custom: 'Certificate after round 4.',
};

describe('CMEs', () => {
  it('creates, lists, edits and deletes a project’s CME credits', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/cmes',
      headers: f.asAdminA,
      payload: { project_id: projectA, ...validCme },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ project_id: projectA, ...validCme });
    await ctx.app.inject({
      method: 'POST',
      url: '/api/cmes',
      headers: f.asAdminA,
      payload: { project_id: projectA, min_cases: 8, credits: 5, moc: false },
    });

    const list = await ctx.app.inject({
      method: 'GET',
      url: `/api/cmes/${projectA}?sort=credits:DESC`,
      headers: f.asAdminA,
    });
    expect(list.json()).toMatchObject({ total: 2, items: [{ credits: 5, totera_course_id: null }, { credits: 2.5 }] });
    const mocOnly = await ctx.app.inject({
      method: 'GET',
      url: `/api/cmes/${projectA}?filter=${encodeURIComponent('{"moc":true}')}`,
      headers: f.asAdminA,
    });
    expect(mocOnly.json().total).toBe(1);

    const id = created.json().id;
    const edited = await ctx.app.inject({
      method: 'PUT',
      url: `/api/cmes/${id}`,
      headers: f.asAdminA,
      payload: { min_cases: 6, credits: 3, moc: false, totera_course_id: '', custom: null },
    });
    expect(edited.json()).toMatchObject({ min_cases: 6, credits: 3, moc: false, totera_course_id: null });

    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/cmes/${id}`, headers: f.asAdminA })).statusCode).toBe(
      204,
    );
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/cmes/${id}`, headers: f.asAdminA })).statusCode).toBe(
      404,
    );
  });

  it.each([
    [{ min_cases: -1, credits: 1, moc: false }, 'body.min_cases'],
    [{ min_cases: 1.5, credits: 1, moc: false }, 'body.min_cases'],
    [{ min_cases: 1, credits: 1.1, moc: false }, 'body.credits'],
    [{ min_cases: 1, credits: 1, moc: 'yes' }, 'body.moc'],
    [{ min_cases: 1, credits: 1 }, 'body.moc'],
  ])('refuses %j at %s and creates nothing', async (fields, field) => {
    const before = await cmeCount();
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/cmes',
      headers: f.asAdminA,
      payload: { project_id: projectA, ...fields },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details.fields.map((i: { field: string }) => i.field)).toContain(field);
    expect(await cmeCount()).toBe(before);
  });

  it("keeps another client's CMEs from an administrator", async () => {
    const theirs = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/cmes',
        headers: f.asAdminB,
        payload: { project_id: projectB, ...validCme },
      })
    ).json();
    const before = await cmeCount();
    const create = await ctx.app.inject({
      method: 'POST',
      url: '/api/cmes',
      headers: f.asAdminA,
      payload: { project_id: projectB, ...validCme },
    });
    expect(create.statusCode).toBe(404);
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/cmes/${projectB}`, headers: f.asAdminA })).statusCode,
    ).toBe(404);
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/cmes/${theirs.id}`,
      headers: f.asAdminA,
      payload: validCme,
    });
    expect(edit.statusCode).toBe(404);
    expect(edit.json().errorCode).toBe('NOT_FOUND');
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `/api/cmes/${theirs.id}`, headers: f.asAdminA })).statusCode,
    ).toBe(404);
    expect(await cmeCount()).toBe(before);
    // A superadmin sees it.
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/cmes/${projectB}`, headers: f.asSuperadmin })).json().total,
    ).toBe(1);
  });

  it('goes with its project when the project is deleted', async () => {
    const before = await cmeCount();
    await ctx.app.inject({ method: 'DELETE', url: `/api/projects/${projectB}`, headers: f.asSuperadmin });
    expect(await cmeCount()).toBe(before - 1);
  });
});
