import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '@pss/contract';
import { call, expectError, fieldIssues, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { createUser } from '../../../test/test-app.js';
import { appendAuditEvents, sealAuditChain, type AuditEventInput } from './audit-chain.js';

/**
 * Reading the audit trail: newest first by cursor, filtered, as a file, and its chain's
 * check — each client administrator reading only their own client's events. The events are
 * appended here directly (what writes them is tested where they are written).
 */
const { ctx, f } = twoClientsContext();
const participant = madeBefore(() => createUser(ctx.db, { role: 'USER' }));

const PROJECT_A = '00000000-0000-4000-8000-00000000a001';
const CASE_A = '00000000-0000-4000-8000-00000000ca01';
const ADMIN_ID = '00000000-0000-4000-8000-0000000000ad';

/** Client A's five events and client B's one, an hour apart from 09:00 on 2 March 2026. */
beforeAll(async () => {
  const at = (hour: number) => new Date(`2025-03-02T${String(hour).padStart(2, '0')}:00:00Z`);
  const actor = { id: ADMIN_ID, email: 'admin@alpha.example', role: 'ADMIN', clientId: f.clientA.id };
  const aEvent = (hour: number, action: string, extra: Partial<AuditEventInput> = {}): AuditEventInput => ({
    at: at(hour),
    actor,
    action,
    clientId: f.clientA.id,
    projectId: PROJECT_A,
    ...extra,
  });
  await ctx.db.transaction((tx) =>
    appendAuditEvents(tx, [
      aEvent(9, 'cases.create', { target: { type: 'case', id: CASE_A } }),
      aEvent(10, 'cases.update', {
        target: { type: 'case', id: CASE_A },
        changes: { name: { before: 'Chest pain', after: 'Chest pain at rest' } },
      }),
      aEvent(11, 'participants.update', { target: { type: 'user', id: ADMIN_ID } }),
      aEvent(12, 'cases.status', { target: { type: 'case', id: CASE_A }, outcome: 'CASE_INVALID_FOR_PUBLISH' }),
      aEvent(13, 'reports.projectUsage'),
      {
        at: at(14),
        actor: { id: null, email: 'admin@bravo.example', role: 'ADMIN', clientId: f.clientB.id },
        action: 'cases.update',
        clientId: f.clientB.id,
      },
    ]),
  );
  await sealAuditChain(ctx.db, ctx.config.auditSigningKey);
});

/**
 * The log up to the end of 2025, unless the query says its own end: the events appended here
 * are of March 2025, and the fixture's own sign-ins (recorded as they happen) come after.
 */
const upTo2026 = (query: string) =>
  query.includes('to=') ? query : `${query}${query ? '&' : '?'}to=2026-01-01T00:00:00Z`;
const list = (query: string, caller: object = f.asSuperadmin) =>
  call(ctx, 'GET', `/audit-events${upTo2026(query)}`, caller);
const page = async (query: string, caller?: object) => {
  const reply = await list(query, caller);
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<{ items: AuditEvent[]; next_cursor: string | null }>();
};

describe('the audit log', () => {
  it('pages every event newest first by cursor, each with its actor, target, changes and hashes', async () => {
    const first = await page('?limit=4');
    expect(first.items.map((e) => e.action)).toEqual([
      'cases.update',
      'reports.projectUsage',
      'cases.status',
      'participants.update',
    ]);
    expect(first.next_cursor).not.toBeNull();
    const second = await page(`?limit=4&cursor=${first.next_cursor}`);
    expect(second.items.map((e) => e.action)).toEqual(['cases.update', 'cases.create']);
    expect(second.next_cursor).toBeNull();

    const update = second.items[0]!;
    expect(update).toMatchObject({
      at: '2025-03-02T10:00:00.000Z',
      actor: { id: ADMIN_ID, email: 'admin@alpha.example', role: 'ADMIN', client_id: f.clientA.id },
      target: { type: 'case', id: CASE_A },
      project_id: PROJECT_A,
      client_id: f.clientA.id,
      changes: { name: { before: 'Chest pain', after: 'Chest pain at rest' } },
      outcome: 'success',
    });
    // Each event links to the one before it.
    expect(second.items[0]!.prev_hash).toBe(second.items[1]!.hash);
    expect(first.items.at(-1)!.prev_hash).toBe(second.items[0]!.hash);
  });

  it('filters by actor, action, target, project and time', async () => {
    const actions = async (query: string) => (await page(query)).items.map((e) => e.action);
    expect(await actions(`?target_type=case&target_id=${CASE_A}`)).toEqual([
      'cases.status',
      'cases.update',
      'cases.create',
    ]);
    expect(await actions('?action=cases.update')).toEqual(['cases.update', 'cases.update']);
    expect(await actions(`?actor_id=${ADMIN_ID}&project_id=${PROJECT_A}&action=cases.update`)).toEqual([
      'cases.update',
    ]);
    expect(await actions('?from=2025-03-02T10:00:00Z&to=2025-03-02T12:00:00Z')).toEqual([
      'participants.update',
      'cases.update',
    ]);
    expect(await actions('?from=2025-03-02T12:30:00%2B01:00&to=2025-03-02T13:30:00Z')).toEqual([
      'reports.projectUsage',
      'cases.status',
    ]);
  });

  it('shows a client administrator only their own client’s events, and no one else anything', async () => {
    const mine = await page('', f.asAdminA);
    expect(mine.items).toHaveLength(5);
    expect(mine.items.every((e) => e.client_id === f.clientA.id)).toBe(true);
    const theirs = await page('', f.asAdminB);
    expect(theirs.items.map((e) => e.client_id)).toEqual([f.clientB.id]);
    // Client A's case, asked for by name: nothing.
    expect((await page(`?target_type=case&target_id=${CASE_A}`, f.asAdminB)).items).toEqual([]);
    expectError(await list('', participant), 403, 'FORBIDDEN');
    expectError(await list('', {}), 401, 'NOT_AUTHORIZED');
  });

  it('finds participants’ answers by their action and their attempt, left out of the indexes of the others', async () => {
    // February 2026: after the other tests' window, so that theirs stay as they were.
    const at = (hour: number) => new Date(`2026-02-02T${String(hour).padStart(2, '0')}:00:00Z`);
    const attempt = { type: 'attempt', id: '00000000-0000-4000-8000-00000000a77e' };
    const clinician = { id: ADMIN_ID, email: 'clinician@alpha.example', role: 'USER', clientId: f.clientA.id };
    await ctx.db.transaction((tx) =>
      appendAuditEvents(tx, [
        { at: at(9), actor: clinician, action: 'attempts.start', target: attempt, clientId: f.clientA.id },
        { at: at(10), actor: clinician, action: 'attempts.answer', target: attempt, clientId: f.clientA.id },
        { at: at(11), actor: clinician, action: 'attempts.answer', target: attempt, clientId: f.clientA.id },
        { at: at(12), actor: clinician, action: 'cases.update', target: { type: 'case', id: CASE_A } },
      ]),
    );
    const window = 'from=2026-02-02T00:00:00Z&to=2026-02-03T00:00:00Z';
    const actions = async (query: string) => (await page(`?${window}&${query}`)).items.map((e) => e.action);
    expect(await actions('action=attempts.answer')).toEqual(['attempts.answer', 'attempts.answer']);
    expect(await actions('action=attempts.start')).toEqual(['attempts.start']);
    expect(await actions(`target_type=attempt&target_id=${attempt.id}`)).toEqual([
      'attempts.answer',
      'attempts.answer',
      'attempts.start',
    ]);
    expect(await actions(`target_type=case&target_id=${CASE_A}`)).toEqual(['cases.update']);
    expect(await actions(`actor_id=${ADMIN_ID}&action=cases.update`)).toEqual(['cases.update']);
  });

  it('refuses bad filters and cursors with a catalogue error', async () => {
    for (const query of [
      '?actor_id=someone',
      '?cursor=abc',
      '?cursor=0',
      '?limit=500',
      '?limit=0',
      '?from=yesterday',
      '?to=2025-03-02',
      '?project_id=00000000',
    ]) {
      expectError(await list(query), 400, 'VALIDATION_ERROR');
    }
    const blank = await list('?action=%20%20');
    expectError(blank, 400, 'VALIDATION_ERROR');
    expect(fieldIssues(blank)).toMatchObject([{ field: 'querystring.action', errorCode: 'BLANK_TEXT' }]);
  });
});

describe('the audit log as a file', () => {
  it('writes the matching events newest first as CSV, or XLSX', async () => {
    const csv = await call(ctx, 'GET', `/audit-events/export?target_type=case&target_id=${CASE_A}`, f.asAdminA);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toContain('audit-log');
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^\uFEFF?Time \(UTC\),Actor email,Actor role,Action,Action \(words\),/);
    expect(lines.slice(1).map((line) => line.split(',')[3])).toEqual(['cases.status', 'cases.update', 'cases.create']);
    // The code kept, its words beside it (an action the words do not know, as it was recorded).
    expect(lines.slice(1).map((line) => line.split(',')[4])).toEqual(['cases.status', 'Edited case', 'Created case']);
    expect(csv.body).toContain('Chest pain at rest');

    const xlsx = await call(ctx, 'GET', '/audit-events/export?format=xlsx', f.asAdminB);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    // Client B's file holds nothing of client A's.
    const bCsv = await call(ctx, 'GET', '/audit-events/export', f.asAdminB);
    expect(bCsv.body).not.toContain(f.clientA.id);
    expect(bCsv.body).toContain(f.clientB.id);
    expectError(await call(ctx, 'GET', '/audit-events/export?format=pdf', f.asAdminA), 400, 'VALIDATION_ERROR');
    expectError(await call(ctx, 'GET', '/audit-events/export', participant), 403, 'FORBIDDEN');
  });
});

describe('checking the chain', () => {
  it('is provider staff’s, and names the events appended here a year back in time', async () => {
    const verdict = await call(ctx, 'GET', '/audit-events/verify', f.asSuperadmin);
    expect(verdict.statusCode).toBe(200);
    // The events appended in this file are dated March 2025, chained after the fixture's sign-ins of
    // March 2026: every seal holds, and each is named as going back in time (as a forgery would).
    const body = verdict.json<{ ok: boolean; checked: number; problems: { kind: string }[] }>();
    expect(body.ok).toBe(false);
    expect(body.problems.length).toBeGreaterThanOrEqual(6);
    expect(new Set(body.problems.map((p) => p.kind))).toEqual(new Set(['TIME_BACKWARDS']));
    expect(body.checked).toBeGreaterThanOrEqual(1);
    expectError(await call(ctx, 'GET', '/audit-events/verify', f.asAdminA), 403, 'FORBIDDEN');
    expectError(await call(ctx, 'GET', '/audit-events/verify', f.asAdminB), 403, 'FORBIDDEN');
    expectError(await call(ctx, 'GET', '/audit-events/verify', participant), 403, 'FORBIDDEN');
    expectError(await call(ctx, 'GET', '/audit-events/verify', {}), 401, 'NOT_AUTHORIZED');
  });

  it('takes the whole chain as JSON lines, each link with the content its seal covers', async () => {
    const reply = await call(ctx, 'GET', '/audit-events/chain', f.asSuperadmin);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = reply.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ format: 'pss-audit-chain', version: 1 });
    const links = lines.slice(1);
    expect(links.map((link) => link.chain_seq)).toEqual(links.map((_, i) => i + 1));
    expect(links.every((link) => link.keyed === true && typeof link.content === 'string')).toBe(true);
    expect(links.map((link) => JSON.parse(link.content as string)[7])).toContain('cases.status');
    for (const caller of [f.asAdminA, f.asAdminB, participant]) {
      expectError(await call(ctx, 'GET', '/audit-events/chain', caller), 403, 'FORBIDDEN');
    }
    expectError(await call(ctx, 'GET', '/audit-events/chain', {}), 401, 'NOT_AUTHORIZED');
  });

  it('lists the checkpoints of this chain newest first, each signed', async () => {
    // A verify writes one only when the chain holds; the sealer writes one a minute.
    const book = await call(ctx, 'GET', '/audit-events/checkpoints?limit=2', f.asSuperadmin);
    expect(book.statusCode).toBe(200);
    const items = book.json<{ items: { chain: string; place: number; signature: string }[] }>().items;
    expect(items.length).toBeLessThanOrEqual(2);
    for (const item of items) expect(item.signature).toMatch(/^[0-9a-f]{64}$/);
    expectError(await call(ctx, 'GET', '/audit-events/checkpoints?limit=0', f.asSuperadmin), 400, 'VALIDATION_ERROR');
    expectError(await call(ctx, 'GET', '/audit-events/checkpoints?limit=x', f.asSuperadmin), 400, 'VALIDATION_ERROR');
    for (const caller of [f.asAdminA, f.asAdminB, participant]) {
      expectError(await call(ctx, 'GET', '/audit-events/checkpoints', caller), 403, 'FORBIDDEN');
    }
    expectError(await call(ctx, 'GET', '/audit-events/checkpoints', {}), 401, 'NOT_AUTHORIZED');
  });
});
