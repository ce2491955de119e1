import { beforeAll, describe, expect, it } from 'vitest';
import { count, sql } from 'drizzle-orm';
import type { CaseDocument } from '@pss/contract';
import { rowsOf } from '../../db/client.js';
import { caseAnswerTags, cases, keyTakeaways } from '../../db/schema/index.js';
import { expectError } from '../../../test/kit.js';
import { librarySetup } from '../../../test/library-calls.js';

// Copying is all or nothing: a copy that fails after its cases are written leaves nothing.
const { ctx, call, projectA, newModule, createModuleCase } = librarySetup();

/** Key takeaways with this text cannot be written once the trap is set. */
const REFUSED = 'A takeaway the database refuses to copy';

/** Everything a copy writes: cases, key takeaways, answer tags. */
async function written() {
  const n = async (table: typeof cases | typeof keyTakeaways | typeof caseAnswerTags) =>
    (await ctx.db.select({ n: count() }).from(table))[0]!.n;
  return { cases: await n(cases), keyTakeaways: await n(keyTakeaways), answerTags: await n(caseAnswerTags) };
}

describe('a copy that fails half-way', () => {
  let first: CaseDocument;
  let second: CaseDocument;
  let projectId: string;
  let otherModuleId: string;

  beforeAll(async () => {
    const m = await newModule();
    otherModuleId = (await newModule()).id;
    projectId = (await projectA()).id;
    first = await createModuleCase(m, { name: 'Copied first' });
    second = await createModuleCase(m, { name: 'Copied second' });
    // Both cases carry elements; only the second's cannot be written again.
    const [tag] = rowsOf<{ id: string }>(
      await ctx.db.execute(sql`insert into answer_tags (name) values ('Half-way tag') returning id`),
    );
    await ctx.db.insert(keyTakeaways).values([
      { caseId: first.id, position: 1, text: 'Copied without trouble', origin: 'MODULE_LIBRARY' },
      { caseId: second.id, position: 1, text: 'Copied without trouble', origin: 'MODULE_LIBRARY' },
      { caseId: second.id, position: 2, text: REFUSED, origin: 'MODULE_LIBRARY' },
    ]);
    await ctx.db.insert(caseAnswerTags).values(
      [first, second].map((c) => ({
        caseId: c.id,
        questionId: c.questions[0]!.id,
        choiceId: c.questions[0]!.choices[0]!.id,
        tagId: tag!.id,
        origin: 'MODULE_LIBRARY' as const,
      })),
    );
    await ctx.ownerDb.execute(sql`
      create function refuse_marked_takeaway() returns trigger language plpgsql as $$
      begin
        if new.text = ${sql.raw(`'${REFUSED}'`)} then
          raise exception 'refused half-way through a copy';
        end if;
        return new;
      end $$`);
    await ctx.ownerDb.execute(sql`create trigger refuse_marked_takeaway before insert on key_takeaways
      for each row execute function refuse_marked_takeaway()`);
  });

  it.each([
    [
      'copying module cases into a project',
      () => ({
        url: '/module-library/cases/to-project',
        payload: { project_id: projectId, case_ids: [first.id, second.id] },
      }),
    ],
    [
      'copying module cases into another module',
      () => ({
        url: '/module-library/cases/modules',
        payload: { module_id: otherModuleId, case_ids: [first.id, second.id] },
      }),
    ],
    ['duplicating a case', () => ({ url: `/cases/${second.id}/duplicate`, payload: {} })],
    ['duplicating a case detached', () => ({ url: `/cases/${second.id}/duplicate-detach`, payload: {} })],
  ])('%s writes no case and no element', async (_what, request) => {
    const before = await written();
    const { url, payload } = request();
    expectError(await call('POST', url, { payload }), 500, 'DATABASE_ERROR');
    expect(await written()).toEqual(before);
  });

  it('copies whole once nothing refuses', async () => {
    await ctx.ownerDb.execute(sql`drop trigger refuse_marked_takeaway on key_takeaways`);
    const before = await written();
    const response = await call('POST', '/module-library/cases/to-project', {
      payload: { project_id: projectId, case_ids: [first.id, second.id] },
    });
    expect(response.statusCode).toBe(201);
    expect(await written()).toEqual({
      cases: before.cases + 2,
      keyTakeaways: before.keyTakeaways + 3,
      answerTags: before.answerTags + 2,
    });
  });
});
