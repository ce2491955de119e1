import { beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { participantAssignments, projectParticipants, projects } from '../../db/schema/index.js';
import { projectBody, spring2026 } from '../../../test/fixtures.js';
import { HEADER, participantsSetup } from '../../../test/participant-calls.js';

const { ctx, f, importFile, list, newProject, userCount } = participantsSetup();

/*
 * Files longer than one batch (the first batch is 2,000 rows). On PostgreSQL each batch is
 * written while the next is read, in the import's one transaction: whatever goes wrong in
 * any batch, nothing of the file may be left. On the embedded database the same files are
 * written at the end, and must answer the same.
 */

const ROWS = 2600;

/** A file of `ROWS` new clinicians assigned to Spring 2026, with some lines replaced. */
function fileOf(replaced: Record<number, string> = {}): string {
  const lines = [HEADER];
  for (let line = 2; line <= ROWS + 1; line++) {
    lines.push(
      replaced[line] ??
        `K-${line},Dr.,First${line},Last${line},k${line}@example.org,USER,MD,Spring 2026,${(line % 4) + 1}-4,`,
    );
  }
  return lines.join('\n');
}

let project: string;

beforeAll(async () => {
  project = await newProject('Batches');
});

/** Everything an import into the project could have left: users, participations, assignments, kept counts. */
async function whatIsThere() {
  const [participations] = await ctx.db
    .select({ n: count() })
    .from(projectParticipants)
    .where(eq(projectParticipants.projectId, project));
  const [assignments] = await ctx.db
    .select({ n: count() })
    .from(participantAssignments)
    .where(eq(participantAssignments.projectId, project));
  const [counts] = await ctx.db
    .select({ active: projects.activeParticipants, notReady: projects.notReadyParticipants })
    .from(projects)
    .where(eq(projects.id, project));
  return {
    users: await userCount(),
    participations: participations!.n,
    assignments: assignments!.n,
    counts,
    listed: (await list(project)).json().total as number,
  };
}

describe('participant import over several batches', () => {
  it.each([
    ['the first batch', 100],
    ['a later batch, after the first was written', 2500],
  ])('a write that fails in %s leaves nothing of the file, and the job says it failed', async (_label, line) => {
    const before = await whatIsThere();
    // A failure only the write can meet (the rows pass every check before it), as an email
    // taken by another account at the same moment would be.
    await ctx.ownerDb.execute(
      sql.raw(`alter table users add constraint import_test_refused check (email <> 'refused@example.org') not valid`),
    );
    try {
      const job = await importFile(
        project,
        fileOf({ [line]: `K-${line},Dr.,Refused,Row,refused@example.org,USER,MD,Spring 2026,1-4,` }),
      );
      expect(job).toMatchObject({ state: 'ERROR', processed_rows: 0 });
      expect(job.errors).toEqual([
        { line: 0, errorCode: 'IMPORT_DATABASE_ERROR', message: 'The import failed because of a database error.' },
      ]);
    } finally {
      await ctx.ownerDb.execute(sql.raw(`alter table users drop constraint import_test_refused`));
    }
    expect(await whatIsThere()).toEqual(before);
  });

  it('a conflict with an existing user in a later batch rolls back what the earlier batches wrote', async () => {
    const other = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/projects',
        headers: f.asSuperadmin,
        payload: projectBody(f.clientB.id, { name: 'Batches B' }),
      })
    ).json().id as string;
    await importFile(other, `${HEADER}\nB-1,Dr.,Bea,Brown,bea.batches@example.org,USER,MD,,,\n`, f.asAdminB);
    const before = await whatIsThere();
    const job = await importFile(
      project,
      fileOf({ 2400: 'K-2400,Dr.,Bea,Brown,bea.batches@example.org,USER,MD,Spring 2026,1-4,' }),
    );
    expect(job).toMatchObject({ state: 'ERROR', total_rows: ROWS });
    expect(job.errors).toEqual([
      {
        line: 2400,
        errorCode: 'EMAIL_ALREADY_EXISTS',
        message: 'Line 2400: this email belongs to another account and cannot be imported here.',
      },
    ]);
    expect(await whatIsThere()).toEqual(before);
  });

  it('an email given again under another user ID in a later batch is rejected, and nothing is written', async () => {
    const before = await whatIsThere();
    const job = await importFile(
      project,
      fileOf({ 2300: 'K-other,Dr.,First50,Last50,k50@example.org,USER,MD,Spring 2026,1-4,' }),
    );
    expect(job.state).toBe('ERROR');
    expect(job.errors).toEqual([
      {
        line: 2300,
        errorCode: 'USER_DATA_INVALID',
        message: 'Line 2300: email k50@example.org is also used by user_id K-50 on line 50.',
      },
    ]);
    expect(await whatIsThere()).toEqual(before);
  });

  it('a clinician on rows of two batches, one per season, is one user with both assignments', async () => {
    const twoSeasons = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/projects',
        headers: f.asSuperadmin,
        payload: projectBody(f.clientA.id, {
          name: 'Batches, two seasons',
          seasons: [
            spring2026,
            {
              ...spring2026,
              name: 'Spring 2027',
              rounds: spring2026.rounds.map((r) => ({
                ...r,
                start_date: r.start_date.replace('2026', '2027'),
                end_date: r.end_date.replace('2026', '2027'),
              })),
            },
          ],
        }),
      })
    ).json().id as string;
    const usersBefore = await userCount();
    // Line 10 has no season (not ready yet); line 2,300 gives the same clinician the second season.
    const job = await importFile(
      twoSeasons,
      fileOf({
        10: 'K-10,Dr.,First10,Last10,k10@example.org,USER,MD,,,',
        2300: 'K-10,Dr.,First10,Last10,k10@example.org,USER,MD,Spring 2027,2-4,',
      }),
    );
    expect(job).toMatchObject({ state: 'COMPLETE', total_rows: ROWS, errors: [] });
    expect(await userCount()).toBe(usersBefore + ROWS - 1);
    const page = (await list(twoSeasons, '?search=k10@example.org')).json();
    expect(page.items).toMatchObject([{ email: 'k10@example.org', data_status: 'READY' }]);
    const assignments = await ctx.db
      .select({ firstRound: participantAssignments.firstRound, startDate: participantAssignments.startDate })
      .from(participantAssignments)
      .where(eq(participantAssignments.userId, page.items[0].user_id));
    expect(assignments).toEqual([{ firstRound: 2, startDate: '2027-03-15' }]);
    expect((await list(twoSeasons)).json().total).toBe(ROWS - 1);
  });
});
