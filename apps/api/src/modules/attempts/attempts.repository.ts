import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { StoredCaseStatus } from '@pss/contract';
import { syncAttempts } from '../../db/attempt-sync.js';
import { choiceTagsOf } from '../../db/choice-tags.js';
import { rowsOf, type Db, type Tx } from '../../db/client.js';
import {
  caseAnswers,
  cases,
  cmes,
  keyTakeaways,
  projects,
  seasons,
  userSeasonRoundCases,
} from '../../db/schema/index.js';

export type AttemptRecord = typeof userSeasonRoundCases.$inferSelect;
export interface AttemptRow extends AttemptRecord {
  /** The case's stored status: only a PUBLISHED case is taken. */
  caseStatus: StoredCaseStatus;
  caseName: string;
  patientName: string;
  seasonName: string;
  projectName: string;
}

type CaseQuestions = (typeof cases.$inferSelect)['body']['questions'];
/** An attempt as its participant works on it: with the questions it is answered against. */
export type FoundAttempt = AttemptRow & { questions: CaseQuestions };

export interface AnswerInput {
  questionId: string;
  choiceIds: string[];
  text: string | null;
  noneOfBelow: boolean;
}

export type AnswerRecord = typeof caseAnswers.$inferSelect;
/** Why an answer or a submit was not taken: the attempt is submitted, or its case is not published. */
export type SubmitRefusal = 'complete' | 'not-published';

/**
 * Whether the attempt's case is published, holding a share lock on the case's row until the
 * transaction ends: a status change (which updates that row) waits for the participant's
 * write, and a participant's write after it finds the case as changed.
 */
async function lockPublishedCase(tx: Tx, attemptId: string): Promise<boolean> {
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      select c.id from cases c join user_season_round_cases u on u.case_id = c.id
      where u.id = ${attemptId} and c.status = 'PUBLISHED'
      for share of c`),
  );
  return rows.length > 0;
}

export function createAttemptsRepository(db: Db) {
  const attemptColumns = {
    attempt: userSeasonRoundCases,
    caseStatus: cases.status,
    caseName: cases.name,
    patientName: cases.patientName,
    seasonName: seasons.name,
    projectName: projects.name,
  };
  const flatten = (r: {
    attempt: AttemptRecord;
    caseStatus: StoredCaseStatus;
    caseName: string;
    patientName: string;
    seasonName: string;
    projectName: string;
  }) => ({
    ...r.attempt,
    caseStatus: r.caseStatus,
    caseName: r.caseName,
    patientName: r.patientName,
    seasonName: r.seasonName,
    projectName: r.projectName,
  });
  /** Attempts with the names they are shown by (and the case's questions, when asked for). */
  function withNames<Extra extends Record<string, SQL>>(extra: Extra = {} as Extra) {
    return db
      .select({ ...attemptColumns, ...extra })
      .from(userSeasonRoundCases)
      .innerJoin(cases, eq(cases.id, userSeasonRoundCases.caseId))
      .innerJoin(seasons, eq(seasons.id, userSeasonRoundCases.seasonId))
      .innerJoin(projects, eq(projects.id, userSeasonRoundCases.projectId));
  }

  return {
    sync: (scope: { userId: string } | { projectId: string }) => syncAttempts(db, scope),

    async listForUser(userId: string, projectId?: string): Promise<AttemptRow[]> {
      const rows = await withNames()
        .where(
          and(
            eq(userSeasonRoundCases.userId, userId),
            projectId ? eq(userSeasonRoundCases.projectId, projectId) : undefined,
          ),
        )
        .orderBy(
          asc(projects.name),
          asc(userSeasonRoundCases.unlocksOn),
          asc(userSeasonRoundCases.roundNumber),
          asc(cases.name),
        );
      return rows.map(flatten);
    },

    /** One attempt, with its case's questions: what answering and submitting check against. */
    async find(id: string): Promise<FoundAttempt | undefined> {
      const [row] = await withNames({ questions: sql<CaseQuestions>`${cases.body}->'questions'` }).where(
        eq(userSeasonRoundCases.id, id),
      );
      return row && { ...flatten(row), questions: row.questions };
    },

    /** The participant's attempt at a case (their UserSeasonRoundCase), if they are assigned it. */
    async findByCase(userId: string, caseId: string): Promise<FoundAttempt | undefined> {
      const [row] = await withNames({ questions: sql<CaseQuestions>`${cases.body}->'questions'` }).where(
        and(eq(userSeasonRoundCases.userId, userId), eq(userSeasonRoundCases.caseId, caseId)),
      );
      return row && { ...flatten(row), questions: row.questions };
    },

    async answers(attemptId: string) {
      return db.select().from(caseAnswers).where(eq(caseAnswers.userSeasonRoundCaseId, attemptId));
    },

    /**
     * Saves one answer, unless the case is submitted or not published. The attempt's row is
     * locked by the update that moves it to IN_PROGRESS (a submit holds the same lock while
     * it scores), so an answer lands either before a submit reads the answers or after it,
     * when the attempt is COMPLETE and the answer is refused.
     */
    async saveAnswer(attemptId: string, answer: AnswerInput, at: Date): Promise<'saved' | SubmitRefusal> {
      return db.transaction(async (tx) => {
        if (!(await lockPublishedCase(tx, attemptId))) return 'not-published';
        const moved = await tx
          .update(userSeasonRoundCases)
          .set({
            status: 'IN_PROGRESS',
            startedAt: sql`coalesce(${userSeasonRoundCases.startedAt}, ${at})`,
          })
          .where(and(eq(userSeasonRoundCases.id, attemptId), ne(userSeasonRoundCases.status, 'COMPLETE')))
          .returning({ id: userSeasonRoundCases.id });
        if (!moved.length) return 'complete';
        await tx
          .insert(caseAnswers)
          .values({ userSeasonRoundCaseId: attemptId, ...answer, updatedAt: at })
          .onConflictDoUpdate({
            target: [caseAnswers.userSeasonRoundCaseId, caseAnswers.questionId],
            set: { choiceIds: answer.choiceIds, text: answer.text, noneOfBelow: answer.noneOfBelow, updatedAt: at },
          });
        return 'saved';
      });
    },

    /** Starts an attempt (once); false when its case is not published. */
    async start(attemptId: string, at: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        if (!(await lockPublishedCase(tx, attemptId))) return false;
        await tx
          .update(userSeasonRoundCases)
          .set({ status: 'STARTED', startedAt: at })
          .where(and(eq(userSeasonRoundCases.id, attemptId), eq(userSeasonRoundCases.status, 'NOT_STARTED')));
        return true;
      });
    },

    /**
     * Submits an attempt: with its row locked, reads the answers, lets `judge` score them (or
     * refuse, naming what is missing) and records the score, all in one transaction. An
     * answer sent meanwhile waits for the lock and then finds the attempt COMPLETE, so the
     * score always covers every answer stored. A second submit changes nothing.
     */
    async submit<Missing>(
      attemptId: string,
      at: Date,
      judge: (answers: AnswerRecord[]) => { score: number } | { missing: Missing },
    ): Promise<'completed' | SubmitRefusal | { missing: Missing }> {
      return db.transaction(async (tx) => {
        if (!(await lockPublishedCase(tx, attemptId))) return 'not-published';
        const [current] = rowsOf<{ status: string }>(
          await tx.execute(sql`select status from user_season_round_cases where id = ${attemptId} for update`),
        );
        if (!current || current.status === 'COMPLETE') return 'complete';
        const answers = await tx.select().from(caseAnswers).where(eq(caseAnswers.userSeasonRoundCaseId, attemptId));
        const verdict = judge(answers);
        if ('missing' in verdict) return verdict;
        await tx
          .update(userSeasonRoundCases)
          .set({
            status: 'COMPLETE',
            score: verdict.score,
            submittedAt: at,
            startedAt: sql`coalesce(${userSeasonRoundCases.startedAt}, ${at})`,
          })
          .where(eq(userSeasonRoundCases.id, attemptId));
        return 'completed';
      });
    },

    async stamp(attemptId: string, field: 'scoreAccessedAt' | 'finishedAt', at: Date): Promise<void> {
      await db
        .update(userSeasonRoundCases)
        .set({ [field]: sql`coalesce(${userSeasonRoundCases[field]}, ${at})` })
        .where(eq(userSeasonRoundCases.id, attemptId));
    },

    tagsOf: (caseId: string) => choiceTagsOf(db, caseId),

    async takeawaysOf(caseIds: string[]) {
      if (!caseIds.length) return [];
      return db
        .select({ caseId: keyTakeaways.caseId, text: keyTakeaways.text })
        .from(keyTakeaways)
        .where(inArray(keyTakeaways.caseId, caseIds))
        .orderBy(asc(keyTakeaways.caseId), asc(keyTakeaways.position));
    },

    async cmesOf(projectIds: string[]) {
      if (!projectIds.length) return [];
      return db.select().from(cmes).where(inArray(cmes.projectId, projectIds)).orderBy(asc(cmes.minCases));
    },

    /** The season and round running today in each project, if any. */
    async runningRounds(projectIds: string[], today: string) {
      if (!projectIds.length) return [];
      return rowsOf<{ project_id: string; season_name: string; round_number: number; end_date: string }>(
        await db.execute(sql`
          select s.project_id, s.name as season_name, r.number as round_number, r.end_date::text as end_date
          from rounds r join seasons s on s.id = r.season_id
          where s.project_id in (${sql.join(
            projectIds.map((id) => sql`${id}`),
            sql`, `,
          )}) and r.start_date <= ${today}::date and r.end_date >= ${today}::date`),
      );
    },
  };
}
export type AttemptsRepository = ReturnType<typeof createAttemptsRepository>;
