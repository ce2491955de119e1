import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { syncAttempts } from '../../db/attempt-sync.js';
import { rowsOf, type Db } from '../../db/client.js';
import { isParticipantSearchIndexed, participantSearchCondition } from '../../db/participant-search.js';
import type { EmailTypeValue } from '@pss/contract';
import {
  caseAnswers,
  cases,
  emailOutbox,
  emailTemplates,
  participantAssignments,
  projectParticipants,
  userSeasonRoundCases,
  users,
  type CaseBody,
} from '../../db/schema/index.js';

/**
 * The reports' reads. Every report is about the clinicians taking part: a project's
 * participants who are not archived and not test users (`participantScope`), read a page
 * at a time in name order, continuing by keyset, with what each page needs read for that
 * page's participants only.
 */

/** Where a page of participants continues: after this sort name and user id. */
export interface PageAfter {
  sortName: string;
  userId: string;
}

export interface PersonRow {
  userId: string;
  sortName: string;
  lastName: string;
  firstName: string;
  email: string;
  employeeId: string | null;
  profession: string | null;
}

export interface AssignmentRow {
  userId: string;
  seasonId: string;
  firstRound: number;
  lastRound: number;
  startDate: string;
}

export type AttemptStatus = 'NOT_STARTED' | 'STARTED' | 'IN_PROGRESS' | 'COMPLETE';

export interface AttemptRow {
  id: string;
  userId: string;
  seasonId: string;
  roundNumber: number;
  caseId: string;
  status: AttemptStatus;
  score: number | null;
  unlocksOn: string;
  startedAt: Date | null;
  submittedAt: Date | null;
  scoreAccessedAt: Date | null;
  finishedAt: Date | null;
}

export interface AnswerRow {
  attemptId: string;
  questionId: string;
  choiceIds: string[];
  noneOfBelow: boolean;
}

export interface CaseRow {
  id: string;
  name: string;
  body: CaseBody;
}

export interface UsageRow {
  userId: string;
  signIns: number;
  firstSignIn: Date | null;
  lastSignIn: Date | null;
  lastSeen: Date | null;
  lastAnswer: Date | null;
}

/** A participant's emails of one type in the project: delivered, and not (failed or suppressed). */
export interface EmailCountRow {
  userId: string;
  type: EmailTypeValue;
  sent: number;
  undelivered: number;
  lastSent: Date | null;
}

export interface CaseProgressRow {
  seasonId: string;
  roundNumber: number;
  caseId: string;
  caseName: string;
  assigned: number;
  started: number;
  completed: number;
  averageScore: number | null;
}

/** Which participants a page holds beyond the scope: those assigned in a season, or with cases in it. */
export type PageRequirement = { assignedIn: string | null } | { attemptsIn: string | null } | null;

const toDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(String(value));

export function createReportsRepository(db: Db) {
  return {
    /** Brings the project's UserSeasonRoundCases up to date with its assignments first (db/attempt-sync.ts). */
    syncAttempts: (projectId: string) => syncAttempts(db, { projectId }),

    /** Whether the project's participant search rows may be used (db/participant-search.ts). */
    searchIndexed: (projectId: string) => isParticipantSearchIndexed(db, projectId),

    /** One page of the clinicians taking part, in name order, after `after`. */
    async participantPage(
      projectId: string,
      options: {
        after: PageAfter | null;
        limit: number;
        search?: { text: string; indexed: boolean } | undefined;
        requirement: PageRequirement;
      },
    ): Promise<PersonRow[]> {
      const { after, requirement, search } = options;
      let required: SQL | undefined;
      if (requirement && 'assignedIn' in requirement) {
        required = sql`exists (select 1 from ${participantAssignments} pa where pa.user_id = ${projectParticipants.userId}
          and pa.project_id = ${projectId}${requirement.assignedIn ? sql` and pa.season_id = ${requirement.assignedIn}` : sql``})`;
      } else if (requirement) {
        required = sql`exists (select 1 from ${userSeasonRoundCases} a where a.user_id = ${projectParticipants.userId}
          and a.project_id = ${projectId}${requirement.attemptsIn ? sql` and a.season_id = ${requirement.attemptsIn}` : sql``})`;
      }
      return db
        .select({
          userId: projectParticipants.userId,
          sortName: projectParticipants.sortName,
          lastName: users.lastName,
          firstName: users.firstName,
          email: users.email,
          employeeId: users.employeeId,
          profession: users.profession,
        })
        .from(projectParticipants)
        .innerJoin(users, eq(users.id, projectParticipants.userId))
        .where(
          and(
            eq(projectParticipants.projectId, projectId),
            eq(projectParticipants.archived, false),
            ne(users.role, 'TESTUSER'),
            search ? participantSearchCondition(projectId, search.text, search.indexed) : undefined,
            after
              ? sql`(${projectParticipants.sortName}, ${projectParticipants.userId}) > (${after.sortName}, ${after.userId}::uuid)`
              : undefined,
            required,
          ),
        )
        .orderBy(asc(projectParticipants.sortName), asc(projectParticipants.userId))
        .limit(options.limit);
    },

    /** The season assignments of a page's participants (of one season, when named). */
    async assignmentsOf(projectId: string, userIds: string[], seasonId: string | null): Promise<AssignmentRow[]> {
      if (!userIds.length) return [];
      return db
        .select({
          userId: participantAssignments.userId,
          seasonId: participantAssignments.seasonId,
          firstRound: participantAssignments.firstRound,
          lastRound: participantAssignments.lastRound,
          startDate: participantAssignments.startDate,
        })
        .from(participantAssignments)
        .where(
          and(
            eq(participantAssignments.projectId, projectId),
            inArray(participantAssignments.userId, userIds),
            seasonId ? eq(participantAssignments.seasonId, seasonId) : undefined,
          ),
        );
    },

    /** The UserSeasonRoundCases of a page's participants in the project (of one season, when named). */
    async attemptsOf(projectId: string, userIds: string[], seasonId: string | null): Promise<AttemptRow[]> {
      if (!userIds.length) return [];
      const u = userSeasonRoundCases;
      return db
        .select({
          id: u.id,
          userId: u.userId,
          seasonId: u.seasonId,
          roundNumber: u.roundNumber,
          caseId: u.caseId,
          status: u.status,
          score: u.score,
          unlocksOn: u.unlocksOn,
          startedAt: u.startedAt,
          submittedAt: u.submittedAt,
          scoreAccessedAt: u.scoreAccessedAt,
          finishedAt: u.finishedAt,
        })
        .from(u)
        .where(
          and(eq(u.projectId, projectId), inArray(u.userId, userIds), seasonId ? eq(u.seasonId, seasonId) : undefined),
        );
    },

    /** The stored answers of some attempts. */
    async answersOf(attemptIds: string[]): Promise<AnswerRow[]> {
      if (!attemptIds.length) return [];
      return db
        .select({
          attemptId: caseAnswers.userSeasonRoundCaseId,
          questionId: caseAnswers.questionId,
          choiceIds: caseAnswers.choiceIds,
          noneOfBelow: caseAnswers.noneOfBelow,
        })
        .from(caseAnswers)
        .where(inArray(caseAnswers.userSeasonRoundCaseId, attemptIds));
    },

    /** The cases the project's participants have (with their questions), and those placed in its seasons. */
    async casesOf(projectId: string): Promise<CaseRow[]> {
      return db
        .select({ id: cases.id, name: cases.name, body: cases.body })
        .from(cases)
        .where(
          sql`${cases.projectId} = ${projectId} or ${cases.id} in (select a.case_id from ${userSeasonRoundCases} a where a.project_id = ${projectId})`,
        );
    },

    /**
     * For a page's participants: their sign-ins (a session family begins with each; staff
     * and participants alike sign in through sessions, which are not tied to a project),
     * when they were last seen (their latest token refresh), and their latest answer in the
     * project.
     */
    async usageOf(projectId: string, userIds: string[]): Promise<UsageRow[]> {
      if (!userIds.length) return [];
      const ids = sql.join(
        userIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      );
      const rows = rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          with families as (
            select s.user_id, min(s.created_at) as started, max(s.created_at) as last_seen
            from sessions s where s.user_id in (${ids}) group by s.user_id, s.family_id),
          signed as (
            select user_id, count(*)::int as sign_ins, min(started) as first_sign_in, max(started) as last_sign_in,
              max(last_seen) as last_seen
            from families group by user_id),
          answered as (
            select a.user_id, max(ca.updated_at) as last_answer
            from user_season_round_cases a join case_answers ca on ca.user_season_round_case_id = a.id
            where a.project_id = ${projectId} and a.user_id in (${ids}) group by a.user_id)
          select coalesce(s.user_id, n.user_id) as user_id, s.sign_ins, s.first_sign_in, s.last_sign_in, s.last_seen,
            n.last_answer
          from signed s full join answered n on n.user_id = s.user_id`),
      );
      return rows.map((r) => ({
        userId: String(r.user_id),
        signIns: Number(r.sign_ins ?? 0),
        firstSignIn: toDate(r.first_sign_in),
        lastSignIn: toDate(r.last_sign_in),
        lastSeen: toDate(r.last_seen),
        lastAnswer: toDate(r.last_answer),
      }));
    },

    /** For a page's participants: their emails from the project (not test sends), counted by type. */
    async emailsOf(projectId: string, userIds: string[]): Promise<EmailCountRow[]> {
      if (!userIds.length) return [];
      const rows = await db
        .select({
          userId: sql<string>`${emailOutbox.userId}`,
          type: emailTemplates.type,
          sent: sql<number>`(count(*) filter (where ${emailOutbox.status} = 'SENT'))::int`,
          undelivered: sql<number>`(count(*) filter (where ${emailOutbox.status} in ('FAILED', 'SUPPRESSED')))::int`,
          lastSent: sql<string | null>`max(${emailOutbox.sentAt})`,
        })
        .from(emailOutbox)
        .innerJoin(emailTemplates, eq(emailTemplates.id, emailOutbox.templateId))
        .where(
          and(eq(emailOutbox.projectId, projectId), inArray(emailOutbox.userId, userIds), ne(emailOutbox.kind, 'TEST')),
        )
        .groupBy(emailOutbox.userId, emailTemplates.type);
      return rows.map((r) => ({ ...r, lastSent: toDate(r.lastSent) }));
    },

    /**
     * Per case and season round: the clinicians assigned, those who began it, those who
     * completed it and their average score; and the published cases placed in the project's
     * rounds that nobody is assigned yet (zeros).
     */
    async caseProgress(projectId: string, scope: { seasonId: string | null; round: number | null }) {
      const seasonIs = (column: SQL) => (scope.seasonId ? sql` and ${column} = ${scope.seasonId}` : sql``);
      const roundIs = (column: SQL) => (scope.round ? sql` and ${column} = ${scope.round}` : sql``);
      const rows = rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          with counted as (
            select a.season_id, a.round_number, a.case_id, count(*)::int as assigned,
              (count(*) filter (where a.status <> 'NOT_STARTED'))::int as started,
              (count(*) filter (where a.status = 'COMPLETE'))::int as completed,
              avg(a.score) filter (where a.status = 'COMPLETE') as average_score
            from user_season_round_cases a
            join project_participants pp on pp.project_id = a.project_id and pp.user_id = a.user_id and not pp.archived
            join users u on u.id = a.user_id and u.role <> 'TESTUSER'
            where a.project_id = ${projectId}${seasonIs(sql`a.season_id`)}${roundIs(sql`a.round_number`)}
            group by a.season_id, a.round_number, a.case_id),
          placed as (
            select c.season_id, c.round_number, c.id as case_id
            from cases c join seasons s on s.id = c.season_id
            where s.project_id = ${projectId} and c.status = 'PUBLISHED' and c.round_number is not null
              ${seasonIs(sql`c.season_id`)}${roundIs(sql`c.round_number`)}),
          keyed as (select season_id, round_number, case_id from counted union select season_id, round_number, case_id from placed)
          select k.season_id, k.round_number, k.case_id, c.name as case_name,
            coalesce(n.assigned, 0) as assigned, coalesce(n.started, 0) as started,
            coalesce(n.completed, 0) as completed, n.average_score
          from keyed k
          join cases c on c.id = k.case_id
          join seasons s on s.id = k.season_id
          left join counted n on n.season_id = k.season_id and n.round_number = k.round_number and n.case_id = k.case_id
          order by s.position, k.round_number, lower(c.name), c.id`),
      );
      return rows.map((r): CaseProgressRow => ({
        seasonId: String(r.season_id),
        roundNumber: Number(r.round_number),
        caseId: String(r.case_id),
        caseName: String(r.case_name),
        assigned: Number(r.assigned),
        started: Number(r.started),
        completed: Number(r.completed),
        averageScore: r.average_score === null || r.average_score === undefined ? null : Number(r.average_score),
      }));
    },
  };
}
export type ReportsRepository = ReturnType<typeof createReportsRepository>;
