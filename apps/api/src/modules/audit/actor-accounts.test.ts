import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AuditEvent } from '@pss/contract';
import { rowsOf } from '../../db/client.js';
import { call, twoClientsContext } from '../../../test/kit.js';
import { createUser, TEST_PASSWORD } from '../../../test/test-app.js';
import { appendAuditEvents, sealAuditChain } from './audit-chain.js';

/**
 * Who an event is of, as the log names them (the wire's `account`): the actor's account; for
 * a step before a session that recorded no actor, the account the event names — read beside
 * the sealed events, never written into them.
 */
const { ctx, f } = twoClientsContext();

const eventsOf = async (query: string, caller: object = f.asSuperadmin) => {
  const reply = await call(ctx, 'GET', `/audit-events?${query}`, caller);
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json<{ items: AuditEvent[] }>().items;
};

describe('an event’s account', () => {
  it('names who signed in: a staff member’s sign-in and a participant’s, by their names', async () => {
    const admin = await createUser(ctx.db, {
      role: 'ADMIN',
      clientId: f.clientA.id,
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: admin.email, password: TEST_PASSWORD },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const [event] = await eventsOf(`action=auth.loginStaff&actor_id=${admin.id}`);
    expect(event!.account).toEqual({ id: admin.id, name: 'Ada Lovelace', email: admin.email, role: 'ADMIN' });
    // Their client's administrators read it with the name too.
    const [theirs] = await eventsOf(`action=auth.loginStaff&actor_id=${admin.id}`, f.asAdminA);
    expect(theirs!.account?.name).toBe('Ada Lovelace');

    const participant = await createUser(ctx.db, {
      role: 'USER',
      clientId: f.clientA.id,
      firstName: 'Priya',
      lastName: 'Natarajan',
    });
    const participantSignIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login/user',
      payload: { email: participant.email, password: TEST_PASSWORD },
    });
    expect(participantSignIn.statusCode, participantSignIn.body).toBe(200);
    const [mine] = await eventsOf(`action=auth.loginParticipant&actor_id=${participant.id}`);
    expect(mine!.account).toMatchObject({ name: 'Priya Natarajan', role: 'USER' });
  });

  it('derives the account of a step recorded with no actor from the event, leaving the sealed event as it was', async () => {
    const owner = await createUser(ctx.db, { role: 'SUPERADMIN', firstName: 'Dana', lastName: 'Provider' });
    const anonymous = { id: null, email: null, role: 'ANONYMOUS', clientId: null };
    const at = new Date('2025-05-01T08:00:00Z');
    const unknown = 'nobody-here@example.test';
    await ctx.db.transaction((tx) =>
      appendAuditEvents(tx, [
        // An older version's second-factor step: no actor, its member the target.
        { at, actor: anonymous, action: 'auth.mfaVerify', target: { type: 'user', id: owner.id }, requestId: 'old-1' },
        // A refused sign-in: the address given, of an account, and of none.
        {
          at,
          actor: { ...anonymous, email: owner.email.toUpperCase() },
          action: 'auth.loginSuperadmin',
          requestId: 'old-2',
          outcome: 'INCORRECT_PASSWORD',
        },
        {
          at,
          actor: { ...anonymous, email: unknown },
          action: 'auth.loginSuperadmin',
          requestId: 'old-3',
          outcome: 'INCORRECT_PASSWORD',
        },
        // A minute's count of refusals, and the app's own lock of the account: no one's.
        { at, actor: anonymous, action: 'auth.loginStaff', requestId: 'old-4', outcome: 'TOO_MANY_REQUESTS' },
        {
          at,
          actor: { ...anonymous, role: 'SYSTEM' },
          action: 'auth.accountLocked',
          target: { type: 'user', id: owner.id },
          requestId: 'old-5',
        },
      ]),
    );
    await sealAuditChain(ctx.db, ctx.config.auditSigningKey);

    const items = await eventsOf('from=2025-05-01T00:00:00Z&to=2025-05-02T00:00:00Z');
    const byRequest = new Map(items.map((e) => [e.request_id, e]));
    const dana = { id: owner.id, name: 'Dana Provider', email: owner.email, role: 'SUPERADMIN' };
    expect(byRequest.get('old-1')!.account).toEqual(dana);
    expect(byRequest.get('old-2')!.account).toEqual(dana);
    expect(byRequest.get('old-3')!.account).toBeNull();
    expect(byRequest.get('old-4')!.account).toBeNull();
    expect(byRequest.get('old-5')!.account).toBeNull();
    // As recorded: no actor on the events themselves (the trail is never rewritten).
    expect(byRequest.get('old-1')!.actor).toEqual({ id: null, email: null, role: 'ANONYMOUS', client_id: null });
    expect(byRequest.get('old-3')!.actor.email).toBe(unknown);
    const rows = rowsOf<{ actor_id: string | null }>(
      await ctx.db.execute(sql`select actor_id from audit_events where request_id in ('old-1', 'old-2')`),
    );
    expect(rows.map((r) => r.actor_id)).toEqual([null, null]);
  });
});
