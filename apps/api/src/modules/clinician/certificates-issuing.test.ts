import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { CaseDocument } from '@pss/contract';
import { certificates, users } from '../../db/schema/index.js';
import type { UserRow } from '../users/users.service.js';
import { perfectAnswers } from '../../../test/case-bodies.js';
import { madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork, type WorkProject } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

/**
 * CME certificates are issued in the submit that reaches a CME's minimum of completed cases
 * (db/certificates.ts): once per CME and participant, with what it certifies copied onto it,
 * also when a participant's submits race.
 */
const { ctx, f } = twoClientsContext({ now: '2026-03-03T10:00:00Z' });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);

const fixture = madeBefore(async () => {
  const p = await work.project(f.clientA.id, { name: 'Heart Failure CME' });
  const docs: CaseDocument[] = [];
  for (const name of ['One', 'Two', 'Three']) docs.push(await work.publishedCase(p, 1, { name }));
  for (const body of [
    { min_cases: 2, credits: 1.5, moc: true, totera_course_id: 'HF-101' },
    { min_cases: 3, credits: 3, moc: false },
  ]) {
    const created = await work.call('POST', '/cmes', staff, { project_id: p.id, ...body });
    expect(created.statusCode, created.body).toBe(201);
  }
  return { p, docs };
});

/** Starts and answers a case (all right) without submitting: its attempt's id. */
async function readyToSubmit(user: UserRow, doc: CaseDocument): Promise<string> {
  const attemptId = await work.attemptOf(user, doc.name);
  for (const answer of perfectAnswers(doc)) {
    expect((await work.call('POST', `/cases/${attemptId}/answer`, user, answer)).statusCode).toBe(200);
  }
  return attemptId;
}

const certificatesOf = (user: UserRow) =>
  ctx.db.select().from(certificates).where(eq(certificates.userId, user.id)).orderBy(certificates.minCases);

async function enrol(p: WorkProject, firstName = 'Ada') {
  return work.enrol(p, f.clientA.id, {}, { firstName, lastName: 'Lovelace' });
}

describe('CME certificates', () => {
  it('are issued once each, in the submit that reaches the minimum, with what they certify', async () => {
    const { p, docs } = fixture;
    const ada = await enrol(p);
    await work.complete(ada, docs[0]!);
    expect(await certificatesOf(ada)).toEqual([]);

    ctx.clock.set('2026-03-04T09:30:00Z');
    await work.complete(ada, docs[1]!);
    const [first, ...none] = await certificatesOf(ada);
    expect(none).toEqual([]);
    expect(first).toMatchObject({
      projectId: p.id,
      participantName: 'Ada Lovelace',
      projectName: 'Heart Failure CME',
      clientName: f.clientA.name,
      credits: 1.5,
      mocPoints: 1.5,
      courseId: 'HF-101',
      minCases: 2,
      issuedAt: new Date('2026-03-04T09:30:00Z'),
      revokedAt: null,
    });
    expect(first!.code).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){4}[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(first!.cases.map((c) => c.case_name)).toEqual(['One', 'Two']);

    // Submitting a completed case again issues nothing; the third completion earns the second CME.
    const again = await work.call('POST', `/cases/${await work.attemptOf(ada, 'Two')}/submit`, ada);
    expect(again.statusCode).toBe(200);
    expect(await certificatesOf(ada)).toHaveLength(1);
    await work.complete(ada, docs[2]!);
    const both = await certificatesOf(ada);
    expect(both.map((c) => [c.minCases, c.credits, c.mocPoints])).toEqual([
      [2, 1.5, 1.5],
      [3, 3, null],
    ]);
    expect(both[0]).toEqual(first);
    expect(both[1]!.code).not.toBe(first!.code);
  });

  it('are issued exactly once when a participant’s submits race', async () => {
    const { p, docs } = fixture;
    for (let round = 0; round < 3; round++) {
      const user = await enrol(p, `Racer${round}`);
      const attempts = [];
      for (const doc of docs) attempts.push(await readyToSubmit(user, doc));
      // All three at once: the one that completes the second case earns the first CME, the
      // one that completes the third the second; neither twice.
      const replies = await Promise.all(attempts.map((id) => work.call('POST', `/cases/${id}/submit`, user)));
      expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      expect((await certificatesOf(user)).map((c) => c.minCases)).toEqual([2, 3]);
    }
  });

  it('are issued at once to those who already reach a CME created or lowered after their cases', async () => {
    const { p, docs } = fixture;
    const grace = await enrol(p, 'Grace');
    await work.complete(grace, docs[0]!);
    expect(await certificatesOf(grace)).toEqual([]);
    ctx.clock.set('2026-03-05T08:00:00Z');
    const created = await work.call('POST', '/cmes', staff, {
      project_id: p.id,
      min_cases: 1,
      credits: 0.5,
      moc: false,
    });
    expect(created.statusCode, created.body).toBe(201);
    const early = (await certificatesOf(grace)).filter((c) => c.cmeId === created.json<{ id: string }>().id);
    expect(early.map((c) => [c.minCases, c.credits, c.issuedAt.toISOString()])).toEqual([
      [1, 0.5, '2026-03-05T08:00:00.000Z'],
    ]);

    // Lowering the 3-case CME to 1 issues it too; raising it again takes nothing back.
    const three = (await work.call('GET', `/cmes/${p.id}`, staff))
      .json<{ items: { id: string; min_cases: number }[] }>()
      .items.find((c) => c.min_cases === 3)!;
    const body = { min_cases: 1, credits: 3, moc: false };
    expect((await work.call('PUT', `/cmes/${three.id}`, staff, body)).statusCode).toBe(200);
    expect((await certificatesOf(grace)).filter((c) => c.cmeId === three.id)).toHaveLength(1);
    expect((await work.call('PUT', `/cmes/${three.id}`, staff, { ...body, min_cases: 3 })).statusCode).toBe(200);
    expect((await certificatesOf(grace)).filter((c) => c.cmeId === three.id)).toHaveLength(1);
    // Grace holds the new 1-case CME's certificate and the lowered one's, nothing else.
    expect(await certificatesOf(grace)).toHaveLength(2);
  });

  it('are not issued to test users', async () => {
    const { p, docs } = fixture;
    const tester = await enrol(p, 'Tess');
    await ctx.db.update(users).set({ role: 'TESTUSER' }).where(eq(users.id, tester.id));
    for (const doc of docs) await work.complete(tester, doc);
    expect(await certificatesOf(tester)).toEqual([]);
  });
});
