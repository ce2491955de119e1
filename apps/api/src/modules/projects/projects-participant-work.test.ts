import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import type { Project, SeasonInput } from '@pss/contract';
import { rowsOf } from '../../db/client.js';
import {
  caseAnswers,
  cases,
  participantAssignments,
  projects,
  rounds,
  seasons,
  userSeasonRoundCases,
} from '../../db/schema/index.js';
import { createClient, createTestContext, createUser, type TestContext } from '../../../test/test-app.js';
import { participantWork } from '../../../test/participant-work.js';
import type { UserRow } from '../users/users.service.js';

// Between Round 1 (1–14 March) and the season's end: Round 1's cases are published, not active.
let ctx: TestContext;
let clientId: string;
let staff: UserRow;
let work: ReturnType<typeof participantWork>;

beforeAll(async () => {
  ctx = await createTestContext({ now: '2026-03-20T12:00:00Z' });
  clientId = (await createClient(ctx.db, 'Alpha Health')).id;
  staff = await createUser(ctx.db, { role: 'ADMIN', clientId });
  work = participantWork(ctx, staff);
});
afterAll(() => ctx.close());

const n = async (table: typeof caseAnswers | typeof userSeasonRoundCases | typeof participantAssignments) =>
  (await ctx.db.select({ n: count() }).from(table))[0]!.n;

/** What a clinician has done, counted: it must be the same after every refused edit. */
async function workCounts() {
  return {
    assignments: await n(participantAssignments),
    attempts: await n(userSeasonRoundCases),
    answers: await n(caseAnswers),
  };
}

function seasonsOf(project: Project): SeasonInput[] {
  return project.seasons.map((s) => ({
    id: s.id,
    name: s.name,
    rounds: s.rounds.map((r) => ({ number: r.number, start_date: r.start_date, end_date: r.end_date })),
  }));
}

function save(project: Project, changes: Partial<{ name: string; seasons: SeasonInput[] }>) {
  return work.call('PUT', `/projects/${project.id}`, staff, {
    name: project.name,
    status: project.status,
    notes: project.notes,
    disease_types: project.disease_types.map((d) => d.name),
    question_categories: project.question_categories.map((c) => c.name),
    seasons: seasonsOf(project),
    ...changes,
  });
}

const readProject = async (id: string) => (await work.call('GET', `/projects/${id}`)).json<Project>();

describe('saving a project never removes participants’ work', () => {
  it('refuses to remove a season with work, left out or sent without its id, and changes nothing', async () => {
    const { p, doc } = await work.withWork(clientId);
    const before = await workCounts();
    const fall = { name: 'Fall 2026', rounds: [{ number: 1, start_date: '2026-09-01', end_date: '2026-09-30' }] };

    for (const seasonsSent of [
      [fall],
      // The same season again, without its id: a new season, and the old one left out.
      [{ ...seasonsOf(p.project)[0]!, id: undefined }],
    ]) {
      const refused = await save(p.project, { name: 'Renamed', seasons: seasonsSent });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().errorCode).toBe('SEASON_HAS_PARTICIPANT_WORK');
      expect(refused.json().message).toContain('Spring 2026');
      expect(refused.json().details).toEqual({
        seasons: [{ id: p.seasonId, name: 'Spring 2026', rounds: [1, 2, 3, 4] }],
      });
    }
    expect(await workCounts()).toEqual(before);
    const after = await readProject(p.id);
    expect(after.name).toBe(p.project.name);
    expect(after.seasons).toEqual(p.project.seasons);
    const [placed] = await ctx.db.select().from(cases).where(eq(cases.id, doc.id));
    expect(placed).toMatchObject({ seasonId: p.seasonId, roundNumber: 1, status: 'PUBLISHED' });
  });

  it('refuses to remove a round participants are assigned to, keeps round ids, and removes rounds without work', async () => {
    const p = await work.project(clientId);
    await work.publishedCase(p, 1, { name: 'Round one case' });
    const participant = await work.enrol(p, clientId, { first: 1, last: 2 });
    await work.attemptOf(participant, 'Round one case');
    const before = await workCounts();
    const [spring] = seasonsOf(p.project);

    const withoutRound2 = { ...spring!, rounds: spring!.rounds.slice(0, 1) };
    const refused = await save(p.project, { seasons: [withoutRound2] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      errorCode: 'SEASON_HAS_PARTICIPANT_WORK',
      details: { seasons: [{ id: p.seasonId, name: 'Spring 2026', rounds: [2] }] },
    });
    expect(await workCounts()).toEqual(before);
    expect((await readProject(p.id)).seasons[0]!.rounds).toHaveLength(4);

    // Rounds 3 and 4 hold nobody's work: they may go; the kept rounds keep their ids.
    const moved = { ...spring!, rounds: [spring!.rounds[0]!, { ...spring!.rounds[1]!, end_date: '2026-04-30' }] };
    const saved = await save(p.project, { seasons: [moved] });
    expect(saved.statusCode).toBe(200);
    const kept = saved.json<Project>().seasons[0]!.rounds;
    expect(kept.map((r) => [r.number, r.end_date])).toEqual([
      [1, '2026-03-14'],
      [2, '2026-04-30'],
    ]);
    expect(kept.map((r) => r.id)).toEqual(p.project.seasons[0]!.rounds.slice(0, 2).map((r) => r.id));
    expect(await workCounts()).toEqual(before);
  });

  it('removes a season nobody works in; a case placed in it is unplaced, not deleted', async () => {
    const p = await work.project(clientId);
    const doc = await work.publishedCase(p, 1, { name: 'Placed, unassigned' });
    const saved = await save(p.project, {
      seasons: [{ name: 'Fall 2026', rounds: [{ number: 1, start_date: '2026-09-01', end_date: '2026-09-30' }] }],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<Project>().seasons.map((s) => s.name)).toEqual(['Fall 2026']);
    expect(await ctx.db.select().from(seasons).where(eq(seasons.id, p.seasonId))).toHaveLength(0);
    expect(await ctx.db.select().from(rounds).where(eq(rounds.seasonId, p.seasonId))).toHaveLength(0);
    const [row] = await ctx.db.select().from(cases).where(eq(cases.id, doc.id));
    expect(row).toMatchObject({ seasonId: null, status: 'PUBLISHED' });
  });
});

describe('DELETE /api/projects/:id', () => {
  it('refuses a project with cases (drafts included) with 409, not 500, and deletes nothing', async () => {
    const p = await work.project(clientId);
    const draft = await work.call('POST', '/cases', staff, { project_id: p.id, name: 'A draft' });
    expect(draft.statusCode).toBe(201);
    const refused = await work.call('DELETE', `/projects/${p.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errorCode).toBe('ASSOCIATED_ITEMS_DELETE_FORBIDDEN');
    expect((await work.call('GET', `/projects/${p.id}`)).statusCode).toBe(200);
  });

  it('refuses a project with participants’ work', async () => {
    const { p } = await work.withWork(clientId);
    const before = await workCounts();
    const refused = await work.call('DELETE', `/projects/${p.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errorCode).toBe('ASSOCIATED_ITEMS_DELETE_FORBIDDEN');
    expect(await workCounts()).toEqual(before);
  });

  it('deletes a project without cases or participants, with its seasons and rounds', async () => {
    const p = await work.project(clientId);
    expect((await work.call('DELETE', `/projects/${p.id}`)).statusCode).toBe(204);
    expect(await ctx.db.select().from(projects).where(eq(projects.id, p.id))).toHaveLength(0);
    expect(await ctx.db.select().from(seasons).where(eq(seasons.projectId, p.id))).toHaveLength(0);
    expect(await ctx.db.select().from(rounds).where(eq(rounds.seasonId, p.seasonId))).toHaveLength(0);
  });
});

describe('the schema keeps participants’ work', () => {
  it('has no foreign key that deletes assignments, attempts or answers (nor the seasons above them) by cascade', async () => {
    const cascading = rowsOf<{ child: string; name: string }>(
      await ctx.db.execute(sql`
        select conrelid::regclass::text as child, conname as name from pg_constraint
        where contype = 'f' and confdeltype = 'c'
          and conrelid::regclass::text in ('participant_assignments', 'user_season_round_cases', 'case_answers', 'seasons')`),
    );
    expect(cascading).toEqual([]);
  });

  it('indexes assignments and attempts by season', async () => {
    const indexes = rowsOf<{ tablename: string; indexdef: string }>(
      await ctx.db.execute(sql`
        select tablename, indexdef from pg_indexes
        where tablename in ('participant_assignments', 'user_season_round_cases')`),
    );
    for (const table of ['participant_assignments', 'user_season_round_cases']) {
      expect(indexes.some((i) => i.tablename === table && /USING btree \(season_id\b/.test(i.indexdef))).toBe(true);
    }
  });
});
