import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { EmailSuppression, Paged } from '@pss/contract';
import { auditEvents, emailSuppressions } from '../../db/schema/index.js';
import { call, expectError, filterQuery, fieldsOf, twoClientsContext } from '../../../test/kit.js';
import { projectBody } from '../../../test/fixtures.js';
import { createUser } from '../../../test/test-app.js';

const { ctx, f } = twoClientsContext();

async function participantOf(clientId: string) {
  return createUser(ctx.db, { role: 'USER', clientId });
}

async function suppressed(
  email: string,
  reason: 'HARD_BOUNCE' | 'COMPLAINT' | 'UNSUBSCRIBED' = 'HARD_BOUNCE',
  at = '2026-03-01T08:00:00Z',
) {
  await ctx.db
    .insert(emailSuppressions)
    .values({ email, reason, detail: `550 ${email}`, source: 'ses', at: new Date(at) });
}

const list = async (caller: object, query = '') => {
  const response = await call(ctx, 'GET', `/email-suppressions${query}`, caller);
  expect(response.statusCode).toBe(200);
  return response.json<Paged<EmailSuppression>>();
};

describe('GET /email-suppressions', () => {
  it('lists, pages, sorts, searches and filters; a client’s administrator sees only their own participants’', async () => {
    const a1 = await participantOf(f.clientA.id);
    const a2 = await participantOf(f.clientA.id);
    const b1 = await participantOf(f.clientB.id);
    await suppressed(a1.email, 'HARD_BOUNCE', '2026-03-01T08:00:00Z');
    await suppressed(a2.email, 'COMPLAINT', '2026-03-01T09:00:00Z');
    await suppressed(b1.email, 'HARD_BOUNCE', '2026-03-01T10:00:00Z');
    await suppressed('tester@example.org', 'HARD_BOUNCE', '2026-03-01T11:00:00Z');

    const all = await list(f.asSuperadmin);
    expect(all.total).toBe(4);
    // Newest first.
    expect(all.items.map((i) => i.email)).toEqual(['tester@example.org', b1.email, a2.email, a1.email]);
    expect(all.items[0]).toEqual({
      email: 'tester@example.org',
      reason: 'HARD_BOUNCE',
      detail: '550 tester@example.org',
      at: '2026-03-01T11:00:00.000Z',
      source: 'ses',
      project_id: null,
    });

    const ofA = await list(f.asAdminA);
    expect(ofA.items.map((i) => i.email)).toEqual([a2.email, a1.email]);
    const ofB = await list(f.asAdminB);
    expect(ofB.items.map((i) => i.email)).toEqual([b1.email]);

    const paged = await list(f.asSuperadmin, '?limit=2&page=2&sort=at:ASC');
    expect(paged).toMatchObject({ total: 4, page: 2, limit: 2 });
    expect(paged.items.map((i) => i.email)).toEqual([b1.email, 'tester@example.org']);
    expect((await list(f.asSuperadmin, `?search=${encodeURIComponent(a1.email.toUpperCase())}`)).items).toHaveLength(1);
    expect((await list(f.asAdminB, `?search=${encodeURIComponent(a1.email)}`)).total).toBe(0);
    const complaints = await list(f.asAdminA, `?${filterQuery({ reason: 'COMPLAINT' })}`);
    expect(complaints.items.map((i) => i.email)).toEqual([a2.email]);
  });

  it('refuses a bad sort or filter (VALIDATION_ERROR), anyone not signed in and a participant', async () => {
    expectError(
      await call(ctx, 'GET', '/email-suppressions?sort=password:ASC', f.asSuperadmin),
      400,
      'VALIDATION_ERROR',
    );
    const badFilter = await call(ctx, 'GET', `/email-suppressions?${filterQuery({ reason: 'LOST' })}`, f.asAdminA);
    expectError(badFilter, 400, 'VALIDATION_ERROR');
    expect(fieldsOf(badFilter)).toContain('querystring.filter.reason');
    expectError(await call(ctx, 'GET', '/email-suppressions'), 401, 'NOT_AUTHORIZED');
    const participant = await participantOf(f.clientA.id);
    expectError(await call(ctx, 'GET', '/email-suppressions', participant), 403, 'FORBIDDEN');
  });
});

describe('DELETE /email-suppressions/{email}', () => {
  it('lifts the address-wide suppression, recorded in the audit trail; then there is none (404)', async () => {
    const a = await participantOf(f.clientA.id);
    await suppressed(a.email);
    // The address also unsubscribed from one project's reminders: theirs to undo, it stays.
    const created = await call(ctx, 'POST', '/projects', f.asSuperadmin, projectBody(f.clientA.id));
    const project = created.json<{ id: string }>();
    await ctx.db.insert(emailSuppressions).values({
      email: a.email,
      projectId: project.id,
      reason: 'UNSUBSCRIBED',
      source: 'one-click',
      at: new Date('2026-03-01T08:00:00Z'),
    });
    const path = `/email-suppressions/${encodeURIComponent(a.email.toUpperCase())}`;
    const lifted = await call(ctx, 'DELETE', path, f.asAdminA);
    expect(lifted.statusCode).toBe(204);
    const left = await ctx.db.select().from(emailSuppressions).where(eq(emailSuppressions.email, a.email));
    expect(left.map((r) => r.reason)).toEqual(['UNSUBSCRIBED']);
    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'emailSuppressions.lift'), eq(auditEvents.targetId, a.email)));
    expect(event).toMatchObject({ actorRole: 'ADMIN', targetType: 'email-suppression', outcome: 'success' });
    expect(event!.changes[`suppression of ${a.email}`]).toMatchObject({
      before: { reason: 'HARD_BOUNCE' },
      after: null,
    });
    expectError(await call(ctx, 'DELETE', path, f.asAdminA), 404, 'NOT_FOUND');
  });

  it('tells another client’s administrator 404 and changes nothing; refuses a participant, anyone not signed in and a malformed address', async () => {
    const a = await participantOf(f.clientA.id);
    await suppressed(a.email);
    const path = `/email-suppressions/${encodeURIComponent(a.email)}`;
    expectError(await call(ctx, 'DELETE', path, f.asAdminB), 404, 'NOT_FOUND');
    expectError(await call(ctx, 'DELETE', path), 401, 'NOT_AUTHORIZED');
    expectError(await call(ctx, 'DELETE', path, a), 403, 'FORBIDDEN');
    expectError(
      await call(ctx, 'DELETE', '/email-suppressions/not-an-address', f.asSuperadmin),
      400,
      'VALIDATION_ERROR',
    );
    expect(await ctx.db.select().from(emailSuppressions).where(eq(emailSuppressions.email, a.email))).toHaveLength(1);
    // Provider staff may lift any.
    expect((await call(ctx, 'DELETE', path, f.asSuperadmin)).statusCode).toBe(204);
  });
});

describe('POST /email-suppressions', () => {
  it('suppresses an address by hand (MANUAL); a second time keeps the first; another client’s participant is 404', async () => {
    const a = await participantOf(f.clientA.id);
    const added = await call(ctx, 'POST', '/email-suppressions', f.asAdminA, {
      email: a.email.toUpperCase(),
      detail: 'Left the practice',
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      email: a.email,
      reason: 'MANUAL',
      source: 'admin',
      detail: 'Left the practice',
      project_id: null,
    });
    const again = await call(ctx, 'POST', '/email-suppressions', f.asAdminA, { email: a.email });
    expect(again.json()).toMatchObject({ detail: 'Left the practice' });
    expectError(await call(ctx, 'POST', '/email-suppressions', f.asAdminB, { email: a.email }), 404, 'NOT_FOUND');
    expectError(
      await call(ctx, 'POST', '/email-suppressions', f.asAdminA, { email: 'tester@example.org' }),
      404,
      'NOT_FOUND',
    );
    expect(
      (await call(ctx, 'POST', '/email-suppressions', f.asSuperadmin, { email: 'tester@example.org' })).statusCode,
    ).toBe(201);
    expectError(await call(ctx, 'POST', '/email-suppressions', f.asAdminA, { email: 'nope' }), 400, 'VALIDATION_ERROR');
    expectError(
      await call(ctx, 'POST', '/email-suppressions', f.asAdminA, { email: a.email, extra: 1 }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await call(ctx, 'POST', '/email-suppressions', {}, { email: a.email }), 401, 'NOT_AUTHORIZED');
    expectError(await call(ctx, 'POST', '/email-suppressions', a, { email: a.email }), 403, 'FORBIDDEN');
  });
});
