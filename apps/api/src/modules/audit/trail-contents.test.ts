import { describe, expect, it } from 'vitest';
import { inArray, sql } from 'drizzle-orm';
import * as contract from '@pss/contract';
import type { AuditEvent, RouteDefinition } from '@pss/contract';
import { rowsOf } from '../../db/client.js';
import { cases, passkeys } from '../../db/schema/index.js';
import { filterQuery, newProject, twoClientsContext } from '../../../test/kit.js';
import { appSetUp } from '../../../test/second-factor-kit.js';
import { bearerFor, createUser, TEST_PASSWORD } from '../../../test/test-app.js';
import { removalsOfNoRow, removesNamedRow, serviceNamedRemovals } from './row-changes.js';

/**
 * What an event says, beyond who did what (call-recording.test.ts): a password set as a marker,
 * never its value; the member as the actor of their own sign-in's steps; the client of the
 * member an event is about; and what a delete removed.
 */

const { ctx, f } = twoClientsContext();

interface EventRow {
  action: string;
  actor_id: string | null;
  actor_role: string;
  target_type: string | null;
  target_id: string | null;
  client_id: string | null;
  outcome: string;
  changes: Record<string, { before: unknown; after: unknown }>;
}

const eventsOf = async (requestId: string) =>
  rowsOf<EventRow>(await ctx.db.execute(sql`select * from audit_events where request_id = ${requestId}`));

/** Every event, as text: where no credential may be found. */
const allEventsText = async () =>
  rowsOf<{ text: string }>(await ctx.db.execute(sql`select row_to_json(e)::text as text from audit_events e`))
    .map((row) => row.text)
    .join('\n');

/** A call with a request id of its own: its reply, and its one event. */
async function recorded(method: 'POST' | 'PUT' | 'DELETE', url: string, headers: object, payload?: object) {
  const requestId = `contents-${Math.random().toString(36).slice(2)}`;
  const reply = await ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: { ...headers, 'x-request-id': requestId },
    payload,
  });
  const events = await eventsOf(requestId);
  expect(events, reply.body).toHaveLength(reply.statusCode < 300 ? 1 : events.length);
  return { reply, event: events[0]! };
}

const passwordHashOf = async (id: string) =>
  rowsOf<{ password_hash: string | null }>(
    await ctx.db.execute(sql`select password_hash from users where id = ${id}`),
  )[0]!.password_hash;

describe('a password set', () => {
  it('is a changed field with a marker (PUT /api/users/{id}): before "[set]" or "[none]", after "[changed]", never the value', async () => {
    const admin = await createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id, firstName: 'Ada' });
    const newPassword = 'a-brand-new-password-71';
    const body = { email: admin.email, first_name: 'Ada', last_name: admin.lastName };
    const { reply, event } = await recorded('PUT', `/users/${admin.id}`, f.asSuperadmin, {
      ...body,
      password: newPassword,
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(event).toMatchObject({ action: 'users.update', target_id: admin.id, client_id: f.clientA.id });
    expect(event.changes).toEqual({ password: { before: '[set]', after: '[changed]' } });

    // An account that had none: "[none]" before; a save that sets none says nothing of it.
    const noPassword = await createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id, withPassword: false });
    const first = await recorded('PUT', `/users/${noPassword.id}`, f.asSuperadmin, {
      email: noPassword.email,
      first_name: noPassword.firstName,
      last_name: noPassword.lastName,
      password: newPassword,
    });
    expect(first.event.changes.password).toEqual({ before: '[none]', after: '[changed]' });
    const renamed = await recorded('PUT', `/users/${admin.id}`, f.asSuperadmin, { ...body, first_name: 'Adah' });
    expect(renamed.event.changes).toEqual({ first_name: { before: 'Ada', after: 'Adah' } });

    // Neither the password nor what is kept of it (its hash) is anywhere in the trail.
    const text = await allEventsText();
    expect(text).not.toContain(newPassword);
    expect(text).not.toContain((await passwordHashOf(admin.id))!);
    expect(text).not.toContain((await passwordHashOf(noPassword.id))!);
  });

  it('is a marker on a participant’s own password changed, the participant its actor and target', async () => {
    const participant = await createUser(ctx.db, { role: 'USER', clientId: f.clientA.id });
    const signedIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login/user',
      payload: { email: participant.email, password: TEST_PASSWORD },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const headers = { authorization: `Bearer ${signedIn.json<{ access_token: string }>().access_token}` };
    const newPassword = 'participant-new-password-4';
    const { reply, event } = await recorded('POST', '/auth/password', headers, {
      password: newPassword,
      current_password: TEST_PASSWORD,
    });
    expect(reply.statusCode, reply.body).toBe(204);
    expect(event).toMatchObject({
      action: 'auth.changeParticipantPassword',
      actor_id: participant.id,
      target_type: 'user',
      target_id: participant.id,
      client_id: f.clientA.id,
      changes: { password: { before: '[set]', after: '[changed]' } },
    });
    expect(JSON.stringify(event)).not.toContain(newPassword);
    expect(JSON.stringify(event)).not.toContain(TEST_PASSWORD);
  });

  it('is a marker on a staff account created, with the account’s fields and no password', async () => {
    const password = 'created-with-this-password-5';
    const { reply, event } = await recorded('POST', '/users', f.asSuperadmin, {
      email: 'new.superadmin@example.test',
      first_name: 'Nell',
      last_name: 'Staff',
      role: 'SUPERADMIN',
      password,
    });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(event.changes.password).toEqual({ before: '[none]', after: '[changed]' });
    expect(event.changes.email).toEqual({ before: null, after: 'new.superadmin@example.test' });
    expect(JSON.stringify(event)).not.toContain(password);
  });
});

describe('a sign-in’s steps', () => {
  it('name the superadmin as actor and target: the password step, the second factor, an enrolment', async () => {
    const superadmin = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const code = await appSetUp(ctx.db, superadmin.id, ctx.clock.now());
    const password = await recorded(
      'POST',
      '/auth/login/superadmin',
      {},
      { email: superadmin.email, password: TEST_PASSWORD },
    );
    expect(password.reply.statusCode, password.reply.body).toBe(200);
    const halfway = password.reply.json<{ mfa_required?: boolean; mfa_token: string }>();
    expect(halfway.mfa_required).toBe(true);
    const member = { actor_id: superadmin.id, actor_role: 'SUPERADMIN', target_type: 'user', target_id: superadmin.id };
    expect(password.event).toMatchObject({ action: 'auth.loginSuperadmin', outcome: 'success', ...member });

    const second = await recorded('POST', '/auth/mfa/verify', {}, { mfa_token: halfway.mfa_token, code });
    expect(second.reply.statusCode, second.reply.body).toBe(200);
    expect(second.event).toMatchObject({ action: 'auth.mfaVerify', outcome: 'success', ...member });
    expect(JSON.stringify([password.event, second.event])).not.toContain(halfway.mfa_token);

    // A code refused: still the member's step (who gave a wrong code on whose account).
    const again = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login/superadmin',
        payload: { email: superadmin.email, password: TEST_PASSWORD },
      })
    ).json<{ mfa_token: string }>();
    const wrong = await recorded('POST', '/auth/mfa/verify', {}, { mfa_token: again.mfa_token, code: '000000' });
    expect(wrong.reply.statusCode).toBeGreaterThanOrEqual(400);
    expect(wrong.event).toMatchObject({ action: 'auth.mfaVerify', ...member });
    expect(wrong.event.outcome).not.toBe('success');

    // Setting up an app: the member, though no record is in its path.
    const newcomer = await createUser(ctx.db, { role: 'SUPERADMIN' });
    const enrol = await recorded('POST', '/auth/mfa/totp/enroll', await bearerFor(ctx.app, newcomer));
    expect(enrol.reply.statusCode, enrol.reply.body).toBe(200);
    expect(enrol.event).toMatchObject({ actor_id: newcomer.id, target_type: 'user', target_id: newcomer.id });
    expect(JSON.stringify(enrol.event)).not.toContain(enrol.reply.json<{ secret: string }>().secret);
  });
});

describe('the client of a client’s member', () => {
  it('is on a superadmin’s events about them (account created, second factor reset): their client’s administrators read them', async () => {
    const created = await recorded('POST', '/users', f.asSuperadmin, {
      email: 'alpha.admin@example.test',
      first_name: 'Alma',
      last_name: 'Admin',
      role: 'ADMIN',
      client_id: f.clientA.id,
      password: 'alpha-admin-password-3',
    });
    expect(created.reply.statusCode, created.reply.body).toBe(201);
    const memberId = created.reply.json<{ id: string }>().id;
    expect(created.event).toMatchObject({ action: 'users.createStaff', target_id: memberId, client_id: f.clientA.id });

    await appSetUp(ctx.db, memberId, ctx.clock.now());
    const reset = await recorded('POST', `/users/${memberId}/mfa/reset`, f.asSuperadmin);
    expect(reset.reply.statusCode, reset.reply.body).toBe(204);
    expect(reset.event).toMatchObject({
      action: 'users.resetSecondFactor',
      target_id: memberId,
      client_id: f.clientA.id,
    });

    const logOf = async (headers: Record<string, string>) => {
      const reply = await ctx.app.inject({ url: `/api/audit-events?target_type=user&target_id=${memberId}`, headers });
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json<{ items: AuditEvent[] }>().items.map((event) => event.action);
    };
    expect((await logOf(f.asAdminA)).sort()).toEqual(['users.createStaff', 'users.resetSecondFactor']);
    expect(await logOf(f.asAdminB)).toEqual([]);

    // A superadmin's own events stay the provider's (no client).
    const provider = await recorded('POST', '/users', f.asSuperadmin, {
      email: 'provider.two@example.test',
      first_name: 'Pat',
      last_name: 'Provider',
      role: 'SUPERADMIN',
      password: 'provider-two-password-8',
    });
    expect(provider.event.client_id).toBeNull();
  });
});

describe('a delete', () => {
  it('keeps the client removed as it was (clients.remove): its fields before, nothing after', async () => {
    const made = await ctx.app.inject({
      method: 'POST',
      url: '/api/clients',
      headers: f.asSuperadmin,
      payload: { name: 'Harbor Clinic', cap_id: '24680' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const client = made.json<{ id: string }>();
    const { reply, event } = await recorded('DELETE', `/clients/${client.id}`, f.asSuperadmin);
    expect(reply.statusCode, reply.body).toBe(204);
    expect(event).toMatchObject({ action: 'clients.remove', target_type: 'client', target_id: client.id });
    expect(event.changes).toMatchObject({
      id: { before: client.id, after: null },
      name: { before: 'Harbor Clinic', after: null },
      cap_id: { before: '24680', after: null },
    });
    for (const change of Object.values(event.changes)) expect(change.after).toBeNull();
  });

  it('keeps a project, one case, and a selection of cases as they were', async () => {
    const project = await newProject(ctx, f.asSuperadmin, f.clientA.id, { name: 'Gone Project' });
    const removed = await recorded('DELETE', `/projects/${project.id}`, f.asAdminA);
    expect(removed.reply.statusCode, removed.reply.body).toBe(204);
    expect(removed.event.changes.name).toEqual({ before: 'Gone Project', after: null });
    expect(removed.event.client_id).toBe(f.clientA.id);

    const home = await newProject(ctx, f.asSuperadmin, f.clientA.id);
    const draft = async (name: string) => {
      const reply = await ctx.app.inject({
        method: 'POST',
        url: '/api/cases',
        headers: f.asAdminA,
        payload: { project_id: home.id, name, disease_type_id: home.diseaseTypeId },
      });
      expect(reply.statusCode, reply.body).toBe(201);
      return reply.json<{ id: string }>().id;
    };
    const one = await draft('Fever');
    const single = await recorded('DELETE', `/cases/${one}`, f.asAdminA);
    expect(single.reply.statusCode, single.reply.body).toBe(200);
    expect(single.event.changes).toMatchObject({
      id: { before: one, after: null },
      name: { before: 'Fever', after: null },
    });

    // Several rows: each whole under its id.
    const [a, b] = [await draft('Cough'), await draft('Rash')];
    const both = await recorded('DELETE', `/cases/${a}?${filterQuery({ ids: [a, b] })}`, f.asAdminA);
    expect(both.reply.statusCode, both.reply.body).toBe(200);
    expect(Object.keys(both.event.changes).sort()).toEqual([a, b].sort());
    expect(both.event.changes[a]).toMatchObject({ before: { id: a, name: 'Cough' }, after: null });
    expect(both.event.changes[b]).toMatchObject({ before: { id: b, name: 'Rash' }, after: null });
    expect(
      await ctx.db
        .select({ id: cases.id })
        .from(cases)
        .where(inArray(cases.id, [a, b])),
    ).toEqual([]);
  });

  it('keeps a second factor removed without its credential: an app without its secret, a passkey without its key', async () => {
    const member = await createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id });
    const headers = await bearerFor(ctx.app, member);
    const code = await appSetUp(ctx.db, member.id, ctx.clock.now());
    const [totp] = rowsOf<{ secret: string }>(
      await ctx.db.execute(sql`select secret from totp_factors where user_id = ${member.id}`),
    );
    const app = await recorded('DELETE', '/auth/mfa/totp', headers, { code });
    expect(app.reply.statusCode, app.reply.body).toBe(204);
    expect(app.event).toMatchObject({ action: 'auth.mfaTotpRemove', actor_id: member.id, client_id: f.clientA.id });
    expect(app.event.changes.user_id).toEqual({ before: member.id, after: null });
    expect(app.event.changes.confirmed_at?.after).toBeNull();
    expect(app.event.changes.secret).toBeUndefined();
    expect(JSON.stringify(app.event)).not.toContain(totp!.secret);
    expect(JSON.stringify(app.event)).not.toContain(code);

    const [key] = await ctx.db
      .insert(passkeys)
      .values({
        userId: member.id,
        credentialId: 'credential-id-of-the-test-key',
        publicKey: 'public-key-of-the-test-key',
        name: 'Desk key',
      })
      .returning();
    const passkey = await recorded('DELETE', `/auth/mfa/webauthn/${key!.id}`, headers);
    expect(passkey.reply.statusCode, passkey.reply.body).toBe(204);
    expect(passkey.event).toMatchObject({
      action: 'auth.mfaPasskeyRemove',
      target_type: 'passkey',
      target_id: key!.id,
    });
    expect(passkey.event.changes.name).toEqual({ before: 'Desk key', after: null });
    expect(JSON.stringify(passkey.event)).not.toContain('credential-id-of-the-test-key');
    expect(JSON.stringify(passkey.event)).not.toContain('public-key-of-the-test-key');
  });

  it('of every kind the contract has keeps its before state: the row its path names, or the rows its service picks', () => {
    // The route matrix calls each of them and checks the before state of every one it records.
    const uncovered: string[] = [];
    for (const [tableName, table] of Object.entries(contract)) {
      if (!tableName.endsWith('Routes') || typeof table !== 'object' || table === null) continue;
      for (const [key, definition] of Object.entries(table as Record<string, RouteDefinition>)) {
        if (definition.method !== 'DELETE' && !/^(remove|delete)/.test(key)) continue;
        const name = definition.audit?.name ?? `${definition.method} ${definition.path}`;
        if (!removesNamedRow(definition) && !serviceNamedRemovals.has(name) && !removalsOfNoRow.has(name)) {
          uncovered.push(`${name} (${definition.method} ${definition.path})`);
        }
      }
    }
    expect(uncovered).toEqual([]);
  });
});
