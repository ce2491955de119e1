import { describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { users } from '../../db/schema/index.js';

import { twoClientsContext } from '../../../test/kit.js';

const { ctx, f } = twoClientsContext();

const userCount = async () => (await ctx.db.select({ n: count() }).from(users))[0]!.n;

function createStaff(body: object, headers = f.asSuperadmin) {
  return ctx.app.inject({ method: 'POST', url: '/api/users', headers, payload: body });
}

const adminBody = () => ({
  email: 'New.Admin@Example.test',
  first_name: 'Nora',
  last_name: 'Admin',
  role: 'ADMIN',
  client_id: f.clientA.id,
  password: 'secret-pass',
});

describe('POST /api/users (staff accounts)', () => {
  it('creates a client administrator who can then sign in to their client', async () => {
    const response = await createStaff(adminBody());
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ email: 'new.admin@example.test', role: 'ADMIN', client_id: f.clientA.id });
    expect(response.body).not.toContain('password');
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login/admin',
      payload: { email: 'new.admin@example.test', password: 'secret-pass' },
    });
    expect(signIn.json().user).toMatchObject({ role: 'admin', client_id: f.clientA.id });
  });

  it('refuses an email already in use with EMAIL_ALREADY_EXISTS', async () => {
    const before = await userCount();
    const response = await createStaff({ ...adminBody(), email: 'NEW.ADMIN@example.test' });
    expect(response.statusCode).toBe(409);
    expect(response.json().errorCode).toBe('EMAIL_ALREADY_EXISTS');
    expect(await userCount()).toBe(before);
  });

  it.each([
    [{ password: '12345' }, 'body.password', 'PASSWORD_TOO_SHORT'],
    [{ email: 'not-an-email' }, 'body.email', 'INVALID_EMAIL'],
    [{ first_name: ' ' }, 'body.first_name', 'BLANK_TEXT'],
    [{ first_name: '' }, 'body.first_name', 'FIELD_REQUIRED'],
    [{ client_id: null }, 'body.client_id', 'FIELD_REQUIRED'],
    [{ role: 'USER' }, 'body.role', undefined],
    [{ client_id: '6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5' }, 'body.client_id', undefined],
  ])('refuses %j at %s', async (change, field, code) => {
    const before = await userCount();
    const response = await createStaff({ ...adminBody(), email: `x${Math.random()}@example.test`, ...change });
    expect(response.statusCode).toBe(400);
    const issue = response.json().details.fields.find((i: { field: string }) => i.field === field);
    expect(issue).toBeDefined();
    if (code) expect(issue.errorCode).toBe(code);
    expect(await userCount()).toBe(before);
  });

  it('creates a superadmin, who belongs to no client', async () => {
    const ok = await createStaff({ ...adminBody(), email: 'second@example.test', role: 'SUPERADMIN', client_id: null });
    expect(ok.json()).toMatchObject({ role: 'SUPERADMIN', client_id: null });
    const withClient = await createStaff({ ...adminBody(), email: 'third@example.test', role: 'SUPERADMIN' });
    expect(withClient.statusCode).toBe(400);
  });

  it('is for superadmins only', async () => {
    const response = await createStaff(
      { ...adminBody(), email: 'sneaky@example.test', client_id: f.clientB.id },
      f.asAdminA,
    );
    expect(response.statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/users', payload: adminBody() })).statusCode).toBe(401);
  });
});
