import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { HEADER, participantsSetup } from './participant-calls.js';

const { f, ctx, importFile, newProject } = participantsSetup();

/**
 * What one process keeps in memory stays right when another process changes the data: two
 * apps on one database stand for two processes (each has its own page marks). Process A
 * reads a deep page (its marks are made); process B renames and archives participants;
 * A's next deep page is B's, read afresh — never one from A's old marks.
 */
const COUNT = 2300;
const pad = (i: number) => String(i).padStart(4, '0');
let other: App;
let project: string;

beforeAll(async () => {
  other = await buildApp({ config: ctx.config, database: ctx.database, clock: ctx.clock, logger: false });
  await other.ready();
  project = await newProject('Two processes');
  const rows = Array.from(
    { length: COUNT },
    (_, i) => `X-${i},Dr.,Ann,Cross${pad(i)},cross${pad(i)}@example.org,USER,MD,Spring 2026,1-4,`,
  );
  expect((await importFile(project, `${HEADER}\n${rows.join('\n')}\n`)).state).toBe('COMPLETE');
}, 120_000);
afterAll(() => other?.close());

const page = async (app: App, query: string) =>
  (
    (await app.inject({ method: 'GET', url: `/api/projects/${project}/users${query}`, headers: f.asAdminA })).json()
      .items as { user_id: string; last_name: string }[]
  ).map((p) => p.last_name);

describe('in-process caches across processes', () => {
  it('answers a deep page from fresh marks after another process changed the participants', async () => {
    const deep = '?limit=3&page=401&sort=name:ASC'; // offset 1,200: past the first mark
    expect(await page(ctx.app, deep)).toEqual(['Cross1200', 'Cross1201', 'Cross1202']);

    // Process B: the first participant renamed to the end of the list, the next two archived.
    const firstThree = (
      (
        await other.inject({
          method: 'GET',
          url: `/api/projects/${project}/users?limit=3&sort=name:ASC`,
          headers: f.asAdminA,
        })
      ).json().items as { user_id: string }[]
    ).map((p) => p.user_id);
    const renamed = await other.inject({
      method: 'PUT',
      url: `/api/users/${firstThree[0]}`,
      headers: f.asAdminA,
      payload: { email: 'cross0000@example.org', first_name: 'Ann', last_name: 'Cross9999', profession: 'MD' },
    });
    expect(renamed.statusCode).toBe(200);
    const archived = await other.inject({
      method: 'PUT',
      url: `/api/users/${firstThree.slice(1).join(',')}/${project}/archive`,
      headers: f.asAdminA,
    });
    expect(archived.statusCode).toBe(200);

    // Process A, whose marks were made before: three names fewer before offset 1,200.
    expect(await page(ctx.app, deep)).toEqual(['Cross1203', 'Cross1204', 'Cross1205']);
    expect(await page(other, deep)).toEqual(['Cross1203', 'Cross1204', 'Cross1205']);
  });
});
