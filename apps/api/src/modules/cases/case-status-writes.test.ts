import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { cases, userSeasonRoundCases } from '../../db/schema/index.js';
import { createClient, createTestContext, createUser, type TestContext } from '../../../test/test-app.js';
import { participantWork } from '../../../test/participant-work.js';
import { createCasesRepository } from './cases.repository.js';

// The status writes themselves hold the rules, whatever the service checked a moment before.
let ctx: TestContext;
let clientId: string;
let work: ReturnType<typeof participantWork>;
let repository: ReturnType<typeof createCasesRepository>;
const today = '2026-03-20';
const at = new Date('2026-03-20T12:00:00Z');

beforeAll(async () => {
  ctx = await createTestContext({ now: '2026-03-20T12:00:00Z' });
  clientId = (await createClient(ctx.db)).id;
  work = participantWork(ctx, await createUser(ctx.db, { role: 'SUPERADMIN' }));
  repository = createCasesRepository(ctx.db);
});
afterAll(() => ctx.close());

const statusOf = async (id: string) =>
  (await ctx.db.select({ status: cases.status }).from(cases).where(eq(cases.id, id)))[0]!.status;

describe('case status writes', () => {
  it('do not take a case back to draft once an attempt exists, even one made after any check', async () => {
    const p = await work.project(clientId);
    const doc = await work.publishedCase(p, 1, { name: 'Held' });
    const participant = await work.enrol(p, clientId);
    // The attempt appears as a dashboard would make it, with no service check in between.
    await ctx.db.insert(userSeasonRoundCases).values({
      userId: participant.id,
      projectId: p.id,
      caseId: doc.id,
      seasonId: p.seasonId,
      roundNumber: 1,
      unlocksOn: '2026-03-01',
    });
    expect(await repository.unpublish(doc.id, today, at)).toBe(false);
    expect(await statusOf(doc.id)).toBe('PUBLISHED');
  });

  it('publish only the draft that was checked, and save content only into a draft', async () => {
    const p = await work.project(clientId);
    const draft = await work.call('POST', '/cases', undefined, { project_id: p.id, name: 'Edited meanwhile' });
    const id = draft.json<{ id: string }>().id;
    const [row] = await ctx.db.select().from(cases).where(eq(cases.id, id));
    expect(await repository.updateDraft(id, { name: 'Edited' }, at)).toBe(true);
    expect(await repository.publish(id, row!.updatedAt, at)).toBe(false);
    expect(await statusOf(id)).toBe('DRAFT');

    expect(await repository.publish(id, at, at)).toBe(true);
    expect(await repository.updateDraft(id, { name: 'Too late' }, at)).toBe(false);
    const [published] = await ctx.db.select().from(cases).where(eq(cases.id, id));
    expect(published).toMatchObject({ status: 'PUBLISHED', name: 'Edited' });
  });
});
