import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { clients } from '../../db/schema/index.js';

import { twoClientsContext } from '../../../test/kit.js';
import { projectBody } from '../../../test/fixtures.js';

const { ctx, f } = twoClientsContext();

const clientCount = async () => (await ctx.db.select({ n: count() }).from(clients))[0]!.n;

function post(body: unknown, headers = f.asSuperadmin) {
  return ctx.app.inject({ method: 'POST', url: '/api/clients', headers, payload: body as object });
}

describe('POST /api/clients', () => {
  it('creates a client with a CAP ID', async () => {
    const response = await post({ name: '  Cedar Ridge  ', cap_id: 'CAP-777', cap_status: 'Active' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      name: 'Cedar Ridge',
      cap_id: 'CAP-777',
      cap_status: 'Active',
      project_count: 0,
    });
  });

  it('creates a client without a CAP ID (several may have none)', async () => {
    expect((await post({ name: 'No CAP One' })).statusCode).toBe(201);
    expect((await post({ name: 'No CAP Two', cap_id: '' })).json().cap_id).toBeNull();
  });

  it('refuses a CAP ID another client has, in any case, and changes nothing', async () => {
    const before = await clientCount();
    const response = await post({ name: 'Copycat', cap_id: 'cap-777' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      errorCode: 'CLIENT_CAP_ID_ALREADY_EXISTS',
      message: 'A client with this CAP ID already exists.',
    });
    expect(await clientCount()).toBe(before);
  });

  it.each([
    [{ name: '   ' }, 'body.name', 'BLANK_TEXT'],
    [{ name: '' }, 'body.name', 'FIELD_REQUIRED'],
    [{ name: 'x'.repeat(201) }, 'body.name', 'INVALID_NAME'],
    [{ name: 'Ok', cap_id: 'has spaces!' }, 'body.cap_id', 'INVALID_CAP_ID'],
    [{ name: 'Ok', extra: 1 }, 'body', undefined],
    [{ cap_id: 'CAP-1' }, 'body.name', undefined],
    [{ name: 42 }, 'body.name', undefined],
  ])('refuses %j with VALIDATION_ERROR at %s', async (body, field, code) => {
    const before = await clientCount();
    const response = await post(body);
    expect(response.statusCode).toBe(400);
    const issue = response.json().details.fields.find((i: { field: string }) => i.field === field);
    expect(issue).toBeDefined();
    if (code) expect(issue.errorCode).toBe(code);
    expect(await clientCount()).toBe(before);
  });

  it('is for superadmins only', async () => {
    expect((await post({ name: 'Nope' }, f.asAdminA)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/clients', payload: { name: 'x' } })).statusCode).toBe(
      401,
    );
  });
});

describe('PUT /api/clients/:id', () => {
  it('edits name, CAP ID and status', async () => {
    const created = (await post({ name: 'Before', cap_id: 'CAP-900' })).json();
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `/api/clients/${created.id}`,
      headers: f.asSuperadmin,
      payload: { name: 'After', cap_id: 'CAP-901', cap_status: 'Inactive' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: 'After', cap_id: 'CAP-901', cap_status: 'Inactive' });
    // Keeping its own CAP ID is not a clash.
    const again = await ctx.app.inject({
      method: 'PUT',
      url: `/api/clients/${created.id}`,
      headers: f.asSuperadmin,
      payload: { name: 'After', cap_id: 'CAP-901' },
    });
    expect(again.statusCode).toBe(200);
  });

  it("refuses another client's CAP ID and leaves the client as it was", async () => {
    const created = (await post({ name: 'Keeps', cap_id: 'CAP-910' })).json();
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `/api/clients/${created.id}`,
      headers: f.asSuperadmin,
      payload: { name: 'Changed', cap_id: 'CAP-777' },
    });
    expect(response.json().errorCode).toBe('CLIENT_CAP_ID_ALREADY_EXISTS');
    const [row] = await ctx.db.select().from(clients).where(eq(clients.id, created.id));
    expect(row).toMatchObject({ name: 'Keeps', capId: 'CAP-910' });
  });

  it('answers 404 for an unknown client and 403 to an administrator', async () => {
    const unknown = await ctx.app.inject({
      method: 'PUT',
      url: '/api/clients/6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5',
      headers: f.asSuperadmin,
      payload: { name: 'x' },
    });
    expect(unknown.statusCode).toBe(404);
    const byAdmin = await ctx.app.inject({
      method: 'PUT',
      url: `/api/clients/${f.clientA.id}`,
      headers: f.asAdminA,
      payload: { name: 'x' },
    });
    expect(byAdmin.statusCode).toBe(403);
  });
});

describe('DELETE /api/clients/:id', () => {
  it('deletes a client without projects, with its administrators', async () => {
    const created = (await post({ name: 'Short-lived' })).json();
    const admin = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: f.asSuperadmin,
      payload: {
        email: 'short@example.test',
        first_name: 'S',
        last_name: 'L',
        role: 'ADMIN',
        client_id: created.id,
        password: 'secret-1',
      },
    });
    expect(admin.statusCode).toBe(201);
    const response = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/clients/${created.id}`,
      headers: f.asSuperadmin,
    });
    expect(response.statusCode).toBe(204);
    const gone = await ctx.app.inject({ method: 'GET', url: `/api/clients/${created.id}`, headers: f.asSuperadmin });
    expect(gone.statusCode).toBe(404);
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: 'short@example.test', password: 'secret-1' },
    });
    expect(signIn.statusCode).toBe(401);
  });

  it('refuses a client with projects with CLIENT_HAS_PROJECTS', async () => {
    const created = (await post({ name: 'Has projects' })).json();
    await ctx.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: f.asSuperadmin,
      payload: projectBody(created.id),
    });
    const response = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/clients/${created.id}`,
      headers: f.asSuperadmin,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().errorCode).toBe('CLIENT_HAS_PROJECTS');
    const still = await ctx.app.inject({ method: 'GET', url: `/api/clients/${created.id}`, headers: f.asSuperadmin });
    expect(still.json().project_count).toBe(1);
  });

  it('is for superadmins only', async () => {
    const response = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/clients/${f.clientA.id}`,
      headers: f.asAdminA,
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('client isolation', () => {
  it('hides another client from an administrator, by id and in the list', async () => {
    const byId = await ctx.app.inject({ method: 'GET', url: `/api/clients/${f.clientB.id}`, headers: f.asAdminA });
    expect(byId.statusCode).toBe(404);
    const list = await ctx.app.inject({ method: 'GET', url: '/api/clients?limit=200', headers: f.asAdminA });
    expect(list.json().items.map((c: { id: string }) => c.id)).toEqual([f.clientA.id]);
  });

  it('filters by CAP status', async () => {
    await post({ name: 'Dormant Clinic', cap_id: 'CAP-555', cap_status: 'Inactive' });
    const list = await ctx.app.inject({
      method: 'GET',
      url: `/api/clients?filter=${encodeURIComponent('{"cap_status":"Inactive"}')}`,
      headers: f.asSuperadmin,
    });
    expect(list.json().items.every((c: { cap_status: string }) => c.cap_status === 'Inactive')).toBe(true);
    expect(list.json().total).toBeGreaterThan(0);
  });
});

describe('a client’s contact email', () => {
  const put = (id: string, body: object) =>
    ctx.app.inject({ method: 'PUT', url: `/api/clients/${id}`, headers: f.asSuperadmin, payload: body });
  const get = async (id: string) =>
    (await ctx.app.inject({ method: 'GET', url: `/api/clients/${id}`, headers: f.asSuperadmin })).json();
  const listed = async (id: string) =>
    (await ctx.app.inject({ method: 'GET', url: '/api/clients?limit=200', headers: f.asSuperadmin }))
      .json()
      .items.find((c: { id: string }) => c.id === id);
  const row = async (id: string) => (await ctx.db.select().from(clients).where(eq(clients.id, id)))[0]!;

  it('is created, read back, changed, kept when left out and cleared with "" or null', async () => {
    const created = await post({ name: 'Contact Co', contact_email: ' office@contact.test ' });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect(created.json().contact_email).toBe('office@contact.test');
    expect((await get(id)).contact_email).toBe('office@contact.test');
    expect((await listed(id)).contact_email).toBe('office@contact.test');
    expect((await post({ name: 'No Contact Co' })).json().contact_email).toBeNull();

    const changed = await put(id, { name: 'Contact Co', contact_email: 'desk@contact.test' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().contact_email).toBe('desk@contact.test');
    // An update that leaves it out keeps it.
    expect((await put(id, { name: 'Contact Co Renamed' })).json().contact_email).toBe('desk@contact.test');
    expect((await row(id)).contactEmail).toBe('desk@contact.test');

    expect((await put(id, { name: 'Contact Co', contact_email: '' })).json().contact_email).toBeNull();
    await put(id, { name: 'Contact Co', contact_email: 'again@contact.test' });
    expect((await put(id, { name: 'Contact Co', contact_email: null })).json().contact_email).toBeNull();
    expect((await row(id)).contactEmail).toBeNull();
  });

  it.each([
    [{ contact_email: 'not an address' }, 'INVALID_EMAIL'],
    [{ contact_email: `${'a'.repeat(250)}@b.test` }, 'INVALID_EMAIL'],
    [{ contact_email: 42 }, undefined],
  ])('refuses %j with VALIDATION_ERROR and changes nothing', async (body, code) => {
    const id = (await post({ name: 'Kept Contact', contact_email: 'kept@contact.test' })).json().id as string;
    const before = await clientCount();
    for (const response of [
      await post({ name: 'Bad Contact', ...body }),
      await put(id, { name: 'Changed', ...body }),
    ]) {
      expect(response.statusCode).toBe(400);
      expect(response.json().errorCode).toBe('VALIDATION_ERROR');
      const issue = response.json().details.fields.find((i: { field: string }) => i.field === 'body.contact_email');
      expect(issue).toBeDefined();
      if (code) expect(issue.errorCode).toBe(code);
    }
    expect(await clientCount()).toBe(before);
    expect(await row(id)).toMatchObject({ name: 'Kept Contact', contactEmail: 'kept@contact.test' });
  });
});
