import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerFor, createClient, createTestContext, createUser, type TestContext } from '../../../test/test-app.js';

let ctx: TestContext;
let asSuperadmin: { authorization: string };
let asAdmin: { authorization: string };
let ownClientId: string;
let otherClientId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  const own = await createClient(ctx.db, 'Northwind Health');
  const other = await createClient(ctx.db, 'Riverside Medical');
  await createClient(ctx.db, 'Summit Practice');
  ownClientId = own.id;
  otherClientId = other.id;
  asSuperadmin = await bearerFor(ctx.app, await createUser(ctx.db, { role: 'SUPERADMIN' }));
  asAdmin = await bearerFor(ctx.app, await createUser(ctx.db, { role: 'ADMIN', clientId: own.id }));
});
afterAll(() => ctx.close());

describe('GET /api/clients', () => {
  it('lists every client for a superadmin, paged and sorted', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/clients?sort=name:DESC&limit=2',
      headers: asSuperadmin,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(body.items.map((c: { name: string }) => c.name)).toEqual(['Summit Practice', 'Riverside Medical']);
    expect(Object.keys(body.items[0]).sort()).toEqual(
      [
        'cap_id',
        'cap_status',
        'contact_email',
        'created_at',
        'id',
        'name',
        'project_count',
        'support_email',
        'support_phone',
        'updated_at',
      ].sort(),
    );
  });

  it('searches by name', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/clients?search=river', headers: asSuperadmin });
    expect(response.json().items.map((c: { id: string }) => c.id)).toEqual([otherClientId]);
  });

  it('shows a client administrator only their own client', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/clients', headers: asAdmin });
    expect(response.json()).toMatchObject({ total: 1, items: [{ id: ownClientId }] });
  });

  it.each(['page=0', 'limit=10000', 'sort=password:ASC', 'filter={bad', 'filter={"x":1}'])(
    'refuses %s with VALIDATION_ERROR',
    async (query) => {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/clients?${query}`, headers: asSuperadmin });
      expect(response.statusCode).toBe(400);
      expect(response.json().errorCode).toBe('VALIDATION_ERROR');
      expect(response.json().details.fields[0].field).toMatch(/^querystring\.(page|limit|sort|filter)/);
    },
  );

  it('refuses a caller without a token', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/clients' })).statusCode).toBe(401);
  });
});

describe('GET /api/clients/:id', () => {
  it('answers a client to a superadmin and to its own administrator', async () => {
    for (const headers of [asSuperadmin, asAdmin]) {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/clients/${ownClientId}`, headers });
      expect(response.statusCode).toBe(200);
      expect(response.json().name).toBe('Northwind Health');
    }
  });

  it('answers 404 to an administrator of another client', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `/api/clients/${otherClientId}`, headers: asAdmin });
    expect(response.statusCode).toBe(404);
    expect(response.json().errorCode).toBe('NOT_FOUND');
  });

  it('answers 404 for an unknown id and VALIDATION_ERROR for a malformed one', async () => {
    const unknown = await ctx.app.inject({
      method: 'GET',
      url: '/api/clients/6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5',
      headers: asSuperadmin,
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await ctx.app.inject({ method: 'GET', url: '/api/clients/not-a-uuid', headers: asSuperadmin });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errorCode).toBe('VALIDATION_ERROR');
  });
});
