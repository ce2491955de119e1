import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { CaseDocument } from '@pss/contract';
import { expectError } from '../../../test/kit.js';
import { everyTypeCase as validCase } from '../../../test/case-bodies.js';
import { casesSetup } from '../../../test/case-calls.js';

const { call, createDraft, ctx, getCase, projectA } = casesSetup();

/**
 * CASE_NOT_SAVED (spec §8, "The case could not be saved"): the database refuses a case's
 * write for a reason of its own — here a full disk (SQLSTATE 53100), raised by a trigger on
 * one case's row. The author is told the case was not saved, the case is as it was, and
 * nothing else is touched.
 */
const REFUSED_NAME = 'Refused by a full disk';

afterEach(async () => {
  await ctx.ownerDb.execute(sql`drop trigger if exists refuse_case_write on cases`);
  await ctx.ownerDb.execute(sql`drop function if exists refuse_case_write()`);
});

async function diskFullFor(caseId: string): Promise<void> {
  await ctx.ownerDb.execute(
    sql.raw(`
      create function refuse_case_write() returns trigger language plpgsql as $$
      begin
        if new.id = '${caseId}' then raise exception 'could not extend file: No space left on device' using errcode = '53100'; end if;
        return new;
      end $$`),
  );
  await ctx.ownerDb.execute(
    sql`create trigger refuse_case_write before update on cases for each row execute function refuse_case_write()`,
  );
}

describe('a case the database cannot save', () => {
  it('answers 500 CASE_NOT_SAVED and leaves the case as it was', async () => {
    const p = await projectA();
    const draft = await createDraft(p);
    const other = await createDraft(p, 'Another draft');
    await diskFullFor(draft.id);

    const refused = await call('PUT', `/cases/${draft.id}`, { payload: validCase(p, { name: REFUSED_NAME }) });
    expectError(refused, 500, 'CASE_NOT_SAVED');
    expect(refused.json<{ message: string }>().message).toBe('The case could not be saved.');
    // Nothing of the database's message reaches the caller.
    expect(refused.body).not.toContain('No space left');
    expect(await getCase(draft.id)).toEqual(draft);

    // Another case saves as ever; once the disk has room, this one does too.
    expect((await call('PUT', `/cases/${other.id}`, { payload: validCase(p) })).statusCode).toBe(200);
    await ctx.ownerDb.execute(sql`drop trigger refuse_case_write on cases`);
    const saved = await call('PUT', `/cases/${draft.id}`, { payload: validCase(p, { name: REFUSED_NAME }) });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<CaseDocument>().name).toBe(REFUSED_NAME);
  });
});
