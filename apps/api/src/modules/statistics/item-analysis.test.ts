import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { CaseDocument, ItemAnalysisRow } from '@pss/contract';
import { cases, projectParticipants, users } from '../../db/schema/index.js';
import { choice, questionOf } from '../../../test/case-bodies.js';
import { call, expectError, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { attachmentName, csvRows, xlsxRows } from '../../../test/report-files.js';
import { participantWork, type WorkProject } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';
import type { UserRow } from '../users/users.service.js';

/**
 * The item analysis against a season worked by hand. Two cases of round 1, each with Q1
 * (A, B necessary; C unnecessary; D appropriate), Q2 (E necessary; F unnecessary) and a
 * free-text question (never analysed). Five participants complete both; what they pick:
 *
 *           Case "Calibrated"        Case "Misleading"
 *   P1      Q1 A B     Q2 E          Q1 A B     Q2 E
 *   P2      Q1 A       Q2 E          Q1 A       Q2 E
 *   P3      Q1 A B C   Q2 F          Q1 A B C   Q2 F
 *   P4      Q1 A B     Q2 F          Q1 A B     Q2 F
 *   P5      Q1 C       Q2 F          Q1 C       Q2 E
 *
 * Full marks (x) and the rest of the case's score (y, the case scored without the question):
 *  Calibrated Q1: x = 1 0 0 1 0, y = Q2 alone = 100 100 0 0 0:   difficulty 2/5,
 *    r = Σ(x−x̄)(y−ȳ) / √(Σ(x−x̄)² Σ(y−ȳ)²) = 20 / √(1.2 × 12,000) = 1/6.
 *  Calibrated Q2: x = 1 1 0 0 0, y = Q1 alone = 100 50 50 100 0:  difficulty 2/5,
 *    r = 30 / √(1.2 × 7,000) = 0.327327.
 *  Misleading Q1: x = 1 0 0 1 0, y = 100 100 0 0 100: difficulty 2/5, r = −20 / 120 = −1/6.
 *  Misleading Q2: x = 1 1 0 0 1, y = 100 50 50 100 0: difficulty 3/5, r = −30 / √8,400 = −0.327327.
 * Neither negative r is flagged: five attempts are too few (item-analysis-flags.test.ts).
 * Choices (of 5): A 4, B 3 (missed by 2/5: often missed), C 2 (unnecessary, 2/5: often
 * chosen), D 0; Calibrated E 2 (missed by 3/5), F 3 (3/5); Misleading E 3, F 2.
 * A sixth participant who only started, an archived one and a test user who completed are
 * not counted.
 */
const { ctx, f } = twoClientsContext({ now: '2026-03-01T12:00:00Z' });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const adminA = madeBefore(() => createUser(ctx.db, { role: 'ADMIN', clientId: f.clientA.id }));
const adminB = madeBefore(() => createUser(ctx.db, { role: 'ADMIN', clientId: f.clientB.id }));
const work = participantWork(ctx, staff);

const picks: Record<string, [string[], string[]][]> = {
  Calibrated: [
    [['A', 'B'], ['E']],
    [['A'], ['E']],
    [['A', 'B', 'C'], ['F']],
    [['A', 'B'], ['F']],
    [['C'], ['F']],
  ],
  Misleading: [
    [['A', 'B'], ['E']],
    [['A'], ['E']],
    [['A', 'B', 'C'], ['F']],
    [['A', 'B'], ['F']],
    [['C'], ['E']],
  ],
};

async function itemCase(p: WorkProject, name: string): Promise<CaseDocument> {
  return work.publishedCase(p, 1, {
    name,
    groupers: [],
    details_sections: [],
    questions: [
      questionOf(p, {
        type: 'MULTI_MANY',
        text: 'Q1',
        choices: [
          choice('A', 'NECESSARY'),
          choice('B', 'NECESSARY'),
          choice('C', 'UNNECESSARY'),
          choice('D', 'APPROPRIATE'),
        ],
      }),
      questionOf(p, { type: 'MULTI_ONE', text: 'Q2', choices: [choice('E', 'NECESSARY'), choice('F', 'UNNECESSARY')] }),
      questionOf(p, { type: 'TEXT', text: 'Q3', required: false }),
    ],
  });
}

/** The participant picks the choices named (by their texts), question by question, and submits. */
async function answer(user: UserRow, doc: CaseDocument, chosen: string[][], submit = true): Promise<void> {
  const attemptId = await work.attemptOf(user, doc.name);
  for (const [index, texts] of chosen.entries()) {
    const question = doc.questions[index]!;
    const choice_ids = texts.map((text) => question.choices.find((c) => c.text === text)!.id);
    expect(
      (await work.call('POST', `/cases/${attemptId}/answer`, user, { question_id: question.id, choice_ids }))
        .statusCode,
    ).toBe(200);
  }
  if (submit) expect((await work.call('POST', `/cases/${attemptId}/submit`, user)).statusCode).toBe(200);
}

const fixture = madeBefore(async () => {
  const p = await work.project(f.clientA.id, { name: 'Item Analysis Program' });
  const docs = { Calibrated: await itemCase(p, 'Calibrated'), Misleading: await itemCase(p, 'Misleading') };
  ctx.clock.set('2026-03-03T10:00:00Z');
  const five: UserRow[] = [];
  for (let i = 0; i < 5; i++) {
    const user = await work.enrol(p, f.clientA.id);
    five.push(user);
    for (const name of ['Calibrated', 'Misleading'] as const) await answer(user, docs[name], picks[name]![i]!);
  }
  // A copy of Calibrated in round 2, answered again by the same five: Q1 right by all.
  const copy = await work.call('POST', `/cases/${docs.Calibrated.id}/duplicate`, staff, { name: 'Calibrated again' });
  expect(copy.statusCode, copy.body).toBe(201);
  const copyId = copy.json<CaseDocument>().id;
  await ctx.db.update(cases).set({ seasonId: p.seasonId, roundNumber: 2 }).where(eq(cases.id, copyId));
  expect((await work.call('POST', `/cases/${copyId}/status`, staff, { status: 'PUBLISHED' })).statusCode).toBe(200);
  const again = (await work.call('GET', `/cases/${copyId}`, staff)).json<CaseDocument>();
  ctx.clock.set('2026-03-16T10:00:00Z');
  for (const [i, user] of five.entries()) await answer(user, again, [['A', 'B'], picks.Calibrated![i]![1]]);
  const starter = await work.enrol(p, f.clientA.id);
  await answer(starter, docs.Calibrated, [['D'], ['F']], false);
  const archived = await work.enrol(p, f.clientA.id);
  await answer(archived, docs.Calibrated, [['D'], ['F']]);
  await ctx.db.update(projectParticipants).set({ archived: true }).where(eq(projectParticipants.userId, archived.id));
  const tester = await work.enrol(p, f.clientA.id);
  await answer(tester, docs.Calibrated, [['D'], ['F']]);
  await ctx.db.update(users).set({ role: 'TESTUSER' }).where(eq(users.id, tester.id));
  return { p, season: p.project.seasons[0]!.name };
});

const analysis = (who: UserRow, seasonName = fixture.season) =>
  call(ctx, 'GET', `/statistics/${fixture.p.id}/item-analysis?seasonName=${encodeURIComponent(seasonName)}`, who);

describe('item analysis', () => {
  it('answers difficulty, discrimination, picks and flags as worked by hand', async () => {
    const reply = await analysis(adminA);
    expect(reply.statusCode, reply.body).toBe(200);
    const rows = reply.json<{ items: ItemAnalysisRow[] }>().items;
    const row = (caseName: string, question: string, choiceText: string | null = null) => {
      const found = rows.find(
        (r) => r.case_name === caseName && r.question_text === question && r.choice_text === choiceText,
      );
      expect(found, `${caseName} ${question} ${choiceText}`).toBeDefined();
      return found!;
    };
    // Free-text questions are not analysed; each scored question has its row and its choices'.
    expect(rows.some((r) => r.question_text === 'Q3')).toBe(false);
    expect(rows).toHaveLength(3 * (1 + 4 + 1 + 2));

    const question = (r: ItemAnalysisRow) => ({
      attempts: r.attempts,
      difficulty: r.difficulty,
      discrimination: r.discrimination === null ? null : Number(r.discrimination.toFixed(6)),
      flags: r.flags,
    });
    expect(question(row('Calibrated', 'Q1'))).toEqual({
      attempts: 5,
      difficulty: 0.4,
      discrimination: 0.166667,
      flags: [],
    });
    expect(question(row('Calibrated', 'Q2'))).toEqual({
      attempts: 5,
      difficulty: 0.4,
      discrimination: 0.327327,
      flags: [],
    });
    expect(question(row('Misleading', 'Q1'))).toEqual({
      attempts: 5,
      difficulty: 0.4,
      discrimination: -0.166667,
      // Negative, but five attempts are no evidence (the flag needs 20, and r ≤ −0.43 there).
      flags: [],
    });
    expect(question(row('Misleading', 'Q2'))).toEqual({
      attempts: 5,
      difficulty: 0.6,
      discrimination: -0.327327,
      // Negative, but five attempts are no evidence (the flag needs 20, and r ≤ −0.43 there).
      flags: [],
    });
    expect(row('Calibrated', 'Q1')).toMatchObject({
      choice_id: null,
      chosen: null,
      chosen_rate: null,
      marked_as: null,
    });

    const choiceRow = (caseName: string, q: string, text: string) => {
      const r = row(caseName, q, text);
      return { chosen: r.chosen, chosen_rate: r.chosen_rate, flags: r.flags, difficulty: r.difficulty };
    };
    for (const caseName of ['Calibrated', 'Misleading']) {
      expect(choiceRow(caseName, 'Q1', 'A')).toEqual({ chosen: 4, chosen_rate: 0.8, flags: [], difficulty: null });
      expect(choiceRow(caseName, 'Q1', 'B')).toEqual({
        chosen: 3,
        chosen_rate: 0.6,
        flags: ['OFTEN_MISSED'],
        difficulty: null,
      });
      expect(choiceRow(caseName, 'Q1', 'C')).toEqual({
        chosen: 2,
        chosen_rate: 0.4,
        flags: ['OFTEN_CHOSEN'],
        difficulty: null,
      });
      expect(choiceRow(caseName, 'Q1', 'D')).toEqual({ chosen: 0, chosen_rate: 0, flags: [], difficulty: null });
    }
    expect(choiceRow('Calibrated', 'Q2', 'E')).toMatchObject({ chosen: 2, flags: ['OFTEN_MISSED'] });
    expect(choiceRow('Calibrated', 'Q2', 'F')).toMatchObject({ chosen: 3, flags: ['OFTEN_CHOSEN'] });
    expect(choiceRow('Misleading', 'Q2', 'E')).toMatchObject({ chosen: 3, chosen_rate: 0.6, flags: ['OFTEN_MISSED'] });
    expect(choiceRow('Misleading', 'Q2', 'F')).toMatchObject({ chosen: 2, chosen_rate: 0.4, flags: ['OFTEN_CHOSEN'] });
    expect(row('Misleading', 'Q2', 'F')).toMatchObject({
      marked_as: 'UNNECESSARY',
      round_number: 1,
      question_position: 2,
    });

    // The copy in round 2, against the original in round 1: Q1 from 2/5 to 5/5 with full
    // marks (+0.6), B picked by 5 instead of 3 (+0.4), C by none instead of 2 (−0.4); Q2 alike.
    const change = (caseName: string, q: string, choiceText: string | null = null) => {
      const value = row(caseName, q, choiceText).change;
      return value === null ? null : Number(value.toFixed(6));
    };
    expect(question(row('Calibrated again', 'Q1'))).toEqual({
      attempts: 5,
      difficulty: 1,
      discrimination: null,
      flags: ['ALMOST_ALL_RIGHT'],
    });
    expect(change('Calibrated again', 'Q1')).toBe(0.6);
    expect(change('Calibrated again', 'Q1', 'A')).toBe(0.2);
    expect(change('Calibrated again', 'Q1', 'B')).toBe(0.4);
    expect(change('Calibrated again', 'Q1', 'C')).toBe(-0.4);
    expect(change('Calibrated again', 'Q1', 'D')).toBe(0);
    expect(change('Calibrated again', 'Q2')).toBe(0);
    // Nothing earlier to compare with: the originals, and a case of its own.
    expect(change('Calibrated', 'Q1')).toBeNull();
    expect(change('Calibrated', 'Q1', 'B')).toBeNull();
    expect(change('Misleading', 'Q1')).toBeNull();
  });

  it('downloads as CSV and XLSX with the same rows', async () => {
    const file = (format: string, who: UserRow = adminA) =>
      call(
        ctx,
        'GET',
        `/reports/${fixture.p.id}/item-analysis?seasonName=${encodeURIComponent(fixture.season)}&format=${format}`,
        who,
      );
    const csv = await file('csv');
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = csvRows(csv);
    expect(rows[0]).toEqual([
      'Round',
      'Case',
      'Question',
      'Question text',
      'Choice',
      'Marked as',
      'Completed attempts',
      'Chosen',
      'Chosen (%)',
      'Full marks (%)',
      'Discrimination',
      'Change since the first round (points)',
      'Flags',
    ]);
    expect(rows).toContainEqual(['1', 'Misleading', '1', 'Q1', '', '', '5', '', '', '40', '-0.167', '', '']);
    expect(rows).toContainEqual([
      '1',
      'Calibrated',
      '1',
      'Q1',
      'B',
      'NECESSARY',
      '5',
      '3',
      '60',
      '',
      '',
      '',
      'OFTEN_MISSED',
    ]);
    expect(rows).toContainEqual([
      '2',
      'Calibrated again',
      '1',
      'Q1',
      'C',
      'UNNECESSARY',
      '5',
      '0',
      '0',
      '',
      '',
      '-40',
      '',
    ]);
    expect(rows).toHaveLength(1 + 24);
    expect(attachmentName(csv)).toMatch(/^Item-Analysis-Program-.*-item-analysis-\d{4}-\d{2}-\d{2}\.csv$/);
    const xlsx = await file('xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(await xlsxRows(xlsx)).toEqual(rows);
    expectError(await file('csv', adminB), 404, 'PROJECT_NOT_FOUND');
  });

  it('is refused to another client’s administrator, for a season the project lacks, and without a season', async () => {
    expectError(await analysis(adminB), 404, 'PROJECT_NOT_FOUND');
    expectError(await analysis(adminA, 'Winter 1999'), 404, 'NOT_FOUND');
    expectError(
      await call(ctx, 'GET', `/statistics/${fixture.p.id}/item-analysis`, adminA),
      400,
      'REQUIRED_PARAMETER_MISSING',
    );
    const participant = await work.enrol(fixture.p, f.clientA.id);
    expect((await analysis(participant)).statusCode).toBe(403);
  });
});
