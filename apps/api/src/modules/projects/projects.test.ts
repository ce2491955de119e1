import { beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { projects, rounds, seasons } from '../../db/schema/index.js';

import { twoClientsContext } from '../../../test/kit.js';
import { projectBody, type Headers } from '../../../test/fixtures.js';

const { ctx, f } = twoClientsContext({ now: '2026-03-20T12:00:00Z' });

const projectCount = async () => (await ctx.db.select({ n: count() }).from(projects))[0]!.n;

async function create(body: object, headers: Headers = f.asSuperadmin) {
  return ctx.app.inject({ method: 'POST', url: '/api/projects', headers, payload: body });
}

function fieldIssues(response: {
  json(): { details: { fields: { field: string; errorCode?: string; message: string }[] } };
}) {
  return response.json().details.fields;
}

describe('POST /api/projects', () => {
  it('creates a project in one step, finding or creating catalogue entries by name', async () => {
    const response = await create(
      projectBody(f.clientA.id, {
        name: 'Heart Failure 2026',
        disease_types: ['Heart Failure', 'Hypertension', 'heart failure'],
        question_categories: ['Treatment'],
        notes: 'Pilot with cardiology.',
      }),
    );
    expect(response.statusCode).toBe(201);
    const project = response.json();
    expect(project).toMatchObject({
      client_id: f.clientA.id,
      client_name: 'Alpha Health',
      name: 'Heart Failure 2026',
      status: 'ACTIVE',
      notes: 'Pilot with cardiology.',
      season_count: 1,
    });
    expect(project.disease_types.map((d: { name: string }) => d.name)).toEqual(['Heart Failure', 'Hypertension']);
    expect(project.seasons[0].rounds.map((r: { number: number }) => r.number)).toEqual([1, 2, 3, 4]);

    // A second project naming "HYPERTENSION" reuses the same catalogue entry.
    const second = (await create(projectBody(f.clientA.id, { disease_types: ['HYPERTENSION'] }))).json();
    expect(second.disease_types[0].id).toBe(
      project.disease_types.find((d: { name: string }) => d.name === 'Hypertension').id,
    );
  });

  it('lets a client administrator create a project for their own client', async () => {
    const response = await create(projectBody(f.clientA.id, { name: 'Admin made' }), f.asAdminA);
    expect(response.statusCode).toBe(201);
  });

  it('answers 404 to an administrator creating a project under another client, creating nothing', async () => {
    const before = await projectCount();
    const response = await create(projectBody(f.clientB.id), f.asAdminA);
    expect(response.statusCode).toBe(404);
    expect(response.json().errorCode).toBe('NOT_FOUND');
    expect(await projectCount()).toBe(before);
  });

  it('needs at least one disease type and one question category', async () => {
    const before = await projectCount();
    const response = await create(projectBody(f.clientA.id, { disease_types: [], question_categories: ['  '] }));
    expect(response.statusCode).toBe(400);
    const issues = fieldIssues(response);
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'body.disease_types', errorCode: 'PROJECT_DISEASE_TYPE_REQUIRED' }),
        expect.objectContaining({ field: 'body.question_categories.0' }),
      ]),
    );
    const noCategories = await create(projectBody(f.clientA.id, { question_categories: [] }));
    expect(fieldIssues(noCategories)[0]).toMatchObject({ errorCode: 'PROJECT_QUESTION_CATEGORY_REQUIRED' });
    expect(await projectCount()).toBe(before);
  });

  it.each([
    [
      'overlapping rounds',
      [
        { number: 1, start_date: '2026-01-01', end_date: '2026-01-10' },
        { number: 2, start_date: '2026-01-10', end_date: '2026-01-20' },
      ],
      'body.seasons.0.rounds.1.start_date',
    ],
    [
      'a round ending before it starts',
      [{ number: 1, start_date: '2026-01-10', end_date: '2026-01-01' }],
      'body.seasons.0.rounds.0.end_date',
    ],
    [
      'a gap in the numbering',
      [
        { number: 1, start_date: '2026-01-01', end_date: '2026-01-10' },
        { number: 3, start_date: '2026-01-11', end_date: '2026-01-20' },
      ],
      'body.seasons.0.rounds.1.number',
    ],
    ['round 5', [{ number: 5, start_date: '2026-01-01', end_date: '2026-01-10' }], 'body.seasons.0.rounds.0.number'],
    [
      'a date that does not exist',
      [{ number: 1, start_date: '2026-02-30', end_date: '2026-03-10' }],
      'body.seasons.0.rounds.0.start_date',
    ],
    [
      'rounds out of order',
      [
        { number: 2, start_date: '2026-01-01', end_date: '2026-01-10' },
        { number: 1, start_date: '2026-01-11', end_date: '2026-01-20' },
      ],
      'body.seasons.0.rounds.0.start_date',
    ],
  ])('refuses %s', async (_label, seasonRounds, field) => {
    const before = await projectCount();
    const response = await create(projectBody(f.clientA.id, { seasons: [{ name: 'S', rounds: seasonRounds }] }));
    expect(response.statusCode).toBe(400);
    expect(fieldIssues(response).map((i) => i.field)).toContain(field);
    expect(await projectCount()).toBe(before);
  });

  it('refuses two seasons with one name, a duplicate project name, a blank name and an unknown client', async () => {
    const twoSeasons = await create(
      projectBody(f.clientA.id, {
        seasons: [
          { name: 'Fall', rounds: [{ number: 1, start_date: '2026-09-01', end_date: '2026-09-10' }] },
          { name: 'fall', rounds: [{ number: 1, start_date: '2026-10-01', end_date: '2026-10-10' }] },
        ],
      }),
    );
    expect(fieldIssues(twoSeasons).map((i) => i.field)).toContain('body.seasons.1.name');

    await create(projectBody(f.clientA.id, { name: 'Unique Name' }));
    const duplicate = await create(projectBody(f.clientA.id, { name: 'unique name' }));
    expect(duplicate.statusCode).toBe(400);
    expect(fieldIssues(duplicate)).toEqual([
      { field: 'body.name', message: 'This client already has a project with this name.' },
    ]);
    // The same name under another client is fine.
    expect((await create(projectBody(f.clientB.id, { name: 'Unique Name' }))).statusCode).toBe(201);

    expect(fieldIssues(await create(projectBody(f.clientA.id, { name: ' ' })))[0]).toMatchObject({
      errorCode: 'BLANK_TEXT',
    });
    expect(fieldIssues(await create(projectBody(f.clientA.id, { name: '' })))[0]).toMatchObject({
      errorCode: 'FIELD_REQUIRED',
    });
    const unknownClient = await create(projectBody('6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5'));
    expect(unknownClient.statusCode).toBe(404);
  });
});

describe('reading, editing, archiving and deleting', () => {
  let projectId: string;
  let seasonId: string;

  beforeAll(async () => {
    const project = (
      await create(projectBody(f.clientB.id, { name: 'Bravo Asthma', disease_types: ['Asthma'] }))
    ).json();
    projectId = project.id;
    seasonId = project.seasons[0].id;
  });

  it('answers a project with its seasons, and its seasons and catalogues on their own calls', async () => {
    const get = await ctx.app.inject({ method: 'GET', url: `/api/projects/${projectId}`, headers: f.asAdminB });
    expect(get.statusCode).toBe(200);
    const seasonsCall = await ctx.app.inject({
      method: 'GET',
      url: `/api/projects/${projectId}/seasons`,
      headers: f.asAdminB,
    });
    expect(seasonsCall.json()).toEqual(get.json().seasons);
    expect(seasonsCall.json()[0]).toMatchObject({ id: seasonId, name: 'Spring 2026' });
    const diseaseTypes = await ctx.app.inject({
      method: 'GET',
      url: `/api/projects/${projectId}/disease-types`,
      headers: f.asAdminB,
    });
    expect(diseaseTypes.json()).toMatchObject({ total: 1, items: [{ name: 'Asthma' }] });
    const categories = await ctx.app.inject({
      method: 'GET',
      url: `/api/projects/${projectId}/question-categories?limit=1`,
      headers: f.asAdminB,
    });
    expect(categories.json()).toMatchObject({ total: 1, limit: 1, items: [{ name: 'Diagnosis' }] });
  });

  it('edits a project, keeping a season by id, adding one and replacing catalogues', async () => {
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `/api/projects/${projectId}`,
      headers: f.asAdminB,
      payload: {
        name: 'Bravo Asthma & COPD',
        status: 'ACTIVE',
        notes: null,
        disease_types: ['Asthma', 'COPD'],
        question_categories: ['Treatment'],
        seasons: [
          {
            id: seasonId,
            name: 'Spring 2026 (renamed)',
            rounds: [{ number: 1, start_date: '2026-03-01', end_date: '2026-05-01' }],
          },
          { name: 'Fall 2026', rounds: [{ number: 1, start_date: '2026-09-01', end_date: '2026-09-30' }] },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    const project = response.json();
    expect(project.name).toBe('Bravo Asthma & COPD');
    expect(project.disease_types.map((d: { name: string }) => d.name)).toEqual(['Asthma', 'COPD']);
    expect(project.question_categories.map((d: { name: string }) => d.name)).toEqual(['Treatment']);
    expect(project.seasons.map((s: { id: string; name: string }) => s.name)).toEqual([
      'Spring 2026 (renamed)',
      'Fall 2026',
    ]);
    expect(project.seasons[0].id).toBe(seasonId);
    expect(project.seasons[0].rounds).toHaveLength(1);
  });

  it('refuses a season id of another project', async () => {
    const other = (await create(projectBody(f.clientB.id))).json();
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `/api/projects/${projectId}`,
      headers: f.asSuperadmin,
      payload: {
        name: 'x',
        status: 'ACTIVE',
        disease_types: ['a'],
        question_categories: ['b'],
        seasons: [
          {
            id: other.seasons[0].id,
            name: 'Stolen',
            rounds: [{ number: 1, start_date: '2026-01-01', end_date: '2026-01-02' }],
          },
        ],
      },
    });
    expect(response.statusCode).toBe(400);
    expect(fieldIssues(response)[0]!.field).toBe('body.seasons.0.id');
  });

  it('archives and restores', async () => {
    const archived = await ctx.app.inject({
      method: 'POST',
      url: `/api/projects/${projectId}/archive`,
      headers: f.asAdminB,
    });
    expect(archived.json().status).toBe('ARCHIVED');
    const list = await ctx.app.inject({
      method: 'GET',
      url: `/api/projects?filter=${encodeURIComponent('{"status":"ARCHIVED"}')}`,
      headers: f.asAdminB,
    });
    expect(list.json().items.map((p: { id: string }) => p.id)).toEqual([projectId]);
    const restored = await ctx.app.inject({
      method: 'POST',
      url: `/api/projects/${projectId}/restore`,
      headers: f.asAdminB,
    });
    expect(restored.json().status).toBe('ACTIVE');
  });

  it("hides another client's project from an administrator, by id, in lists and in every call", async () => {
    for (const url of [
      `/api/projects/${projectId}`,
      `/api/projects/${projectId}/seasons`,
      `/api/projects/${projectId}/disease-types`,
      `/api/projects/${projectId}/question-categories`,
      `/api/cmes/${projectId}`,
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: f.asAdminA });
      expect({ url, status: response.statusCode, code: response.json().errorCode }).toEqual({
        url,
        status: 404,
        code: 'PROJECT_NOT_FOUND',
      });
    }
    for (const [method, url] of [
      ['POST', `/api/projects/${projectId}/archive`],
      ['DELETE', `/api/projects/${projectId}`],
    ] as const) {
      expect((await ctx.app.inject({ method, url, headers: f.asAdminA })).statusCode).toBe(404);
    }
    const list = await ctx.app.inject({ method: 'GET', url: '/api/projects?limit=200', headers: f.asAdminA });
    expect(list.json().items.every((p: { client_id: string }) => p.client_id === f.clientA.id)).toBe(true);
    const viaClient = await ctx.app.inject({
      method: 'GET',
      url: `/api/clients/${f.clientB.id}/projects`,
      headers: f.asAdminA,
    });
    expect(viaClient.statusCode).toBe(404);
  });

  it('deletes a project with its seasons and rounds', async () => {
    const doomed = (await create(projectBody(f.clientB.id, { name: 'Doomed' }))).json();
    const seasonsBefore = (await ctx.db.select({ n: count() }).from(seasons))[0]!.n;
    const response = await ctx.app.inject({ method: 'DELETE', url: `/api/projects/${doomed.id}`, headers: f.asAdminB });
    expect(response.statusCode).toBe(204);
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/projects/${doomed.id}`, headers: f.asAdminB })).statusCode,
    ).toBe(404);
    expect((await ctx.db.select({ n: count() }).from(seasons))[0]!.n).toBe(seasonsBefore - 1);
    expect((await ctx.db.select({ n: count() }).from(rounds))[0]!.n).toBeGreaterThan(0);
  });
});

describe('project lists', () => {
  it('pages, sorts and searches a client’s projects in SQL', async () => {
    for (const name of ['Zeta Study', 'Eta Study', 'Theta Trial']) await create(projectBody(f.clientB.id, { name }));
    const page = await ctx.app.inject({
      method: 'GET',
      url: `/api/clients/${f.clientB.id}/projects?search=study&sort=name:DESC&limit=1&page=2`,
      headers: f.asAdminB,
    });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({
      total: 2,
      page: 2,
      limit: 1,
      items: [{ name: 'Eta Study', client_name: 'Bravo Medical' }],
    });
  });

  it('refuses bad list values', async () => {
    for (const query of ['sort=secret:ASC', 'filter={"status":"DELETED"}', 'limit=500']) {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/projects?${query}`, headers: f.asSuperadmin });
      expect(response.json().errorCode).toBe('VALIDATION_ERROR');
    }
  });
});

describe('catalogues', () => {
  it('lists and searches disease types for the picker', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/disease-types?search=hyper',
      headers: f.asAdminA,
    });
    expect(response.json().items.map((d: { name: string }) => d.name)).toEqual(['Hypertension']);
  });

  it('refuses to delete a disease type a project uses, and deletes an unused one', async () => {
    const used = (
      await ctx.app.inject({ method: 'GET', url: '/api/disease-types?search=hypertension', headers: f.asSuperadmin })
    ).json().items[0];
    const refused = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/disease-types/${used.id}`,
      headers: f.asSuperadmin,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errorCode).toBe('DISEASE_TYPE_DELETE_FORBIDDEN');

    const project = (await create(projectBody(f.clientA.id, { disease_types: ['Rare Thing'] }))).json();
    await ctx.app.inject({ method: 'DELETE', url: `/api/projects/${project.id}`, headers: f.asSuperadmin });
    const unused = project.disease_types[0];
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/disease-types/${unused.id}`,
      headers: f.asSuperadmin,
    });
    expect(deleted.statusCode).toBe(204);
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/disease-types/${unused.id}`,
      headers: f.asSuperadmin,
    });
    expect(again.statusCode).toBe(404);
  });

  it('refuses to delete a question category a project uses', async () => {
    const used = (
      await ctx.app.inject({ method: 'GET', url: '/api/question-categories?search=diagnosis', headers: f.asSuperadmin })
    ).json().items[0];
    const refused = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/question-categories/${used.id}`,
      headers: f.asSuperadmin,
    });
    expect(refused.json().errorCode).toBe('ASSOCIATED_ITEMS_DELETE_FORBIDDEN');
  });

  it('lets only superadmins delete catalogue entries', async () => {
    const any = (await ctx.app.inject({ method: 'GET', url: '/api/disease-types', headers: f.asAdminA })).json()
      .items[0];
    const response = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/disease-types/${any.id}`,
      headers: f.asAdminA,
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /api/clients/active-seasons', () => {
  it('lists the seasons running today with their current round, scoped to the caller', async () => {
    // Today is 2026-03-20: "Spring 2026" (Mar 1 – Apr 25) runs, in round 2 (Mar 15 – 28).
    const asSuperadmin = await ctx.app.inject({
      method: 'GET',
      url: '/api/clients/active-seasons?limit=200',
      headers: f.asSuperadmin,
    });
    expect(asSuperadmin.statusCode).toBe(200);
    const items = asSuperadmin.json().items as {
      client_id: string;
      current_round: number | null;
      season_name: string;
    }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((s) => s.season_name !== 'Fall 2026')).toBe(true);
    expect(items.find((s) => s.season_name === 'Spring 2026')?.current_round).toBe(2);
    const clientIds = new Set(items.map((s) => s.client_id));
    expect(clientIds).toEqual(new Set([f.clientA.id, f.clientB.id]));

    const asAdminA = await ctx.app.inject({
      method: 'GET',
      url: '/api/clients/active-seasons?limit=200',
      headers: f.asAdminA,
    });
    expect(asAdminA.json().items.every((s: { client_id: string }) => s.client_id === f.clientA.id)).toBe(true);
    expect(asAdminA.json().total).toBe(asAdminA.json().items.length);
  });
});
