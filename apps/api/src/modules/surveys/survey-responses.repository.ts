import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { SurveyTemplateTypeValue } from '@pss/contract';
import type { Executor } from '../../db/client.js';
import {
  cases,
  participantAssignments,
  seasons,
  surveyResponses,
  surveyTemplates,
  users,
  userSeasonRoundCases,
} from '../../db/schema/index.js';
import { countAll } from '../../lib/list-query.js';
import type { SurveyResponseRow } from './surveys.repository.js';

/**
 * Participants' side of the surveys: their cases and seasons (what is due), their answers,
 * the profile an info review shows them, and the answers as the survey report reads them.
 */
export function createSurveyResponsesRepository(db: Executor) {
  return {
    async attempt(id: string) {
      const [row] = await db
        .select({
          id: userSeasonRoundCases.id,
          userId: userSeasonRoundCases.userId,
          projectId: userSeasonRoundCases.projectId,
          seasonId: userSeasonRoundCases.seasonId,
          status: userSeasonRoundCases.status,
        })
        .from(userSeasonRoundCases)
        .where(eq(userSeasonRoundCases.id, id));
      return row;
    },

    /** Whether the participant was assigned to a season (of any project) that starts before this one. */
    async returning(userId: string, seasonId: string): Promise<boolean> {
      const [row] = await db
        .select({ n: countAll })
        .from(participantAssignments)
        .innerJoin(seasons, eq(seasons.id, participantAssignments.seasonId))
        .where(
          and(
            eq(participantAssignments.userId, userId),
            sql`${seasons.startDate} < (select s.start_date from ${seasons} s where s.id = ${seasonId})`,
          ),
        );
      return (row?.n ?? 0) > 0;
    },

    /** Every case of theirs in the season complete (and at least one). */
    async seasonComplete(userId: string, seasonId: string): Promise<boolean> {
      const [row] = await db
        .select({ done: sql<boolean>`coalesce(bool_and(${userSeasonRoundCases.status} = 'COMPLETE'), false)` })
        .from(userSeasonRoundCases)
        .where(and(eq(userSeasonRoundCases.userId, userId), eq(userSeasonRoundCases.seasonId, seasonId)));
      return row?.done ?? false;
    },

    /** Whether they completed a survey of one of these types in the season. */
    async completedInSeason(userId: string, seasonId: string, types: SurveyTemplateTypeValue[]): Promise<boolean> {
      const [row] = await db
        .select({ n: countAll })
        .from(surveyResponses)
        .where(
          and(
            eq(surveyResponses.userId, userId),
            eq(surveyResponses.seasonId, seasonId),
            inArray(surveyResponses.templateType, types),
            isNotNull(surveyResponses.completedAt),
          ),
        );
      return (row?.n ?? 0) > 0;
    },

    async response(userId: string, templateId: string, attemptId: string): Promise<SurveyResponseRow | undefined> {
      const [row] = await db
        .select()
        .from(surveyResponses)
        .where(
          and(
            eq(surveyResponses.userId, userId),
            eq(surveyResponses.templateId, templateId),
            eq(surveyResponses.userSeasonRoundCaseId, attemptId),
          ),
        );
      return row;
    },

    /**
     * Keeps the answers (and completes the survey when asked), only while it is not complete:
     * false when it already was (nothing written).
     */
    async saveResponse(
      values: Omit<typeof surveyResponses.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>,
      now: Date,
    ): Promise<boolean> {
      const rows = await db
        .insert(surveyResponses)
        .values({ ...values, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [surveyResponses.userId, surveyResponses.templateId, surveyResponses.userSeasonRoundCaseId],
          set: { answers: values.answers, completedAt: values.completedAt, updatedAt: now },
          setWhere: sql`${surveyResponses.completedAt} is null`,
        })
        .returning({ id: surveyResponses.id });
      return rows.length > 0;
    },

    async profile(userId: string) {
      const [row] = await db
        .select({
          id: users.id,
          salutation: users.salutation,
          firstName: users.firstName,
          lastName: users.lastName,
          displayName: users.displayName,
          profession: users.profession,
          specialty: users.specialty,
          facility: users.facility,
          npi: users.npi,
          practiceNumber: users.practiceNumber,
          mobileNumber: users.mobileNumber,
        })
        .from(users)
        .where(eq(users.id, userId));
      return row;
    },

    /* ---------- the report ---------- */

    /** The templates of a type that the project's participants answered, first answered first. */
    async answeredTemplates(projectId: string, type: SurveyTemplateTypeValue) {
      return db
        .select({ id: surveyTemplates.id, name: surveyTemplates.name, pages: surveyTemplates.pages })
        .from(surveyTemplates)
        .where(
          sql`${surveyTemplates.id} in (select ${surveyResponses.templateId} from ${surveyResponses}
              where ${surveyResponses.projectId} = ${projectId} and ${surveyResponses.templateType} = ${type})`,
        )
        .orderBy(asc(surveyTemplates.createdAt), asc(surveyTemplates.id));
    },

    /** These participants' responses of a type in the project, with the case each hangs on. */
    async responsesOf(projectId: string, type: SurveyTemplateTypeValue, userIds: string[]) {
      if (!userIds.length) return [];
      return db
        .select({
          userId: surveyResponses.userId,
          templateId: surveyResponses.templateId,
          seasonId: surveyResponses.seasonId,
          roundNumber: userSeasonRoundCases.roundNumber,
          caseName: cases.name,
          answers: surveyResponses.answers,
          completedAt: surveyResponses.completedAt,
          updatedAt: surveyResponses.updatedAt,
        })
        .from(surveyResponses)
        .innerJoin(userSeasonRoundCases, eq(userSeasonRoundCases.id, surveyResponses.userSeasonRoundCaseId))
        .innerJoin(cases, eq(cases.id, userSeasonRoundCases.caseId))
        .where(
          and(
            eq(surveyResponses.projectId, projectId),
            eq(surveyResponses.templateType, type),
            inArray(surveyResponses.userId, userIds),
          ),
        )
        .orderBy(asc(surveyResponses.createdAt), asc(surveyResponses.id));
    },
  };
}

export type SurveyResponsesRepository = ReturnType<typeof createSurveyResponsesRepository>;
