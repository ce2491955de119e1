import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { CaseElementsQuery } from '@pss/contract';
import type { Executor } from '../../db/client.js';
import {
  answerTags,
  caseAnswerTags,
  cases,
  keyTakeaways,
  modules,
  projects,
  type CaseBody,
} from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';

/** Whose elements: a client's project or a module library. */
export type ElementsScope = { projectId: string } | { moduleId: string };
export type ElementOrigin = 'CUSTOM' | 'MODULE_LIBRARY';
/** A case copied (duplicated, or copied out of a module library) and its copy, whose elements follow. */
export interface ElementsCopy {
  from: { id: string; body: CaseBody };
  to: { id: string; body: CaseBody };
  /** Set when the copy takes its elements over as its own (a detached duplicate). */
  origin?: ElementOrigin;
}

function inScope(scope: ElementsScope): SQL {
  return 'projectId' in scope ? eq(cases.projectId, scope.projectId) : eq(cases.moduleId, scope.moduleId);
}

// Qualified by hand: inside a subquery Drizzle writes columns without their table.
const takeawayCount = sql<number>`(select cast(count(*) as integer) from ${keyTakeaways} k where k.case_id = "cases"."id")`;
const tagCount = sql<number>`(select cast(count(*) as integer) from ${caseAnswerTags} a where a.case_id = "cases"."id")`;

export function createElementsRepository(db: Executor) {
  return {
    /** Which a job's scope id is: a project or a module library (or neither, any more). */
    async scopeOf(id: string): Promise<ElementsScope | undefined> {
      const [project] = await db.select({ id: projects.id }).from(projects).where(eq(projects.id, id));
      if (project) return { projectId: id };
      const [found] = await db.select({ id: modules.id }).from(modules).where(eq(modules.id, id));
      return found ? { moduleId: id } : undefined;
    },

    /** The cases of a scope, as an import matches rows against them. */
    casesOf(scope: ElementsScope) {
      return db
        .select({ id: cases.id, name: cases.name, origin: cases.origin, body: cases.body })
        .from(cases)
        .where(inScope(scope));
    },

    /** Cases (of these) holding elements of the given origin. */
    async casesWithElementsOf(caseIds: string[], origin: ElementOrigin): Promise<Set<string>> {
      if (!caseIds.length) return new Set();
      const [tags, takeaways] = await Promise.all([
        db
          .selectDistinct({ id: caseAnswerTags.caseId })
          .from(caseAnswerTags)
          .where(and(inArray(caseAnswerTags.caseId, caseIds), eq(caseAnswerTags.origin, origin))),
        db
          .selectDistinct({ id: keyTakeaways.caseId })
          .from(keyTakeaways)
          .where(and(inArray(keyTakeaways.caseId, caseIds), eq(keyTakeaways.origin, origin))),
      ]);
      return new Set([...tags, ...takeaways].map((r) => r.id));
    },

    keyTakeaways(scope: ElementsScope, caseId: string | undefined) {
      return db
        .select({
          case_id: cases.id,
          case_name: cases.name,
          position: keyTakeaways.position,
          text: keyTakeaways.text,
          origin: keyTakeaways.origin,
        })
        .from(keyTakeaways)
        .innerJoin(cases, eq(cases.id, keyTakeaways.caseId))
        .where(and(inScope(scope), caseId ? eq(cases.id, caseId) : undefined))
        .orderBy(sql`lower(${cases.name})`, asc(cases.id), asc(keyTakeaways.position));
    },

    answerTagRows(scope: ElementsScope, caseId: string | undefined) {
      return db
        .select({
          case_id: cases.id,
          case_name: cases.name,
          body: cases.body,
          question_id: caseAnswerTags.questionId,
          choice_id: caseAnswerTags.choiceId,
          tag: answerTags.name,
          origin: caseAnswerTags.origin,
        })
        .from(caseAnswerTags)
        .innerJoin(cases, eq(cases.id, caseAnswerTags.caseId))
        .innerJoin(answerTags, eq(answerTags.id, caseAnswerTags.tagId))
        .where(and(inScope(scope), caseId ? eq(cases.id, caseId) : undefined))
        .orderBy(sql`lower(${cases.name})`, asc(cases.id), sql`lower(${answerTags.name})`);
    },

    caseElements(scope: ElementsScope, query: CaseElementsQuery) {
      const where = and(
        inScope(scope),
        searchCondition(query.search, [cases.name]),
        query.type === 'KEY_TAKEAWAYS' ? sql`${takeawayCount} > 0` : undefined,
        query.type === 'ANSWER_TAGS' ? sql`${tagCount} > 0` : undefined,
      );
      return runPaged(
        query,
        (limit, offset) =>
          db
            .select({ case_id: cases.id, case_name: cases.name, key_takeaways: takeawayCount, answer_tags: tagCount })
            .from(cases)
            .where(where)
            .orderBy(...orderByTerms(query.sort, { case_name: sql`lower(${cases.name})` }, cases.id))
            .limit(limit)
            .offset(offset),
        async () => (await db.select({ n: countAll }).from(cases).where(where))[0]?.n ?? 0,
      );
    },

    /** Makes these cases' key takeaways exactly the given ones (run in a transaction). */
    async replaceKeyTakeaways(
      caseIds: string[],
      rows: { caseId: string; position: number; text: string }[],
      origin: ElementOrigin,
    ): Promise<void> {
      await db.delete(keyTakeaways).where(inArray(keyTakeaways.caseId, caseIds));
      if (rows.length) await db.insert(keyTakeaways).values(rows.map((r) => ({ ...r, origin })));
    },

    /**
     * Makes these cases' answer tags exactly the given ones; tag names are found or created
     * (run in a transaction).
     */
    async replaceAnswerTags(
      caseIds: string[],
      rows: { caseId: string; questionId: string; choiceId: string; tag: string }[],
      origin: ElementOrigin,
    ): Promise<void> {
      const names = [...new Map(rows.map((r) => [r.tag.toLowerCase(), r.tag])).values()];
      for (const name of names) {
        await db.execute(sql`insert into ${answerTags} (name) values (${name}) on conflict (lower(name)) do nothing`);
      }
      const tags = names.length
        ? await db
            .select({ id: answerTags.id, name: answerTags.name })
            .from(answerTags)
            .where(
              inArray(
                sql`lower(${answerTags.name})`,
                names.map((n) => n.toLowerCase()),
              ),
            )
        : [];
      const tagId = new Map(tags.map((t) => [t.name.toLowerCase(), t.id]));
      await db.delete(caseAnswerTags).where(inArray(caseAnswerTags.caseId, caseIds));
      if (rows.length) {
        await db
          .insert(caseAnswerTags)
          .values(
            rows.map((r) => ({
              caseId: r.caseId,
              questionId: r.questionId,
              choiceId: r.choiceId,
              tagId: tagId.get(r.tag.toLowerCase())!,
              origin,
            })),
          )
          .onConflictDoNothing();
      }
    },

    /**
     * Copies a case's key takeaways and answer tags onto its copy. The copy's questions and
     * choices are the original's in the same order with new ids, so ids map by position.
     */
    async copyElements(copy: ElementsCopy): Promise<void> {
      const { from, to, origin } = copy;
      const ids = new Map<string, string>();
      from.body.questions.forEach((q, i) => {
        const copied = to.body.questions[i];
        if (!copied) return;
        ids.set(q.id, copied.id);
        q.choices.forEach((c, j) => copied.choices[j] && ids.set(c.id, copied.choices[j]!.id));
      });
      const takeaways = await db.select().from(keyTakeaways).where(eq(keyTakeaways.caseId, from.id));
      const tags = await db.select().from(caseAnswerTags).where(eq(caseAnswerTags.caseId, from.id));
      if (takeaways.length) {
        await db
          .insert(keyTakeaways)
          .values(
            takeaways.map((k) => ({ caseId: to.id, position: k.position, text: k.text, origin: origin ?? k.origin })),
          );
      }
      const mapped = tags.flatMap((a) => {
        const questionId = ids.get(a.questionId);
        const choiceId = ids.get(a.choiceId);
        return questionId && choiceId
          ? [{ ...a, caseId: to.id, questionId, choiceId, origin: origin ?? a.origin }]
          : [];
      });
      if (mapped.length) await db.insert(caseAnswerTags).values(mapped);
    },
  };
}
export type ElementsRepository = ReturnType<typeof createElementsRepository>;
