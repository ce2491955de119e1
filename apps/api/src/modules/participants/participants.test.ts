import { beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { importJobs, participantAssignments, projectParticipants, users } from '../../db/schema/index.js';
import { multipartFile } from '../../../test/fixtures.js';
import { HEADER, participantsSetup } from '../../../test/participant-calls.js';
import { newProject as projectMadeBy } from '../../../test/kit.js';

const { ctx, f, importFile, list, newProject, upload, userCount } = participantsSetup();

let projectA: string;
let projectB: string;

beforeAll(async () => {
  projectA = await newProject('Participants A');
  projectB = (await projectMadeBy(ctx, f.asSuperadmin, f.clientB.id, { name: 'Participants B' })).id;
});

describe('participant import', () => {
  it('imports a file from a real spreadsheet: BOM, semicolons, quoted commas and line breaks, accents, CRLF', async () => {
    const file =
      '\uFEFFUser_ID;Salutation;First_Name;Last_Name;Email;Role;Profession;Facility;Season;Rounds;Start_Date\r\n' +
      'E-1;Dr.;José;"Nuñez; Jr.";jose@example.org;USER;MD;"Clinic, North\r\nBuilding 2";Spring 2026;1-4;2026-03-01\r\n' +
      'E-2;Ms.;Zoë;Łukasik;ZOE@Example.org;halfuser;do;;Spring 2026;2-3;\r\n' +
      'E-3;Mr.;Ola;Berg;ola@example.org;TESTUSER;MSW;;;;\r\n';
    const job = await importFile(projectA, file);
    expect(job).toMatchObject({
      kind: 'PARTICIPANTS',
      state: 'COMPLETE',
      total_rows: 3,
      processed_rows: 3,
      errors: [],
    });

    const page = (await list(projectA, '?sort=email:ASC')).json();
    expect(page.total).toBe(3);
    expect(page.items.map((p: { email: string }) => p.email)).toEqual([
      'jose@example.org',
      'ola@example.org',
      'zoe@example.org',
    ]);
    const jose = page.items[0];
    expect(jose).toMatchObject({
      employee_id: 'E-1',
      first_name: 'José',
      last_name: 'Nuñez; Jr.',
      role: 'USER',
      profession: 'MD',
      data_status: 'READY',
      archived: false,
    });
    const ola = page.items[1];
    expect(ola).toMatchObject({ role: 'TESTUSER', data_status: 'NOT_READY' });
    const [facility] = await ctx.db
      .select({ facility: users.facility })
      .from(users)
      .where(eq(users.email, 'jose@example.org'));
    expect(facility!.facility).toBe('Clinic, North\r\nBuilding 2');

    // Rounds 2-3 with no start date start on Round 2's first day.
    const assignments = await ctx.db
      .select()
      .from(participantAssignments)
      .where(eq(participantAssignments.userId, page.items[2].user_id));
    expect(assignments).toMatchObject([{ firstRound: 2, lastRound: 3, startDate: '2026-03-15' }]);
  });

  it('updates assignments and details (here the role) of participants already there', async () => {
    const before = await userCount();
    const job = await importFile(
      projectA,
      `${HEADER}\nE-2,Ms.,Zoë,Łukasik,zoe@example.org,USER,DO,Spring 2026,4,2026-04-12\n`,
    );
    expect(job.state).toBe('COMPLETE');
    expect(await userCount()).toBe(before);
    const zoe = (await list(projectA, '?search=zo')).json().items[0];
    // Name, email, profession and user ID may not change (their own tests); the rest follows the file.
    expect(zoe.role).toBe('USER');
    const assignments = await ctx.db
      .select()
      .from(participantAssignments)
      .where(eq(participantAssignments.userId, zoe.user_id));
    expect(assignments).toMatchObject([{ firstRound: 4, lastRound: 4, startDate: '2026-04-12' }]);
  });

  it('rejects a file with one bad row among 1,000, changes nothing, and lists that row', async () => {
    const before = { users: await userCount(), participants: (await list(projectA)).json().total };
    const lines = [HEADER];
    for (let i = 0; i < 1000; i++) {
      lines.push(
        i === 637
          ? `X-${i},Dr.,,Nobody,x${i}@example.org,USER,MD,Spring 2026,1-4,2026-03-01`
          : `X-${i},Dr.,First${i},Last${i},x${i}@example.org,USER,MD,Spring 2026,1-4,2026-03-01`,
      );
    }
    const job = await importFile(projectA, lines.join('\n'));
    expect(job).toMatchObject({ state: 'ERROR', total_rows: 1000, processed_rows: 0 });
    expect(job.errors).toEqual([
      { line: 639, errorCode: 'FIRST_NAME_REQUIRED', message: 'Line 639: first_name is required.' },
    ]);
    expect(await userCount()).toBe(before.users);
    expect((await list(projectA)).json().total).toBe(before.participants);
  });

  it.each([
    ['a missing column', 'user_id,first_name\nE-9,Ann\n', 1, 'CSV_HEADERS_OR_DELIMITER_INVALID'],
    ['a tab-separated file', HEADER.replaceAll(',', '\t') + '\n', 1, 'CSV_HEADERS_OR_DELIMITER_INVALID'],
    ['an unclosed quote', `${HEADER}\nE-9,Dr.,"A,B,a@example.org,USER,MD,,,\n`, 2, 'CSV_HEADERS_OR_DELIMITER_INVALID'],
    ['a header without rows', `${HEADER}\n`, 1, 'EMPTY_USER_FILE'],
    ['an empty file', '', 1, 'EMPTY_USER_FILE'],
    ['no user_id', `${HEADER}\n,Dr.,A,B,a@example.org,USER,MD,,,\n`, 2, 'USER_ID_REQUIRED'],
    ['no salutation', `${HEADER}\nE-9,,A,B,a@example.org,USER,MD,,,\n`, 2, 'SALUTATION_REQUIRED'],
    ['no last name', `${HEADER}\nE-9,Dr.,A,,a@example.org,USER,MD,,,\n`, 2, 'LAST_NAME_REQUIRED'],
    ['a staff role', `${HEADER}\nE-9,Dr.,A,B,a@example.org,ADMIN,MD,,,\n`, 2, 'ROLE_REQUIRED'],
    ['a bad email', `${HEADER}\nE-9,Dr.,A,B,not-an-email,USER,MD,,,\n`, 2, 'USER_DATA_INVALID'],
    ['an unknown profession', `${HEADER}\nE-9,Dr.,A,B,a@example.org,USER,RN,,,\n`, 2, 'USER_DATA_INVALID'],
    [
      'an unknown season',
      `${HEADER}\nE-9,Dr.,A,B,a@example.org,USER,MD,Autumn,1-4,\n`,
      2,
      'ASSIGNMENTS_FORMAT_INVALID',
    ],
    [
      'malformed rounds',
      `${HEADER}\nE-9,Dr.,A,B,a@example.org,USER,MD,Spring 2026,1 to 4,\n`,
      2,
      'ASSIGNMENTS_FORMAT_INVALID',
    ],
    [
      'backwards rounds',
      `${HEADER}\nE-9,Dr.,A,B,a@example.org,USER,MD,Spring 2026,3-1,\n`,
      2,
      'ASSIGNMENTS_FORMAT_INVALID',
    ],
    [
      'a date outside the season',
      `${HEADER}\nE-9,Dr.,A,B,a@example.org,USER,MD,Spring 2026,1-4,2027-01-01\n`,
      2,
      'ASSIGNMENTS_DATE_INVALID',
    ],
    [
      'a date that does not exist',
      `${HEADER}\nE-9,Dr.,A,B,a@example.org,USER,MD,Spring 2026,1-4,2026-02-30\n`,
      2,
      'ASSIGNMENTS_DATE_INVALID',
    ],
    [
      'two rows for one season',
      `${HEADER}\nE-9,Dr.,A,B,a@example.org,USER,MD,Spring 2026,1-2,\nE-9,Dr.,A,B,a@example.org,USER,MD,Spring 2026,3-4,\n`,
      3,
      'ASSIGNMENTS_FORMAT_INVALID',
    ],
    [
      'one email for two user ids',
      `${HEADER}\nE-9,Dr.,A,B,a@example.org,USER,MD,,,\nE-10,Dr.,C,D,a@example.org,USER,MD,,,\n`,
      3,
      'USER_DATA_INVALID',
    ],
    [
      'a name change',
      `${HEADER}\nE-1,Dr.,Joseph,Nuñez; Jr.,jose@example.org,USER,MD,,,\n`,
      2,
      'NAME_CHANGE_NOT_ALLOWED',
    ],
    [
      'a profession change',
      `${HEADER}\nE-1,Dr.,José,Nuñez; Jr.,jose@example.org,USER,DO,,,\n`,
      2,
      'PROFESSION_CHANGE_NOT_ALLOWED',
    ],
    [
      'an email change',
      `${HEADER}\nE-1,Dr.,José,Nuñez; Jr.,jose.new@example.org,USER,MD,,,\n`,
      2,
      'EMAIL_CHANGE_NOT_ALLOWED',
    ],
    [
      'a user id change',
      `${HEADER}\nE-77,Dr.,José,Nuñez; Jr.,jose@example.org,USER,MD,,,\n`,
      2,
      'EMPLOYEE_ID_CHANGE_NOT_ALLOWED',
    ],
  ])('rejects %s with its catalogue code and line', async (_label, content, line, errorCode) => {
    const before = await userCount();
    const job = await importFile(projectA, content);
    expect(job.state).toBe('ERROR');
    expect(job.errors[0]).toMatchObject({ line, errorCode });
    expect(await userCount()).toBe(before);
  });

  it("refuses an email that belongs to a staff member or another client's participant", async () => {
    await importFile(projectB, `${HEADER}\nB-1,Dr.,Bea,Brown,bea@example.org,USER,MD,,,\n`, f.asAdminB);
    const job = await importFile(projectA, `${HEADER}\nA-5,Dr.,Bea,Brown,bea@example.org,USER,MD,,,\n`);
    expect(job.errors[0]).toMatchObject({ line: 2, errorCode: 'EMAIL_ALREADY_EXISTS' });
  });

  it("answers 404 to an administrator importing into or reading another client's project", async () => {
    const jobsBefore = (await ctx.db.select({ n: count() }).from(importJobs))[0]!.n;
    expect((await upload(projectB, `${HEADER}\n`, f.asAdminA)).statusCode).toBe(404);
    expect((await ctx.db.select({ n: count() }).from(importJobs))[0]!.n).toBe(jobsBefore);
    for (const url of [
      `/api/projects/${projectB}/users`,
      `/api/projects/${projectB}/import`,
      `/api/projects/${projectB}/export`,
      `/api/projects/${projectB}/usersId`,
    ]) {
      expect((await ctx.app.inject({ method: 'GET', url, headers: f.asAdminA })).statusCode).toBe(404);
    }
    // The list reads the project's client with its counts (one statement): the same answer,
    // searched or not, for another client's project and for no project at all.
    for (const url of [
      `/api/projects/${projectB}/users?limit=25`,
      `/api/projects/${projectB}/users?limit=25&search=a`,
      `/api/projects/${projectB}/users?limit=25&page=50`,
      `/api/projects/00000000-0000-4000-8000-000000000000/users?limit=25`,
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: f.asAdminA });
      expect({ url, status: response.statusCode, code: response.json().errorCode }).toEqual({
        url,
        status: 404,
        code: 'PROJECT_NOT_FOUND',
      });
    }
  });

  it('offers an example file with the documented columns', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/users/import/example', headers: f.asAdminA });
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      'user_id,salutation,first_name,last_name,email,role,profession,secondary_email,mobile_number,npi,practice_number,facility,specialty,manager_first_name,manager_last_name,manager_email,user_type,season,rounds,start_date',
    );
  });
});

describe('participants of a project', () => {
  it('lists, sorts, searches and filters by data status', async () => {
    const byName = (await list(projectA, '?sort=name:DESC')).json();
    expect(byName.items.map((p: { last_name: string }) => p.last_name)).toEqual(['Łukasik', 'Nuñez; Jr.', 'Berg']);
    expect((await list(projectA, '?search=nunez')).json().total).toBe(0);
    expect((await list(projectA, '?search=nuñez')).json().total).toBe(1);
    const notReady = (await list(projectA, `?filter=${encodeURIComponent('{"data_status":"NOT_READY"}')}`)).json();
    expect(notReady.items.map((p: { first_name: string }) => p.first_name)).toEqual(['Ola']);
    expect((await list(projectA, '?sort=secret:ASC')).json().errorCode).toBe('VALIDATION_ERROR');

    // The project reads as not ready while a participant lacks an assignment; another project has no users.
    const projectOf = async (id: string) =>
      (await ctx.app.inject({ method: 'GET', url: `/api/projects/${id}`, headers: f.asSuperadmin })).json();
    expect(await projectOf(projectA)).toMatchObject({
      data_status: 'NOT_READY',
      participant_counts: { active: 3, archived: 0, not_ready: 1 },
    });
    const empty = (await projectMadeBy(ctx, f.asSuperadmin, f.clientA.id)).id;
    expect(await projectOf(empty)).toMatchObject({
      data_status: 'NO_USERS',
      participant_counts: { active: 0, archived: 0, not_ready: 0 },
    });
  });

  it('archives two participants by id and finds them under the archived filter, then unarchives all', async () => {
    const items = (await list(projectA, '?sort=email:ASC')).json().items as { user_id: string }[];
    const ids = [items[0]!.user_id, items[1]!.user_id];
    const archived = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${ids.join(',')}/${projectA}/archive`,
      headers: f.asAdminA,
    });
    expect(archived.json()).toEqual({ updated: 2 });
    expect((await list(projectA)).json().total).toBe(1);
    const archivedList = (await list(projectA, `?filter=${encodeURIComponent('{"archived":true}')}`)).json();
    expect(archivedList.total).toBe(2);
    expect(archivedList.items.every((p: { archived: boolean }) => p.archived)).toBe(true);

    const all = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/all/${projectA}/unarchive`,
      headers: f.asAdminA,
      payload: { except: [ids[0]] },
    });
    expect(all.json()).toEqual({ updated: 1 });
    expect((await list(projectA)).json().total).toBe(2);
  });

  it('refuses ids that are not participants of the project, malformed ids, and another client', async () => {
    const stranger = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5/${projectA}/archive`,
      headers: f.asAdminA,
    });
    expect(stranger.json().errorCode).toBe('USER_NOT_FOUND');
    const malformed = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/abc/${projectA}/archive`,
      headers: f.asAdminA,
    });
    expect(malformed.json().errorCode).toBe('VALIDATION_ERROR');
    const other = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/all/${projectA}/archive`,
      headers: f.asAdminB,
      payload: {},
    });
    expect(other.statusCode).toBe(404);
  });

  it('blocks archiving, unarchiving and notes while an import into the project is waiting or running', async () => {
    const someone = (await list(projectA)).json().items[0].user_id;
    await upload(projectA, `${HEADER}\n`);
    const archive = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${someone}/${projectA}/archive`,
      headers: f.asAdminA,
    });
    expect(archive.json().errorCode).toBe('USER_ARCHIVE_BLOCKED_BY_IMPORT');
    const unarchive = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${someone}/${projectA}/unarchive`,
      headers: f.asAdminA,
    });
    expect(unarchive.json().errorCode).toBe('USER_UNARCHIVE_BLOCKED_BY_IMPORT');
    const notes = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${someone}/${projectA}/notes`,
      headers: f.asAdminA,
      payload: { notes: 'x' },
    });
    expect(notes.json().errorCode).toBe('USER_UPDATE_BLOCKED_BY_IMPORT');
    await ctx.app.imports.runPending();
    expect(
      (
        await ctx.app.inject({
          method: 'PUT',
          url: `/api/users/${someone}/${projectA}/notes`,
          headers: f.asAdminA,
          payload: { notes: 'Called on Monday.' },
        })
      ).statusCode,
    ).toBe(204);
    expect((await list(projectA)).json().items.find((p: { user_id: string }) => p.user_id === someone).notes).toBe(
      'Called on Monday.',
    );
  });

  it('exports the participants as CSV with formulas neutralised', async () => {
    await importFile(projectA, `${HEADER}\n=HYPERLINK(1),Dr.,+Eve,@Evil,eve@example.org,USER,MD,,,\n`);
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/projects/${projectA}/export?search=eve`,
      headers: f.asAdminA,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('attachment');
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    // The import's columns (participant-export.test.ts has the round trip), then the project's.
    expect(lines[0]).toBe(
      'user_id,salutation,first_name,last_name,email,role,profession,secondary_email,mobile_number,npi,' +
        'practice_number,facility,specialty,manager_first_name,manager_last_name,manager_email,user_type,' +
        'season,rounds,start_date,data_status,archived,notes,added_at',
    );
    expect(lines[1]).toMatch(/^'=HYPERLINK\(1\),Dr\.,'\+Eve,'@Evil,eve@example\.org,USER,MD,{14}NOT_READY,no,,/);
  });

  it('exports every participant across export pages, once each, in name order', async () => {
    const project = (await projectMadeBy(ctx, f.asAdminA, f.clientA.id, { name: 'Export pages' })).id;
    const lines = [HEADER];
    // Same last name for many: the keyset must continue by user id within one name too.
    for (let i = 0; i < 1050; i++)
      lines.push(
        `P-${i},Dr.,F${String(i).padStart(4, '0')},${i % 3 === 0 ? 'Same' : `L${i}`},p${i}@example.org,USER,MD,,,`,
      );
    expect((await importFile(project, lines.join('\n'))).state).toBe('COMPLETE');
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/projects/${project}/export`,
      headers: f.asAdminA,
    });
    const rows = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .slice(1);
    expect(rows).toHaveLength(1050);
    expect(new Set(rows.map((r) => r.split(',')[0])).size).toBe(1050);
    const names = rows.map((r) => `${r.split(',')[3]} ${r.split(',')[2]}`.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('keeps the project from being deleted while it has participants', async () => {
    const response = await ctx.app.inject({ method: 'DELETE', url: `/api/projects/${projectA}`, headers: f.asAdminA });
    expect(response.json().errorCode).toBe('ASSOCIATED_ITEMS_DELETE_FORBIDDEN');
    const [kept] = await ctx.db
      .select({ n: count() })
      .from(projectParticipants)
      .where(eq(projectParticipants.projectId, projectA));
    expect(kept!.n).toBeGreaterThan(0);
  });
});

describe('new users of a client, and import lookups', () => {
  it('imports new users into the administrator’s own client, in no project', async () => {
    const file = multipartFile(`${HEADER}\nN-1,Dr.,Nia,New,nia@example.org,USER,MD,,,\n`);
    const queued = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/upload',
      headers: { ...f.asAdminA, ...file.headers },
      payload: file.payload,
    });
    expect(queued.statusCode).toBe(202);
    expect(queued.json()).toMatchObject({ kind: 'NEW_USERS', state: 'NOT_STARTED' });
    await ctx.app.imports.runPending();
    const [nia] = await ctx.db.select().from(users).where(eq(users.email, 'nia@example.org'));
    expect(nia).toMatchObject({ clientId: f.clientA.id, employeeId: 'N-1', role: 'USER' });
    const [inProjects] = await ctx.db
      .select({ n: count() })
      .from(projectParticipants)
      .where(eq(projectParticipants.userId, nia!.id));
    expect(inProjects!.n).toBe(0);

    const mine = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/${(await ctx.app.inject({ method: 'GET', url: '/api/users/me', headers: f.asAdminA })).json().id}/import`,
      headers: f.asAdminA,
    });
    expect(mine.json()).toMatchObject({ kind: 'NEW_USERS', state: 'COMPLETE', total_rows: 1 });
  });

  it('needs a client for a superadmin, and keeps another client’s out of reach', async () => {
    const file = multipartFile(`${HEADER}\nN-2,Dr.,No,Client,noclient@example.org,USER,MD,,,\n`);
    const noClient = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/upload',
      headers: { ...f.asSuperadmin, ...file.headers },
      payload: file.payload,
    });
    expect(noClient.json().errorCode).toBe('VALIDATION_ERROR');
    const file2 = multipartFile(`${HEADER}\n`);
    const other = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/upload?client_id=${f.clientB.id}`,
      headers: { ...f.asAdminA, ...file2.headers },
      payload: file2.payload,
    });
    expect(other.statusCode).toBe(404);
  });

  it("answers the latest import of a client's project, and 404 for a mismatched client", async () => {
    const ok = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/${f.clientA.id}/${projectA}/import`,
      headers: f.asAdminA,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().kind).toBe('PARTICIPANTS');
    const mismatch = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/${f.clientB.id}/${projectA}/import`,
      headers: f.asSuperadmin,
    });
    expect(mismatch.json().errorCode).toBe('PROJECT_NOT_FOUND');
    const someoneElse = await ctx.app.inject({
      method: 'GET',
      url: `/api/users/6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5/import`,
      headers: f.asAdminA,
    });
    expect(someoneElse.statusCode).toBe(404);
  });
});
