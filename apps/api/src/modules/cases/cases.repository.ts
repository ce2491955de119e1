import { and, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { CaseListQuery, CaseStatusValue } from '@pss/contract';
import type { Executor } from '../../db/client.js';
import {
  casePreviews,
  cases,
  diseaseTypes,
  moduleDiseaseTypes,
  moduleQuestionCategories,
  modules,
  participantAssignments,
  userSeasonRoundCases,
  rounds,
  seasons,
} from '../../db/schema/index.js';
import { countAll, orderByTerms, runPaged, searchCondition } from '../../lib/list-query.js';

export type CaseRecord = typeof cases.$inferSelect;
/** Where a case lives: a client's project or a module library. */
export type CaseHome = { projectId: string } | { moduleId: string };
export type CaseInsert = typeof cases.$inferInsert;

/** A case with what the API shows beside it: the status as it reads today, names of its links. */
export interface CaseRow extends CaseRecord {
  effectiveStatus: CaseStatusValue;
  diseaseTypeName: string | null;
  seasonName: string | null;
}

/**
 * The status a case reads as on `today`: a published case is ACTIVE while the round it is
 * placed in runs. One expression, used by reads, filters and the move rule alike.
 */
function effectiveStatus(today: string): SQL<CaseStatusValue> {
  // Columns are qualified by hand: inside a raw subquery Drizzle would leave them bare.
  return sql<CaseStatusValue>`(case when "cases"."status" = 'PUBLISHED' and exists (
      select 1 from rounds r
      where r.season_id = "cases"."season_id" and r.number = "cases"."round_number"
        and r.start_date <= ${today}::date and r.end_date >= ${today}::date
    ) then 'ACTIVE' else "cases"."status" end)`;
}

/**
 * Participants a case is associated with: those assigned to the season round it is placed
 * in, and those who have an attempt at it (kept even if their assignment changed).
 */
const participantCount = sql<number>`((select cast(count(*) as integer) from ${participantAssignments} pa
  where pa.season_id = "cases"."season_id"
    and "cases"."round_number" between pa.first_round and pa.last_round)
  + (select cast(count(*) as integer) from ${userSeasonRoundCases} u where u.case_id = "cases"."id"))`;

/** The case rows of projects and module libraries; previews are in `case-previews.repository.ts`. */
export function createCasesRepository(db: Executor) {
  function columns(today: string) {
    return {
      record: cases,
      effectiveStatus: effectiveStatus(today),
      diseaseTypeName: diseaseTypes.name,
      seasonName: seasons.name,
    };
  }

  function withNames(today: string) {
    return db
      .select(columns(today))
      .from(cases)
      .leftJoin(diseaseTypes, eq(diseaseTypes.id, cases.diseaseTypeId))
      .leftJoin(seasons, eq(seasons.id, cases.seasonId));
  }

  function flatten(row: {
    record: CaseRecord;
    effectiveStatus: CaseStatusValue;
    diseaseTypeName: string | null;
    seasonName: string | null;
  }): CaseRow {
    return {
      ...row.record,
      effectiveStatus: row.effectiveStatus,
      diseaseTypeName: row.diseaseTypeName,
      seasonName: row.seasonName,
    };
  }

  /** Cases of a project or module matching a list's search and status filter. */
  function homeCondition(
    home: CaseHome,
    today: string,
    search: string | undefined,
    status: CaseStatusValue | undefined,
  ): SQL | undefined {
    return and(
      'projectId' in home ? eq(cases.projectId, home.projectId) : eq(cases.moduleId, home.moduleId),
      searchCondition(search, [cases.name, cases.patientName]),
      status ? sql`${effectiveStatus(today)} = ${status}` : undefined,
    );
  }

  return {
    list(home: CaseHome, query: CaseListQuery, today: string) {
      const where = homeCondition(home, today, query.search, query.filter.status);
      const sortColumns = {
        name: sql`lower(${cases.name})`,
        patient_name: sql`lower(${cases.patientName})`,
        status: effectiveStatus(today),
        updated_at: cases.updatedAt,
        created_at: cases.createdAt,
      };
      return runPaged(
        query,
        async (limit, offset) =>
          (
            await withNames(today)
              .where(where)
              .orderBy(...orderByTerms(query.sort, sortColumns, cases.id))
              .limit(limit)
              .offset(offset)
          ).map(flatten),
        async () => (await db.select({ n: countAll }).from(cases).where(where))[0]?.n ?? 0,
      );
    },

    /** Ids of a project's or module's cases matching a select-all (search, status), minus the exceptions. */
    async idsMatching(
      home: CaseHome,
      today: string,
      selection: { search?: string; status?: CaseStatusValue; except: string[] },
    ): Promise<string[]> {
      const rows = await db
        .select({ id: cases.id })
        .from(cases)
        .where(
          and(
            homeCondition(home, today, selection.search, selection.status),
            selection.except.length ? notInArray(cases.id, selection.except) : undefined,
          ),
        );
      return rows.map((r) => r.id);
    },

    async findById(id: string, today: string): Promise<CaseRow | undefined> {
      const [row] = await withNames(today).where(eq(cases.id, id));
      return row && flatten(row);
    },

    async findMany(ids: string[], today: string): Promise<CaseRow[]> {
      if (!ids.length) return [];
      return (await withNames(today).where(inArray(cases.id, ids))).map(flatten);
    },

    async insert(values: CaseInsert): Promise<string> {
      const [row] = await db.insert(cases).values(values).returning({ id: cases.id });
      return row!.id;
    },

    async update(id: string, values: Partial<CaseInsert>, at: Date): Promise<void> {
      await db
        .update(cases)
        .set({ ...values, updatedAt: at })
        .where(eq(cases.id, id));
    },

    async moveToProject(ids: string[], target: { projectId: string; clientId: string }, at: Date): Promise<void> {
      // The old project's season does not exist in the new one: the case is unplaced.
      await db
        .update(cases)
        .set({
          projectId: target.projectId,
          clientId: target.clientId,
          seasonId: null,
          roundNumber: null,
          updatedAt: at,
        })
        .where(inArray(cases.id, ids));
    },

    async insertMany(values: CaseInsert[]): Promise<string[]> {
      if (!values.length) return [];
      return (await db.insert(cases).values(values).returning({ id: cases.id })).map((r) => r.id);
    },

    async moveToModule(id: string, moduleId: string, at: Date): Promise<void> {
      await db
        .update(cases)
        .set({
          origin: 'MODULE_LIBRARY',
          moduleId,
          projectId: null,
          clientId: null,
          seasonId: null,
          roundNumber: null,
          updatedAt: at,
        })
        .where(eq(cases.id, id));
    },

    /** A module library's catalogues, as a case's home; undefined when there is no such module. */
    async moduleFacts(moduleId: string) {
      const [found] = await db.select({ id: modules.id }).from(modules).where(eq(modules.id, moduleId));
      if (!found) return undefined;
      const [diseases, categories] = await Promise.all([
        db
          .select({ id: moduleDiseaseTypes.diseaseTypeId })
          .from(moduleDiseaseTypes)
          .where(eq(moduleDiseaseTypes.moduleId, moduleId)),
        db
          .select({ id: moduleQuestionCategories.questionCategoryId })
          .from(moduleQuestionCategories)
          .where(eq(moduleQuestionCategories.moduleId, moduleId)),
      ]);
      return { disease_type_ids: diseases.map((d) => d.id), question_category_ids: categories.map((c) => c.id) };
    },

    /**
     * Locks these case rows until the transaction ends, so the rules a move or delete checks
     * hold at its write: a status change waits, and so does a participant's attempt (its key
     * takes a share lock on the row). In id order, so two such transactions cannot deadlock.
     */
    async lock(ids: string[]): Promise<void> {
      if (!ids.length) return;
      await db.execute(sql`select id from ${cases} where ${inArray(cases.id, ids)} order by id for update`);
    },

    async delete(ids: string[]): Promise<void> {
      if (ids.length) await db.delete(cases).where(inArray(cases.id, ids));
    },

    /** Per case: participants assigned to its round, and whether its season has not ended. */
    async moveFacts(ids: string[], today: string) {
      if (!ids.length) return [];
      return db
        .select({
          id: cases.id,
          participants: participantCount,
          seasonCurrentOrFuture: sql<boolean>`coalesce(${seasons.endDate} >= ${today}::date, false)`,
        })
        .from(cases)
        .leftJoin(seasons, eq(seasons.id, cases.seasonId))
        .where(inArray(cases.id, ids));
    },

    async counts(id: string): Promise<{ participants: number; previews: number }> {
      const [row] = await db
        .select({
          participants: participantCount,
          previews: sql<number>`(select cast(count(*) as integer) from ${casePreviews} p where p.case_id = "cases"."id")`,
        })
        .from(cases)
        .where(eq(cases.id, id));
      return row ?? { participants: 0, previews: 0 };
    },

    /**
     * Publishes a draft, if it is still the draft that was checked (same `updated_at`): an
     * edit saved between the check and this write is not published unchecked.
     */
    async publish(id: string, checkedAt: Date, at: Date): Promise<boolean> {
      const done = await db
        .update(cases)
        .set({ status: 'PUBLISHED', updatedAt: at })
        .where(
          and(
            eq(cases.id, id),
            eq(cases.status, 'DRAFT'),
            // A Date holds milliseconds; the column may hold microseconds (a default of now()).
            sql`date_trunc('milliseconds', ${cases.updatedAt}) = ${checkedAt.toISOString()}::timestamptz`,
          ),
        )
        .returning({ id: cases.id });
      return done.length > 0;
    },

    /**
     * Takes a published case back to draft unless it is active or any participant has it (an
     * attempt, started or not): the rule and the write are one statement. The service runs it
     * after locking the case's row (`lock`), so it sees every attempt committed before it and
     * a participant's write (which holds a share lock on the row) cannot slip between.
     */
    async unpublish(id: string, today: string, at: Date): Promise<boolean> {
      const done = await db
        .update(cases)
        .set({ status: 'DRAFT', updatedAt: at })
        .where(
          and(
            eq(cases.id, id),
            eq(cases.status, 'PUBLISHED'),
            sql`${effectiveStatus(today)} <> 'ACTIVE'`,
            sql`not exists (select 1 from ${userSeasonRoundCases} u where u.case_id = ${id})`,
          ),
        )
        .returning({ id: cases.id });
      return done.length > 0;
    },

    /** Saves a draft's content; false (nothing written) when the case is no longer a draft. */
    async updateDraft(id: string, values: Partial<CaseInsert>, at: Date): Promise<boolean> {
      const done = await db
        .update(cases)
        .set({ ...values, updatedAt: at })
        .where(and(eq(cases.id, id), eq(cases.status, 'DRAFT')))
        .returning({ id: cases.id });
      return done.length > 0;
    },

    async seasonOfProject(seasonId: string, projectId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: seasons.id })
        .from(seasons)
        .where(and(eq(seasons.id, seasonId), eq(seasons.projectId, projectId)));
      return Boolean(row);
    },

    /** Whether a season has a round of this number (seasons have one to four). */
    async roundOfSeason(seasonId: string, roundNumber: number): Promise<boolean> {
      const [row] = await db
        .select({ id: rounds.id })
        .from(rounds)
        .where(and(eq(rounds.seasonId, seasonId), eq(rounds.number, roundNumber)));
      return Boolean(row);
    },
  };
}
export type CasesRepository = ReturnType<typeof createCasesRepository>;
