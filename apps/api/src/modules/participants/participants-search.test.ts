import { beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { rowTriggersOff } from '../../db/bulk-writes.js';
import { openDatabase, rowsOf } from '../../db/client.js';
import { refreshParticipantSearch } from '../../db/participant-search.js';
import { participantSearch, projectParticipants, projects, seasons } from '../../db/schema/index.js';
import { createPageMarks } from './page-marks.js';
import { importParticipants } from './participant-import.js';
import { HEADER, participantsSetup } from '../../../test/participant-calls.js';

const { ctx, f, importFile, list, newProject, userCount } = participantsSetup();

describe('participant search rows', () => {
  let project: string;
  const staleFlag = async () =>
    (await ctx.db.select({ stale: projects.participantSearchStale }).from(projects).where(eq(projects.id, project)))[0]!
      .stale;
  const found = async (search: string) =>
    ((await list(project, `?search=${encodeURIComponent(search)}`)).json().items as { email: string }[]).map(
      (p) => p.email,
    );

  beforeAll(async () => {
    project = await newProject('Search rows');
    const job = await importFile(
      project,
      `${HEADER}\nS-1,Dr.,Greta,Holm,greta.holm@example.org,USER,MD,,,\nS-2,Dr.,Omar,Haddad,omar@example.org,USER,DO,,,\n`,
    );
    expect(job.state).toBe('COMPLETE');
  });

  it('are refreshed inside a larger transaction without changing how its later statements are planned', async () => {
    const setting = await ctx.db.transaction(async (tx) => {
      await refreshParticipantSearch(tx as unknown as typeof ctx.db, project);
      const [row] = rowsOf<{ value: string }>(
        await tx.execute(sql`select current_setting('enable_nestloop') as value`),
      );
      return row?.value;
    });
    expect(setting).toBe('on');
  });

  it('are brought up to date right after an import completes', async () => {
    expect(await staleFlag()).toBe(false);
    const rows = await ctx.db.select().from(participantSearch).where(eq(participantSearch.projectId, project));
    expect(rows.map((r) => r.terms).sort()).toEqual([
      'haddad omar omar@example.org',
      'holm greta greta.holm@example.org',
    ]);
    expect(await found('HOLM')).toEqual(['greta.holm@example.org']);
    expect(await found('example.org')).toHaveLength(2);
  });

  it('are not trusted while stale: a search reads the participants themselves, then the refresh catches up', async () => {
    // As just after an import commits, before its follow-up ran (or after a crash in between).
    await ctx.db.update(projects).set({ participantSearchStale: true }).where(eq(projects.id, project));
    await ctx.db.delete(participantSearch).where(eq(participantSearch.projectId, project));
    expect(await found('haddad')).toEqual(['omar@example.org']);

    await refreshParticipantSearch(ctx.db, project);
    expect(await staleFlag()).toBe(false);
    expect(await ctx.db.$count(participantSearch, eq(participantSearch.projectId, project))).toBe(2);
    expect(await found('haddad')).toEqual(['omar@example.org']);
  });

  it('are refreshed by one process: the catch-up skips a project not stale, or one another process holds', async () => {
    expect(await staleFlag()).toBe(false);
    expect(await refreshParticipantSearch(ctx.db, project, { claim: true })).toBe(false);
    await ctx.db.update(projects).set({ participantSearchStale: true }).where(eq(projects.id, project));
    if (ctx.database.kind === 'postgres') {
      // Another process refreshing (its lock held on another connection): this one leaves it.
      await ctx.db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from projects where id = ${project} for update`);
        expect(await refreshParticipantSearch(ctx.db, project, { claim: true })).toBe(false);
      });
      expect(await staleFlag()).toBe(true);
    }
    expect(await refreshParticipantSearch(ctx.db, project, { claim: true })).toBe(true);
    expect(await staleFlag()).toBe(false);
  });

  it('follow a participant renamed in user management at once', async () => {
    const omar = (await list(project, '?search=omar')).json().items[0] as { user_id: string };
    const renamed = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${omar.user_id}`,
      headers: f.asAdminA,
      payload: { email: 'o.haddad@example.org', first_name: 'Omar', last_name: 'Haddad-Sayed', profession: 'DO' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(await staleFlag()).toBe(false);
    expect(await found('sayed')).toEqual(['o.haddad@example.org']);
    expect(await found('omar@example')).toEqual([]);
  });
});

describe('foreign keys of an import', () => {
  const file = (prefix: string) =>
    Buffer.from(
      `${HEADER}\n${prefix}-1,Dr.,Ines,Lind,${prefix}.ines@example.org,USER,MD,Spring 2026,1-4,\n` +
        `${prefix}-2,Dr.,Jon,Berg,${prefix}.jon@example.org,USER,AS,,,\n`,
    );
  async function targetOf(projectId: string) {
    const rows = await ctx.db.select().from(seasons).where(eq(seasons.projectId, projectId));
    return {
      projectId,
      clientId: f.clientA.id,
      seasons: rows.map((s) => ({
        id: s.id,
        name: s.name,
        startDate: '2026-03-01',
        endDate: '2026-04-25',
        rounds: [1, 2, 3, 4].map((n) => ({ number: n, startDate: '2026-03-01' })),
      })),
    };
  }

  it('writes nothing when a season the file names was deleted after the import read the project', async () => {
    const projectId = await newProject('Season gone');
    const target = await targetOf(projectId);
    await ctx.db.delete(seasons).where(eq(seasons.projectId, projectId));
    const before = await userCount();
    await expect(
      importParticipants({
        openStream: () => Readable.from([file('gone')]),
        target,
        database: { db: ctx.db, singleConnection: ctx.database.kind === 'pglite' },
        reportProgress: async () => undefined,
      }),
    ).rejects.toThrow();
    expect(await userCount()).toBe(before);
    expect(await ctx.db.$count(projectParticipants, eq(projectParticipants.projectId, projectId))).toBe(0);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'are checked row by row, with the same result, where the connection may not switch triggers off',
    async () => {
      const projectId = await newProject('Row triggers');
      const current = (await ctx.db.execute(sql`select current_database() as name`)) as unknown as {
        rows: { name: string }[];
      };
      const name = current.rows[0]!.name;
      const role = `pss_limited_${Math.random().toString(16).slice(2, 10)}`;
      await ctx.ownerDb.execute(sql.raw(`create role ${role} login`));
      await ctx.ownerDb.execute(sql.raw(`grant all on all tables in schema public to ${role}`));
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.username = role;
      url.pathname = `/${name}`;
      const limited = await openDatabase({ databaseUrl: url.toString() });
      try {
        expect(await rowTriggersOff(limited.db)).toBe(false);
        const outcome = await importParticipants({
          openStream: () => Readable.from([file('rows')]),
          target: await targetOf(projectId),
          database: { db: limited.db, singleConnection: false },
          reportProgress: async () => undefined,
        });
        expect(outcome).toEqual({ total: 2, errors: [] });
      } finally {
        await limited.close();
        await ctx.ownerDb.execute(sql.raw(`drop owned by ${role}`));
        await ctx.ownerDb.execute(sql.raw(`drop role ${role}`));
      }
      const page = (await list(projectId, '?sort=email:ASC')).json();
      expect(page.items.map((p: { email: string; data_status: string }) => [p.email, p.data_status])).toEqual([
        ['rows.ines@example.org', 'READY'],
        ['rows.jon@example.org', 'NOT_READY'],
      ]);
    },
  );
});

describe('deep pages of a long list', () => {
  const COUNT = 2600;
  const pad = (i: number) => String(i).padStart(4, '0');
  let project: string;
  const names = async (query: string) =>
    ((await list(project, query)).json().items as { last_name: string }[]).map((p) => p.last_name);

  beforeAll(async () => {
    project = await newProject('Long list');
    // In file order: last names run backwards, emails forwards.
    const rows = Array.from(
      { length: COUNT },
      (_, i) => `L-${i},Dr.,Ann,Deep${pad(COUNT - 1 - i)},deep${pad(i)}@example.org,USER,MD,Spring 2026,1-4,`,
    );
    expect((await importFile(project, `${HEADER}\n${rows.join('\n')}\n`)).state).toBe('COMPLETE');
  });

  it('answers the same rows from a mark as by walking the list, in every sort and direction', async () => {
    const deep = (i: number) => `Deep${pad(i)}`;
    const range = (from: number, n: number, step = 1) => Array.from({ length: n }, (_, k) => deep(from + k * step));
    expect(await names('?limit=25&page=41')).toEqual(range(1000, 25));
    expect(await names('?limit=25&page=89&sort=name:ASC')).toEqual(range(2200, 25));
    expect(await names('?limit=25&page=41&sort=name:DESC')).toEqual(range(COUNT - 1 - 1000, 25, -1));
    // Emails run the other way from names; participants added together follow their (time-ordered) ids: file order.
    expect(await names('?limit=25&page=81&sort=email:ASC')).toEqual(range(COUNT - 1 - 2000, 25, -1));
    expect(await names('?limit=25&page=81&sort=added_at:ASC')).toEqual(range(COUNT - 1 - 2000, 25, -1));
    expect(await names('?limit=25&page=81&sort=added_at:DESC')).toEqual(range(2000, 25));
    // Past the end: nothing, and the total still right.
    const past = (await list(project, '?limit=25&page=200')).json();
    expect(past).toMatchObject({ items: [], total: COUNT });
  });

  it('counts a search with its page: the same total on every page, past the end and with no match', async () => {
    // "deep01" matches the last names Deep0100..Deep0199 and the e-mails deep0100..deep0199
    // (whose last names are Deep2400..Deep2499): 200 participants.
    const searched = async (query: string) => (await list(project, `?search=deep01&${query}`)).json();
    const first = await searched('limit=25&sort=name:ASC');
    expect(first.total).toBe(200);
    expect(first.items.map((p: { last_name: string }) => p.last_name)).toEqual(
      Array.from({ length: 25 }, (_, k) => `Deep${pad(100 + k)}`),
    );
    expect((await searched('limit=25&page=8&sort=name:DESC')).total).toBe(200);
    expect(await searched('limit=25&page=9')).toMatchObject({ items: [], total: 200 });
    expect(await list(project, '?search=no-such-name&limit=25').then((r) => r.json())).toMatchObject({
      items: [],
      total: 0,
    });
  });

  it('starts a deep page from the nearest mark, and reads fresh marks once the participants change', async () => {
    const marks = createPageMarks(ctx.db);
    const where = and(eq(projectParticipants.projectId, project), eq(projectParticipants.archived, false))!;
    const version = async () =>
      (await ctx.db.select({ v: projects.participantsVersion }).from(projects).where(eq(projects.id, project)))[0]!.v;
    const sort = { column: 'project_participants.sort_name', type: 'text', direction: 'ASC' } as const;
    const at = async (offset: number) =>
      marks.start({ key: 'test', projectId: project, where, sort, offset, version: await version() });

    expect(await at(999)).toMatchObject({ after: undefined, offset: 999, version: null });
    const deep = await at(2_345);
    expect(deep).toMatchObject({ offset: 345, version: await version() });
    expect(deep.after).toBeDefined();
    const before = await version();
    await ctx.db
      .update(projectParticipants)
      .set({ notes: 'touched' })
      .where(and(eq(projectParticipants.projectId, project), eq(projectParticipants.email, 'deep0000@example.org')));
    expect(await version()).toBe(before + 1);
    expect((await at(2_345)).version).toBe(before + 1);
  });

  it('follows changes to the participants: a rename and an archive before the page move it', async () => {
    const first = (await list(project, '?limit=1&sort=name:ASC')).json().items[0] as { user_id: string };
    const renamed = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${first.user_id}`,
      headers: f.asAdminA,
      payload: { email: 'deep2599@example.org', first_name: 'Ann', last_name: 'Deep9999', profession: 'MD' },
    });
    expect(renamed.statusCode).toBe(200);
    // Offset 1,002 (past the first mark): one name fewer before it.
    expect(await names('?limit=3&page=335')).toEqual(['Deep1003', 'Deep1004', 'Deep1005']);

    const early = (await list(project, '?limit=2&sort=name:ASC')).json().items as { user_id: string }[];
    const archived = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${early.map((p) => p.user_id).join(',')}/${project}/archive`,
      headers: f.asAdminA,
    });
    expect(archived.statusCode).toBe(200);
    expect(await names('?limit=3&page=335')).toEqual(['Deep1005', 'Deep1006', 'Deep1007']);
    expect((await list(project, '?limit=1')).json().total).toBe(COUNT - 2);
  });
});
