import { describe, expect, it } from 'vitest';
import type { Paged, Participant } from '@pss/contract';
import { emailSuppressions } from '../../db/schema/index.js';
import { call, expectError, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

const { ctx, f } = twoClientsContext();
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);

/**
 * A project of client A with four participants: Bea's address bounced, Cal unsubscribed from
 * this project's reminders, Dee from another project's only, and Ann's emails all go.
 */
const fixture = madeBefore(async () => {
  const p = await work.project(f.clientA.id);
  const other = await work.project(f.clientA.id);
  const [ann, bea, cal, dee] = [
    await work.enrol(p, f.clientA.id, {}, { firstName: 'Ann' }),
    await work.enrol(p, f.clientA.id, {}, { firstName: 'Bea' }),
    await work.enrol(p, f.clientA.id, {}, { firstName: 'Cal' }),
    await work.enrol(p, f.clientA.id, {}, { firstName: 'Dee' }),
  ];
  const at = ctx.clock.now();
  await ctx.db.insert(emailSuppressions).values([
    { email: bea!.email.toLowerCase(), reason: 'HARD_BOUNCE', source: 'imap', detail: '5.1.1', at },
    { email: cal!.email.toLowerCase(), projectId: p.id, reason: 'UNSUBSCRIBED', source: 'one-click', at },
    { email: dee!.email.toLowerCase(), projectId: other.id, reason: 'UNSUBSCRIBED', source: 'one-click', at },
  ]);
  return { p, ann: ann!, bea: bea!, cal: cal!, dee: dee! };
});

const listOf = async (projectId: string, filter: object = {}) => {
  const response = await call(
    ctx,
    'GET',
    `/projects/${projectId}/users?limit=100&filter=${encodeURIComponent(JSON.stringify(filter))}`,
    f.asAdminA,
  );
  expect(response.statusCode).toBe(200);
  return response.json<Paged<Participant>>();
};

describe('a participant’s email state in the participants list', () => {
  it('says why no email, or no reminder of this project, goes to them', async () => {
    const { p } = fixture;
    const page = await listOf(p.id);
    const states = Object.fromEntries(page.items.map((row) => [row.first_name, row.email_state]));
    expect(states).toEqual({ Ann: null, Bea: 'HARD_BOUNCE', Cal: 'UNSUBSCRIBED', Dee: null });
  });

  it('filters on it, and counts what the filter leaves', async () => {
    const { p } = fixture;
    const suppressed = await listOf(p.id, { email_state: 'SUPPRESSED' });
    expect(suppressed.items.map((row) => row.first_name).sort()).toEqual(['Bea', 'Cal']);
    expect(suppressed.total).toBe(2);
    const deliverable = await listOf(p.id, { email_state: 'DELIVERABLE' });
    expect(deliverable.items.map((row) => row.first_name).sort()).toEqual(['Ann', 'Dee']);
    expect(deliverable.total).toBe(2);
  });

  it('refuses a state it does not know, and another client’s administrator sees nothing', async () => {
    const { p } = fixture;
    const url = `/projects/${p.id}/users?filter=${encodeURIComponent('{"email_state":"BOUNCED"}')}`;
    expectError(await call(ctx, 'GET', url, f.asAdminA), 400, 'VALIDATION_ERROR');
    const other = await call(ctx, 'GET', `/projects/${p.id}/users?filter={"email_state":"SUPPRESSED"}`, f.asAdminB);
    expect(other.statusCode).toBe(404);
  });
});
