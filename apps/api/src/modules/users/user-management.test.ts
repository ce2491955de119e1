import { beforeAll, describe, expect, it } from 'vitest';
import { bearerFor, createUser, TEST_PASSWORD } from '../../../test/test-app.js';
import { newProject, twoClientsContext } from '../../../test/kit.js';
import { multipartFile } from '../../../test/fixtures.js';

let projectA: string;
let participantA: { user_id: string; email: string };
let participantB: { user_id: string };

const HEADER = 'user_id,salutation,first_name,last_name,email,role,profession,season,rounds,start_date';

async function importInto(projectId: string, csv: string, headers: { authorization: string }) {
  const file = multipartFile(csv);
  await ctx.app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/upload`,
    headers: { ...headers, ...file.headers },
    payload: file.payload,
  });
  await ctx.app.imports.runPending();
}

const { ctx, f } = twoClientsContext();

beforeAll(async () => {
  projectA = (await newProject(ctx, f.asSuperadmin, f.clientA.id, { name: 'UM A' })).id;
  const projectB = (await newProject(ctx, f.asSuperadmin, f.clientB.id, { name: 'UM B' })).id;
  await importInto(
    projectA,
    `${HEADER}\nA-1,Dr.,Amy,Archer,amy@example.org,USER,MD,Spring 2026,2-3,\nA-2,Mr.,Bob,Baker,bob@example.org,HALFUSER,AS,,,\n`,
    f.asAdminA,
  );
  await importInto(projectB, `${HEADER}\nB-1,Dr.,Cid,Cole,cid@example.org,USER,DO,,,\n`, f.asAdminB);
  const listA = (
    await ctx.app.inject({ method: 'GET', url: `/api/projects/${projectA}/users?sort=email:ASC`, headers: f.asAdminA })
  ).json();
  participantA = listA.items[0];
  participantB = (
    await ctx.app.inject({ method: 'GET', url: `/api/projects/${projectB}/users`, headers: f.asAdminB })
  ).json().items[0];
});

const get = (url: string, headers = f.asSuperadmin) => ctx.app.inject({ method: 'GET', url, headers });

describe('GET /api/users', () => {
  it('lists everyone for a superadmin, searched, sorted and filtered by role and project', async () => {
    const all = (await get('/api/users?limit=200')).json();
    expect(all.total).toBeGreaterThanOrEqual(6);
    const participants = (
      await get(`/api/users?filter=${encodeURIComponent('{"role":["USER","HALFUSER"]}')}&sort=last_name:DESC`)
    ).json();
    expect(participants.items.map((u: { last_name: string }) => u.last_name)).toEqual(['Cole', 'Baker', 'Archer']);
    expect(participants.items[0].client_name).toBe('Bravo Medical');
    const inProject = (
      await get(`/api/users?filter=${encodeURIComponent(JSON.stringify({ project_id: projectA, status: 'active' }))}`)
    ).json();
    expect(inProject.items.map((u: { email: string }) => u.email).sort()).toEqual([
      'amy@example.org',
      'bob@example.org',
    ]);
    expect((await get('/api/users?search=A-2')).json().items[0].email).toBe('bob@example.org');
  });

  it("shows a client administrator only their own client's participants", async () => {
    const list = (await get('/api/users?limit=200', f.asAdminA)).json();
    expect(list.items.map((u: { email: string }) => u.email).sort()).toEqual(['amy@example.org', 'bob@example.org']);
  });

  it('refuses bad list values', async () => {
    expect((await get(`/api/users?filter=${encodeURIComponent('{"role":"KING"}')}`)).json().errorCode).toBe(
      'VALIDATION_ERROR',
    );
    expect((await get('/api/users?sort=password_hash:ASC')).json().errorCode).toBe('VALIDATION_ERROR');
  });
});

describe('one user', () => {
  it('answers every detail with the projects and assignments', async () => {
    const response = await get(`/api/users/${participantA.user_id}`, f.asAdminA);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      email: 'amy@example.org',
      employee_id: 'A-1',
      salutation: 'Dr.',
      profession: 'MD',
      projects: [{ project_id: projectA, project_name: 'UM A', archived: false, data_status: 'READY' }],
    });
    const assignments = (await get(`/api/users/${participantA.user_id}/assignments`, f.asAdminA)).json();
    expect(assignments).toEqual([
      {
        project_id: projectA,
        project_name: 'UM A',
        season_id: expect.any(String),
        season_name: 'Spring 2026',
        rounds: [2, 3],
        start_date: '2026-03-15',
      },
    ]);
  });

  it("answers USER_NOT_FOUND for another client's participant and for staff, to an administrator", async () => {
    for (const url of [`/api/users/${participantB.user_id}`, `/api/users/${participantB.user_id}/assignments`]) {
      const response = await get(url, f.asAdminA);
      expect(response.statusCode).toBe(404);
      expect(response.json().errorCode).toBe('USER_NOT_FOUND');
    }
    const staff = (await get('/api/users?filter=' + encodeURIComponent('{"role":"SUPERADMIN"}'))).json().items[0];
    expect((await get(`/api/users/${staff.id}`, f.asAdminA)).statusCode).toBe(404);
  });

  it('edits a participant and keeps the project list in step', async () => {
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${participantA.user_id}`,
      headers: f.asAdminA,
      payload: {
        email: 'amy.archer@example.org',
        first_name: 'Amy',
        last_name: 'Zimmer',
        salutation: 'Dr.',
        profession: 'DO',
        facility: 'North',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      email: 'amy.archer@example.org',
      last_name: 'Zimmer',
      profession: 'DO',
      facility: 'North',
      npi: null,
    });
    const list = (await get(`/api/projects/${projectA}/users?sort=name:DESC`, f.asAdminA)).json();
    expect(list.items[0]).toMatchObject({ last_name: 'Zimmer', email: 'amy.archer@example.org' });

    // A salutation outside the allowed form, and a mobile number by the one rule: refused, nothing changed.
    for (const [change, field, code] of [
      [{ salutation: 'Dr<script>' }, 'body.salutation', 'INVALID_SALUTATION'],
      [{ mobile_number: 'call me' }, 'body.mobile_number', undefined],
    ] as const) {
      const refused = await ctx.app.inject({
        method: 'PUT',
        url: `/api/users/${participantA.user_id}`,
        headers: f.asAdminA,
        payload: { email: 'amy.archer@example.org', first_name: 'Amy', last_name: 'Other', ...change },
      });
      expect(refused.statusCode).toBe(400);
      const issue = refused.json().details.fields.find((i: { field: string }) => i.field === field);
      expect(issue?.errorCode).toBe(code);
    }
    expect((await get(`/api/users/${participantA.user_id}`, f.asAdminA)).json().last_name).toBe('Zimmer');
  });

  it('refuses an email in use, bad fields, and a password set by an administrator', async () => {
    const base = { first_name: 'Amy', last_name: 'Zimmer' };
    const taken = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${participantA.user_id}`,
      headers: f.asAdminA,
      payload: { ...base, email: 'CID@example.org' },
    });
    expect(taken.json().errorCode).toBe('EMAIL_ALREADY_EXISTS');
    const bad = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${participantA.user_id}`,
      headers: f.asAdminA,
      payload: { ...base, email: 'x', profession: 'RN' },
    });
    expect(
      bad
        .json()
        .details.fields.map((i: { field: string }) => i.field)
        .sort(),
    ).toEqual(['body.email', 'body.profession']);
    const password = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${participantA.user_id}`,
      headers: f.asAdminA,
      payload: { ...base, email: 'amy.archer@example.org', password: 'secret-99' },
    });
    expect(password.statusCode).toBe(403);
    const otherClient = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${participantB.user_id}`,
      headers: f.asAdminA,
      payload: { ...base, email: 'cid@example.org' },
    });
    expect(otherClient.statusCode).toBe(404);
  });

  it("lets a superadmin reset a client administrator's password, which ends the administrator's access at once", async () => {
    // An administrator of their own: the fixture's stays signed in for the tests after this one.
    const admin = await createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id });
    const signedIn = await bearerFor(ctx.app, admin);
    const me = () => ctx.app.inject({ method: 'GET', url: '/api/users/me', headers: signedIn });
    expect((await me()).statusCode).toBe(200);
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${admin.id}`,
      headers: f.asSuperadmin,
      payload: {
        email: admin.email,
        first_name: admin.firstName,
        last_name: admin.lastName,
        password: 'brand-new-pass',
      },
    });
    expect(response.statusCode).toBe(200);
    // Their access token is refused from the next call on, not when it expires.
    const refused = await me();
    expect([refused.statusCode, refused.json().errorCode]).toEqual([401, 'NOT_AUTHORIZED']);
    const oldPassword = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: admin.email, password: TEST_PASSWORD },
    });
    expect(oldPassword.statusCode).toBe(401);
    const newPassword = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: admin.email, password: 'brand-new-pass' },
    });
    expect(newPassword.statusCode).toBe(200);
  });

  it('sets the display name and mobile number, and refuses a malformed number', async () => {
    const name = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${participantA.user_id}/display-name`,
      headers: f.asAdminA,
      payload: { display_name: 'Dr. Amy' },
    });
    expect(name.statusCode).toBe(204);
    const mobile = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${participantA.user_id}/mobile-number`,
      headers: f.asAdminA,
      payload: { mobile_number: '+1 (555) 010-0100' },
    });
    expect(mobile.statusCode).toBe(204);
    expect((await get(`/api/users/${participantA.user_id}`, f.asAdminA)).json()).toMatchObject({
      display_name: 'Dr. Amy',
      mobile_number: '+1 (555) 010-0100',
    });
    const bad = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${participantA.user_id}/mobile-number`,
      headers: f.asAdminA,
      payload: { mobile_number: 'call me' },
    });
    expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
    const other = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${participantB.user_id}/display-name`,
      headers: f.asAdminA,
      payload: { display_name: 'x' },
    });
    expect(other.statusCode).toBe(404);
  });

  it('blocks edits while an import into one of their projects is waiting', async () => {
    const file = multipartFile(`${HEADER}\n`);
    await ctx.app.inject({
      method: 'POST',
      url: `/api/projects/${projectA}/upload`,
      headers: { ...f.asAdminA, ...file.headers },
      payload: file.payload,
    });
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${participantA.user_id}/display-name`,
      headers: f.asAdminA,
      payload: { display_name: 'y' },
    });
    expect(response.json().errorCode).toBe('USER_UPDATE_BLOCKED_BY_IMPORT');
    await ctx.app.imports.runPending();
  });

  it('lists the professions', async () => {
    expect((await get('/api/users/professions', f.asAdminA)).json().map((p: { code: string }) => p.code)).toEqual([
      'MD',
      'DO',
      'AS',
      'MSW',
    ]);
  });
});
