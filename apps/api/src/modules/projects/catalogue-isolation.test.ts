import { beforeAll, describe, expect, it } from 'vitest';

import { twoClientsContext } from '../../../test/kit.js';
import { projectBody, type Headers } from '../../../test/fixtures.js';

const { ctx, f } = twoClientsContext();

beforeAll(async () => {
  for (const [clientId, disease, category] of [
    [f.clientA.id, 'Alpha Secret Trial Disease', 'Alpha Private Category'],
    [f.clientB.id, 'Bravo Confidential Syndrome', 'Bravo Private Category'],
  ] as const) {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: f.asSuperadmin,
      payload: projectBody(clientId, { disease_types: [disease, 'Diabetes'], question_categories: [category] }),
    });
    expect(created.statusCode).toBe(201);
  }
});

async function names(path: string, headers: Headers, search?: string): Promise<{ names: string[]; total: number }> {
  const url = `/api/${path}${search ? `?search=${encodeURIComponent(search)}` : ''}`;
  const response = await ctx.app.inject({ method: 'GET', url, headers });
  expect(response.statusCode).toBe(200);
  const page = response.json<{ items: { name: string }[]; total: number }>();
  return { names: page.items.map((i) => i.name), total: page.total };
}

describe('catalogue lists and client isolation', () => {
  it('shows a client administrator only the disease types their own client’s projects use', async () => {
    expect(await names('disease-types', f.asAdminA)).toEqual({
      names: ['Alpha Secret Trial Disease', 'Diabetes'],
      total: 2,
    });
    expect((await names('disease-types', f.asAdminB)).names).toEqual(['Bravo Confidential Syndrome', 'Diabetes']);
    expect(await names('disease-types', f.asAdminA, 'bravo')).toEqual({ names: [], total: 0 });
  });

  it('shows a client administrator only their own client’s question categories', async () => {
    expect((await names('question-categories', f.asAdminA)).names).toEqual(['Alpha Private Category']);
    expect(await names('question-categories', f.asAdminB, 'alpha')).toEqual({ names: [], total: 0 });
  });

  it('shows a superadmin every entry', async () => {
    expect((await names('disease-types', f.asSuperadmin)).names).toEqual(
      expect.arrayContaining(['Alpha Secret Trial Disease', 'Bravo Confidential Syndrome', 'Diabetes']),
    );
    expect((await names('question-categories', f.asSuperadmin)).names).toEqual(
      expect.arrayContaining(['Alpha Private Category', 'Bravo Private Category']),
    );
  });
});
