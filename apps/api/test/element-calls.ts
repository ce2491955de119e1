import { expect } from 'vitest';
import { count } from 'drizzle-orm';
import type { AnswerTag, ImportJob, KeyTakeaway } from '@pss/contract';
import { answerTags, importJobs } from '../src/db/schema/index.js';
import { multipartFile, type Headers } from './fixtures.js';
import { filterQuery, type Caller } from './kit.js';
import { librarySetup } from './library-calls.js';

/** The setup and calls of the elements tests (key takeaways and answer tags, elements-*.test.ts). */

export type Where = 'projects' | 'module-library';
export type What = 'key-takeaways' | 'answers-tags';
export const kindOf = (what: What) => (what === 'key-takeaways' ? 'SUMMARY' : 'ANSWER_TAGS');

export const KT = 'case_name,key_takeaway';
export const AT = 'case_name,question,answer,tag';

export const brief = (items: KeyTakeaway[]) => items.map((k) => [k.case_name, k.position, k.text, k.origin]);
export const tagRows = (items: AnswerTag[]) =>
  items.map((t) => [t.case_name, t.question, t.answer, t.tag, t.origin].join(' | ')).sort((a, b) => a.localeCompare(b));

export function elementsSetup() {
  const library = librarySetup();
  const { ctx, f, call } = library;
  /** Projects are read and written by client A's administrator here, module libraries by the superadmin. */
  const ownerOf = (where: Where): Headers => (where === 'projects' ? f.asAdminA : f.asSuperadmin);

  function postFile(url: string, content: string | Buffer, headers: Caller) {
    const file = multipartFile(content, 'elements.csv');
    return call('POST', url, { headers: { ...headers, ...file.headers }, payload: file.payload });
  }

  /** Uploads, checks the 202 job, runs it, and answers the latest import of that kind as read back. */
  async function importAndRun(where: Where, id: string, what: What, content: string | Buffer): Promise<ImportJob> {
    const queued = await postFile(`/${where}/${id}/${what}`, content, ownerOf(where));
    expect(queued.statusCode).toBe(202);
    expect(queued.json()).toMatchObject({ kind: kindOf(what), state: 'NOT_STARTED', file_name: 'elements.csv' });
    expect(await ctx.app.imports.runPending()).toBe(1);
    const latest = await call('GET', `/${where}/${id}/import?type=${kindOf(what)}`, { headers: ownerOf(where) });
    expect(latest.statusCode).toBe(200);
    const job = latest.json<ImportJob>();
    expect(job.id).toBe(queued.json<ImportJob>().id);
    return job;
  }

  /** A project's or module's elements of one kind, of one case if named. */
  async function listOf<T>(where: Where, id: string, what: What, caseId?: string): Promise<T[]> {
    const query = caseId ? `?${filterQuery({ case_id: caseId })}` : '';
    const response = await call('GET', `/${where}/${id}/${what}${query}`, { headers: ownerOf(where) });
    expect(response.statusCode).toBe(200);
    return response.json<{ items: T[] }>().items;
  }

  return {
    ...library,
    ownerOf,
    postFile,
    importAndRun,
    takeaways: (where: Where, id: string, caseId?: string) => listOf<KeyTakeaway>(where, id, 'key-takeaways', caseId),
    tags: (where: Where, id: string, caseId?: string) => listOf<AnswerTag>(where, id, 'answers-tags', caseId),
    jobCount: async () => (await ctx.db.select({ n: count() }).from(importJobs))[0]!.n,
    tagNameCount: async () => (await ctx.db.select({ n: count() }).from(answerTags))[0]!.n,
  };
}
