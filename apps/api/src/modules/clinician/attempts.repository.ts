import { appendAuditEvents, type AuditEventInput } from '../audit/audit-scope.service.js';
import { eventParameters, SAVE_CHECKED_ANSWER, SAVE_CHECKED_ANSWER_RECORDED } from './answer-statement.js';
import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { StoredCaseStatus } from '@pss/contract';
import { syncAttempts } from '../../db/attempt-sync.js';
import { issueEarnedCertificates } from '../../db/certificates.js';
import { choiceTagsOf } from '../../db/choice-tags.js';
import { rowsOf, type Db, type Tx } from '../../db/client.js';
import { runPrepared } from '../../db/prepared.js';
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
  /** The season's last day (its last round's end date, `YYYY-MM-DD`, kept on the season's row). */
  seasonEndsOn: string | null;
  projectName: string;
}

export type CaseQuestions = (typeof cases.$inferSelect)['body']['questions'];
/**
 * An attempt as its participant works on it: with the questions it is answered against, and
 * the version of the case's row they were read from (its `xmin`: every update of the row
 * makes a new one), which `saveCheckedAnswer` compares with the row it writes under.
 */
export type FoundAttempt = AttemptRow & { questions: CaseQuestions; caseVersion: string };

/** What an answer was checked against, for the one-statement write (`saveCheckedAnswer`). */
export interface CheckedAgainst {
  userId: string;
  caseId: string;
  caseVersion: string;
  /** The caller's today: the attempt must have unlocked by then, and its season not ended before it. */
  today: string;
}

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
    seasonEndsOn: seasons.endDate,
    projectName: projects.name,
  };
  const flatten = (r: {
    attempt: AttemptRecord;
    caseStatus: StoredCaseStatus;
    caseName: string;
    patientName: string;
    seasonName: string;
    seasonEndsOn: string | null;
    projectName: string;
  }) => ({
    ...r.attempt,
    caseStatus: r.caseStatus,
    caseName: r.caseName,
    patientName: r.patientName,
    seasonName: r.seasonName,
    seasonEndsOn: r.seasonEndsOn,
    projectName: r.projectName,
  });
  const withQuestions = {
    questions: sql<CaseQuestions>`${cases.body}->'questions'`,
    caseVersion: sql<string>`${cases}.xmin::text`,
  };
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
      const [row] = await withNames(withQuestions).where(eq(userSeasonRoundCases.id, id));
      return row && { ...flatten(row), questions: row.questions, caseVersion: row.caseVersion };
    },

    /** The participant's attempt at a case (their UserSeasonRoundCase), if they are assigned it. */
    async findByCase(userId: string, caseId: string): Promise<FoundAttempt | undefined> {
      const [row] = await withNames(withQuestions).where(
        and(eq(userSeasonRoundCases.userId, userId), eq(userSeasonRoundCases.caseId, caseId)),
      );
      return row && { ...flatten(row), questions: row.questions, caseVersion: row.caseVersion };
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
    async saveAnswer(
      attemptId: string,
      answer: AnswerInput,
      at: Date,
      event: AuditEventInput | null = null,
    ): Promise<'saved' | SubmitRefusal> {
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
        if (event) await appendAuditEvents(tx, [event]);
        return 'saved';
      });
    },

    /**
     * `saveAnswer` in one statement (one round trip, no transaction of its own), for an answer
     * already checked against the questions of the case's row at `against.caseVersion`. It
     * writes only if every rule still holds at the write: the attempt is the caller's, of that
     * case, unlocked by `today`, its season not ended before `today`, not complete; the case is published and its row unchanged
     * since the questions were read. The locks are `saveAnswer`'s, in the same order: a share
     * lock on the case's row, then the attempt's row by its update (a submit waits for the
     * statement, or the update waits for the submit and then finds the attempt COMPLETE).
     * Answers false when it wrote nothing; the caller then takes the full path, which says why.
     */
    async saveCheckedAnswer(
      attemptId: string,
      against: CheckedAgainst,
      answer: AnswerInput,
      at: Date,
      event: AuditEventInput | null = null,
    ): Promise<boolean> {
      const [name, text] = event
        ? ['save-checked-answer-recorded', SAVE_CHECKED_ANSWER_RECORDED]
        : ['save-checked-answer', SAVE_CHECKED_ANSWER];
      const rows = await runPrepared<{ saved: number }>(db, name, text, [
        attemptId,
        against.userId,
        against.caseId,
        against.today,
        against.caseVersion,
        at,
        answer.questionId,
        JSON.stringify(answer.choiceIds),
        answer.text,
        answer.noneOfBelow,
        ...(event ? eventParameters(event) : []),
      ]);
      return rows.length > 0;
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
        // The CME certificates this completion earned, issued with it (db/certificates.ts).
        await issueEarnedCertificates(tx, attemptId, at);
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
