import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { CaseElementsQuery } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { answerTags, caseAnswerTags, cases, keyTakeaways, modules, projects } from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';

/** Whose elements: a client's project or a module library. */
export type ElementsScope = { projectId: string } | { moduleId: string };
export type ElementOrigin = 'CUSTOM' | 'MODULE_LIBRARY';

function inScope(scope: ElementsScope): SQL {
  return 'projectId' in scope ? eq(cases.projectId, scope.projectId) : eq(cases.moduleId, scope.moduleId);
}

// Qualified by hand: inside a subquery Drizzle writes columns without their table.
const takeawayCount = sql<number>`(select cast(count(*) as integer) from ${keyTakeaways} k where k.case_id = "cases"."id")`;
const tagCount = sql<number>`(select cast(count(*) as integer) from ${caseAnswerTags} a where a.case_id = "cases"."id")`;

export function createElementsRepository(db: Db) {
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

    /** Makes these cases' key takeaways exactly the given ones, in one transaction. */
    async replaceKeyTakeaways(
      caseIds: string[],
      rows: { caseId: string; position: number; text: string }[],
      origin: ElementOrigin,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(keyTakeaways).where(inArray(keyTakeaways.caseId, caseIds));
        if (rows.length) await tx.insert(keyTakeaways).values(rows.map((r) => ({ ...r, origin })));
      });
    },

    /** Makes these cases' answer tags exactly the given ones; tag names are found or created. */
    async replaceAnswerTags(
      caseIds: string[],
      rows: { caseId: string; questionId: string; choiceId: string; tag: string }[],
      origin: ElementOrigin,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        const names = [...new Map(rows.map((r) => [r.tag.toLowerCase(), r.tag])).values()];
        for (const name of names) {
          await tx.execute(sql`insert into ${answerTags} (name) values (${name}) on conflict (lower(name)) do nothing`);
        }
        const tags = names.length
          ? await tx
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
        await tx.delete(caseAnswerTags).where(inArray(caseAnswerTags.caseId, caseIds));
        if (rows.length) {
          await tx
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
      });
    },
  };
}
export type ElementsRepository = ReturnType<typeof createElementsRepository>;
