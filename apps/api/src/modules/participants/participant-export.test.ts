import { beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import Papa from 'papaparse';
import type { ImportJob } from '@pss/contract';
import { participantAssignments, projectParticipants, users } from '../../db/schema/index.js';

import { newProject, twoClientsContext } from '../../../test/kit.js';
import { multipartFile, spring2026 } from '../../../test/fixtures.js';
import { PARTICIPANT_ALL_COLUMNS } from './participant-rows.js';

/* The participant export is the import's file: exported, edited and imported again, it
   changes exactly what was edited. */

let projectId: string;

const seasons = [
  spring2026,
  {
    name: 'Autumn 2026',
    rounds: [
      { number: 1, start_date: '2026-09-01', end_date: '2026-09-14' },
      { number: 2, start_date: '2026-09-15', end_date: '2026-09-28' },
    ],
  },
];

// Every column, blank ones, values a spreadsheet would take for formulas, a clinician in
// two seasons, one in none, rounds given as one number, and a start date of their own.
const FILE = [
  PARTICIPANT_ALL_COLUMNS.join(','),
  'E-1,Dr.,Ana,García,ana@example.org,USER,MD,ana.home@example.org,+1 555 0100,1234567890,P-77,"Northwind, Cardiology",Cardiology,Lee,Park,lee@example.org,Attending,Spring 2026,1-4,',
  'E-1,Dr.,Ana,García,ana@example.org,USER,MD,ana.home@example.org,+1 555 0100,1234567890,P-77,"Northwind, Cardiology",Cardiology,Lee,Park,lee@example.org,Attending,Autumn 2026,2,2026-09-20',
  'E-2,Mr.,-Ben,=Smith,ben@example.org,HALFUSER,AS,,,,,,,,,,,Spring 2026,2-3,2026-03-20',
  // (An import reads an apostrophe before =, +, - or @ as the export's guard: `''=quoted` is `'=quoted`.)
  "E-3,Ms.,@Cara,''=quoted,cara@example.org,TESTUSER,DO,,,,,,,,,,,,,",
  '+44,Prof.,Dan,"O\'Neill; Jr.",dan@example.org,USER,MSW,,-5,,,=SUM(A1),,,,,-,Autumn 2026,1-2,',
].join('\r\n');

const { ctx, f } = twoClientsContext();

beforeAll(async () => {
  projectId = (await newProject(ctx, f.asSuperadmin, f.clientA.id, { name: 'Round trip', seasons })).id;
  const job = await importFile(FILE);
  expect(job.errors).toEqual([]);
  expect(job.state).toBe('COMPLETE');
});

async function importFile(content: string): Promise<ImportJob> {
  const file = multipartFile(content, 'participants.csv');
  const queued = await ctx.app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/upload`,
    headers: { ...f.asAdminA, ...file.headers },
    payload: file.payload,
  });
  expect(queued.statusCode).toBe(202);
  await ctx.app.imports.runPending();
  const latest = await ctx.app.inject({ method: 'GET', url: `/api/projects/${projectId}/import`, headers: f.asAdminA });
  return latest.json<ImportJob>();
}

async function exported(): Promise<string> {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/projects/${projectId}/export`,
    headers: f.asAdminA,
  });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/csv');
  return response.body;
}

/** Everything an import could change: the client's users, the project's participants and assignments. */
async function state() {
  return {
    users: await ctx.db.select().from(users).where(eq(users.clientId, f.clientA.id)).orderBy(asc(users.email)),
    participants: await ctx.db
      .select()
      .from(projectParticipants)
      .where(eq(projectParticipants.projectId, projectId))
      .orderBy(asc(projectParticipants.userId)),
    assignments: await ctx.db
      .select()
      .from(participantAssignments)
      .where(eq(participantAssignments.projectId, projectId))
      .orderBy(asc(participantAssignments.userId), asc(participantAssignments.seasonId)),
  };
}

/** The file as a spreadsheet would save it after one edit: cells as text, apostrophes kept. */
function edit(csv: string, change: (rows: string[][]) => void): string {
  const rows = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
  change(rows);
  return Papa.unparse(rows, { newline: '\r\n' });
}

describe('the participant export', () => {
  it('has the import’s columns under its names, then the project’s, one row per season assignment', async () => {
    const rows = Papa.parse<string[]>((await exported()).replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual([...PARTICIPANT_ALL_COLUMNS, 'data_status', 'archived', 'notes', 'added_at']);
    const byEmail = (email: string) => rows.filter((r) => r[4] === email);
    expect(byEmail('ana@example.org').map((r) => r.slice(0, 20))).toEqual([
      [
        'E-1',
        'Dr.',
        'Ana',
        'García',
        'ana@example.org',
        'USER',
        'MD',
        'ana.home@example.org',
        "'+1 555 0100",
        '1234567890',
        'P-77',
        'Northwind, Cardiology',
        'Cardiology',
        'Lee',
        'Park',
        'lee@example.org',
        'Attending',
        'Spring 2026',
        '1-4',
        '2026-03-01',
      ],
      expect.arrayContaining(['Autumn 2026', '2', '2026-09-20']),
    ]);
    // Formulas are guarded; a value that already began with an apostrophe gets one more.
    expect(byEmail('ben@example.org')[0]!.slice(2, 4)).toEqual(["'-Ben", "'=Smith"]);
    expect(byEmail('cara@example.org')[0]!.slice(2, 4)).toEqual(["'@Cara", "''=quoted"]);
    expect(byEmail('cara@example.org')[0]!.slice(17, 20)).toEqual(['', '', '']);
    expect(byEmail('dan@example.org')[0]![0]).toBe("'+44");
  });

  it('imported again unchanged, changes nothing', async () => {
    const before = await state();
    const job = await importFile(await exported());
    expect(job).toMatchObject({ state: 'COMPLETE', errors: [] });
    expect(await state()).toEqual(before);
    // Spot checks of what "nothing" covers: values the export guarded read back as they were.
    const ben = before.users.find((u) => u.email === 'ben@example.org')!;
    expect([ben.firstName, ben.lastName]).toEqual(['-Ben', '=Smith']);
    const cara = before.users.find((u) => u.email === 'cara@example.org')!;
    expect([cara.firstName, cara.lastName]).toEqual(['@Cara', "'=quoted"]);
    const dan = before.users.find((u) => u.email === 'dan@example.org')!;
    expect([dan.employeeId, dan.mobileNumber, dan.facility, dan.userType]).toEqual(['+44', '-5', '=SUM(A1)', '-']);
  });

  it('with one cell edited, changes that field only', async () => {
    const before = await state();
    const file = edit(await exported(), (rows) => {
      const dan = rows.find((r) => r[4] === 'dan@example.org')!;
      dan[11] = 'Southwind Clinic'; // facility
    });
    expect(await importFile(file)).toMatchObject({ state: 'COMPLETE', errors: [] });
    const after = await state();
    const danBefore = before.users.find((u) => u.email === 'dan@example.org')!;
    const danAfter = after.users.find((u) => u.email === 'dan@example.org')!;
    expect(danAfter).toEqual({ ...danBefore, facility: 'Southwind Clinic', updatedAt: danAfter.updatedAt });
    expect(after.users.filter((u) => u !== danAfter)).toEqual(before.users.filter((u) => u.id !== danBefore.id));
    expect(after.participants).toEqual(before.participants);
    expect(after.assignments).toEqual(before.assignments);
  });

  it('with a rounds cell edited, changes that assignment only', async () => {
    const before = await state();
    const file = edit(await exported(), (rows) => {
      const ben = rows.find((r) => r[4] === 'ben@example.org')!;
      ben[18] = '2-4';
    });
    expect(await importFile(file)).toMatchObject({ state: 'COMPLETE', errors: [] });
    const after = await state();
    const benId = before.users.find((u) => u.email === 'ben@example.org')!.id;
    const changed = after.assignments.find((a) => a.userId === benId)!;
    expect(changed).toMatchObject({ firstRound: 2, lastRound: 4, startDate: '2026-03-20' });
    expect(after.assignments.filter((a) => a !== changed)).toEqual(
      before.assignments.filter((a) => a.userId !== benId),
    );
    expect(after.users).toEqual(before.users);
    expect(after.participants).toEqual(before.participants);
  });

  it('refuses a file whose rows of one clinician give different details, changing nothing', async () => {
    const before = await state();
    const file = edit(await exported(), (rows) => {
      const ana = rows.find((r) => r[4] === 'ana@example.org')!; // the first of her two rows
      ana[12] = 'Oncology'; // specialty
    });
    const job = await importFile(file);
    expect(job.state).toBe('ERROR');
    expect(job.errors).toEqual([expect.objectContaining({ errorCode: 'USER_DATA_INVALID' })]);
    expect(await state()).toEqual(before);
  });
});
