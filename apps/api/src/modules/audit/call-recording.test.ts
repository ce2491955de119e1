import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { CaseDocument } from '@pss/contract';
import { rowsOf } from '../../db/client.js';
import { contentOf, casesSetup } from '../../../test/case-calls.js';
import { createUser, TEST_PASSWORD } from '../../../test/test-app.js';
import { sealAuditChain } from './audit-chain.js';
import { verifyAuditChain } from './audit-verify.js';

const { assignParticipant, createDraft, ctx, f, call, projectA } = casesSetup();

/**
 * Calls recorded as they happen: each change with its event in its own transaction (the
 * fields before and after, who, what, whose), a refused sign-in with its refusal, a download
 * as it starts — and a change that rolls back leaves no event, an event that cannot be
 * written no change.
 */

interface EventRow {
  action: string;
  actor_id: string | null;
  actor_email: string | null;
  actor_role: string;
  target_type: string | null;
  target_id: string | null;
  project_id: string | null;
  client_id: string | null;
  request_id: string | null;
  outcome: string;
  changes: Record<string, { before: unknown; after: unknown }>;
}

const eventsOf = async (requestId: string) =>
  rowsOf<EventRow>(await ctx.db.execute(sql`select * from audit_events where request_id = ${requestId}`));

/** A call with a request id of its own, answering the reply and the events it left. */
async function recorded(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: object, payload?: object) {
  const requestId = `recording-${Math.random().toString(36).slice(2)}`;
  const reply = await ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: { ...headers, 'x-request-id': requestId },
    payload,
  });
  return { reply, events: await eventsOf(requestId) };
}

describe('recording calls', () => {
  it('records a case saved: who, the case, its project and client, and each field changed before and after', async () => {
    const project = await projectA();
    const draft = await createDraft(project, 'Chest pain');
    const { reply, events } = await recorded('PUT', `/cases/${draft.id}`, f.asAdminA, {
      ...contentOf(draft),
      name: 'Chest pain at rest',
      patient_age: 58,
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'cases.update',
      actor_role: 'ADMIN',
      target_type: 'case',
      target_id: draft.id,
      project_id: project.id,
      client_id: f.clientA.id,
      outcome: 'success',
    });
    expect(events[0]!.changes).toEqual({
      name: { before: 'Chest pain', after: 'Chest pain at rest' },
      patient_age: { before: draft.patient_age, after: 58 },
    });
  });

  it('records a participant edited by an administrator (their email above all) under their client', async () => {
    const participant = await createUser(ctx.db, { role: 'USER', clientId: f.clientA.id, firstName: 'Priya' });
    const current = (await call('GET', `/users/${participant.id}`)).json<Record<string, unknown>>();
    const { reply, events } = await recorded('PUT', `/users/${participant.id}`, f.asAdminA, {
      email: 'priya.new@example.org',
      first_name: 'Priya',
      last_name: current.last_name,
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'users.update', target_type: 'user', target_id: participant.id });
    expect(events[0]!.client_id).toBe(f.clientA.id);
    expect(events[0]!.changes.email).toEqual({ before: participant.email, after: 'priya.new@example.org' });
    expect(events[0]!.changes.first_name).toBeUndefined();
  });

  it('records the row before and after for an update whose service says neither (a client renamed, its CAP id cleared)', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/clients',
      headers: f.asSuperadmin,
      payload: { name: 'Harbor Clinic', cap_id: '12345' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const client = created.json<{ id: string }>();
    const { reply, events } = await recorded('PUT', `/clients/${client.id}`, f.asSuperadmin, {
      name: 'Harbour Clinic',
      cap_id: null,
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'clients.update', target_type: 'client', target_id: client.id });
    // Cleared is a change too (a field sent as null), and only what was sent is looked at.
    expect(events[0]!.changes).toEqual({
      name: { before: 'Harbor Clinic', after: 'Harbour Clinic' },
      cap_id: { before: '12345', after: null },
    });

    // The same again changes nothing: no field is recorded.
    const again = await recorded('PUT', `/clients/${client.id}`, f.asSuperadmin, {
      name: 'Harbour Clinic',
      cap_id: null,
    });
    expect(again.reply.statusCode, again.reply.body).toBe(200);
    expect(again.events[0]!.changes).toEqual({});
  });

  it('records the row before and after for updates of a part of a record: notes, a display name, an archive', async () => {
    const project = await projectA();
    const participant = await assignParticipant(project.id, project.seasons['Spring 2026']!);
    const notes = await recorded('PUT', `/users/${participant.id}/${project.id}/notes`, f.asAdminA, {
      notes: 'Called about round 2',
    });
    expect(notes.reply.statusCode, notes.reply.body).toBe(204);
    expect(notes.events).toHaveLength(1);
    expect(notes.events[0]!.changes).toEqual({ notes: { before: null, after: 'Called about round 2' } });

    const named = await recorded('PUT', `/users/${participant.id}/display-name`, f.asAdminA, { display_name: 'Dr P' });
    expect(named.reply.statusCode, named.reply.body).toBeLessThan(300);
    const renamed = await recorded('PUT', `/users/${participant.id}/display-name`, f.asAdminA, {
      display_name: 'Dr Q',
    });
    expect(renamed.events[0]!.changes).toEqual({ display_name: { before: 'Dr P', after: 'Dr Q' } });

    // Nothing sent: every column the call changed, and the time of the save left out.
    const archived = await recorded('POST', `/projects/${project.id}/archive`, f.asSuperadmin);
    expect(archived.reply.statusCode, archived.reply.body).toBe(200);
    const changes = archived.events[0]!.changes;
    expect(Object.keys(changes).length).toBeGreaterThan(0);
    expect(changes.updated_at).toBeUndefined();
    for (const change of Object.values(changes)) expect(change.before).not.toEqual(change.after);
  });

  it('leaves no event for a change refused midway, and no change for an event that cannot be written', async () => {
    const project = await projectA();
    const draft = await createDraft(project, 'Fever');
    // A save the database refuses after the call has begun (disk full, as CASE_NOT_SAVED's test does).
    await ctx.ownerDb.execute(sql`
      create function refuse_case_save() returns trigger language plpgsql as $$
      begin raise exception 'disk full' using errcode = '53100'; end $$`);
    await ctx.ownerDb.execute(
      sql`create trigger refuse_case_save before update on cases for each row execute function refuse_case_save()`,
    );
    const refused = await recorded('PUT', `/cases/${draft.id}`, f.asAdminA, {
      ...contentOf(draft),
      name: 'Fever, refused',
    });
    await ctx.ownerDb.execute(sql`drop trigger refuse_case_save on cases`);
    expect(refused.reply.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.events).toEqual([]);

    // The event's insert fails: the case's save, made before it in the same transaction, goes too.
    await ctx.ownerDb.execute(sql`
      create function refuse_event() returns trigger language plpgsql as $$
      begin raise exception 'no room for the event' using errcode = '53100'; end $$`);
    await ctx.ownerDb.execute(
      sql`create trigger refuse_event before insert on audit_events for each row execute function refuse_event()`,
    );
    const lost = await recorded('PUT', `/cases/${draft.id}`, f.asAdminA, {
      ...contentOf(draft),
      name: 'Fever, unrecorded',
    });
    await ctx.ownerDb.execute(sql`drop trigger refuse_event on audit_events`);
    expect(lost.reply.statusCode).toBeGreaterThanOrEqual(500);
    expect((await call('GET', `/cases/${draft.id}`)).json<CaseDocument>().name).toBe('Fever');

    const saved = await recorded('PUT', `/cases/${draft.id}`, f.asAdminA, {
      ...contentOf(draft),
      name: 'Fever, saved',
    });
    expect(saved.events.map((e) => e.changes.name)).toEqual([{ before: 'Fever', after: 'Fever, saved' }]);
  });

  it('records a refused sign-in with who tried and why, and a sign-in with who came in — never the password', async () => {
    const admin = await createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id });
    const wrong = await recorded(
      'POST',
      '/auth/admin/login',
      {},
      { email: admin.email, password: 'not-the-password-1' },
    );
    expect(wrong.reply.statusCode).toBe(401);
    expect(wrong.events).toHaveLength(1);
    expect(wrong.events[0]).toMatchObject({
      action: 'auth.loginStaff',
      actor_email: admin.email,
      outcome: wrong.reply.json<{ errorCode: string }>().errorCode,
      changes: {},
    });
    const right = await recorded('POST', '/auth/admin/login', {}, { email: admin.email, password: TEST_PASSWORD });
    expect(right.reply.statusCode).toBe(200);
    expect(right.events).toHaveLength(1);
    expect(right.events[0]).toMatchObject({ action: 'auth.loginStaff', actor_id: admin.id, outcome: 'success' });
    const text = JSON.stringify([...wrong.events, ...right.events]);
    expect(text).not.toContain('not-the-password-1');
    expect(text).not.toContain(TEST_PASSWORD);
    expect(text).not.toContain(right.reply.json<{ access_token: string }>().access_token);
  });

  it('records a report downloaded: who took which project’s data', async () => {
    const project = await projectA();
    const { reply, events } = await recorded('GET', `/reports/${project.id}/project-usage?format=csv`, f.asAdminA);
    expect(reply.statusCode, reply.body).toBe(200);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'reports.projectUsage',
      target_type: 'project',
      target_id: project.id,
      client_id: f.clientA.id,
    });
  });

  it('seals what it records into one chain that holds', async () => {
    await sealAuditChain(ctx.db, ctx.config.auditSigningKey);
    const verdict = await verifyAuditChain(ctx.db, { key: ctx.config.auditSigningKey });
    expect(verdict.ok).toBe(true);
    expect(verdict.checked).toBeGreaterThan(5);
  });
});
