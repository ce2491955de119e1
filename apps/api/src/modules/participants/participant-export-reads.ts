import { and, eq, inArray, sql } from 'drizzle-orm';
import { PARTICIPANT_OPTIONAL_COLUMNS, type ParticipantFilter } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { participantAssignments, projectParticipants, seasons, users } from '../../db/schema/index.js';
import { fieldColumns } from '../../lib/field-columns.js';
import { participantListCondition } from './participant-list-condition.js';
import type { ParticipantRow } from './participant-list.js';

/** The details an export writes (the import's, participant-fields.ts), each under its own name. */
const exportedDetails = fieldColumns(PARTICIPANT_OPTIONAL_COLUMNS, users);

/** A participant as the export writes them: every detail the import reads. */
export type ExportRow = ParticipantRow & { sortName: string } & {
  [Name in (typeof PARTICIPANT_OPTIONAL_COLUMNS)[number]]: string | null;
};

export interface ExportAssignment {
  userId: string;
  season: string;
  firstRound: number;
  lastRound: number;
  startDate: string;
}

/** What an export reads of a project's participants, a page at a time. */
export function createParticipantExportReads(db: Db) {
  return {
    /**
     * One page of an export in name order, continuing after the last row of the previous
     * page (keyset), so a large export reads the name index once rather than re-walking it
     * page after page as OFFSET would.
     */
    async exportPage(
      projectId: string,
      search: string | undefined,
      filter: ParticipantFilter,
      after: { sortName: string; userId: string } | null,
      limit: number,
    ): Promise<ExportRow[]> {
      return db
        .select({
          userId: users.id,
          employeeId: users.employeeId,
          salutation: users.salutation,
          firstName: users.firstName,
          lastName: users.lastName,
          email: users.email,
          role: users.role,
          profession: users.profession,
          ...exportedDetails,
          dataStatus: projectParticipants.dataStatus,
          archived: projectParticipants.archived,
          notes: projectParticipants.notes,
          createdAt: projectParticipants.createdAt,
          sortName: projectParticipants.sortName,
        })
        .from(projectParticipants)
        .innerJoin(users, eq(users.id, projectParticipants.userId))
        .where(
          and(
            await participantListCondition(db, projectId, search, filter),
            after
              ? sql`(${projectParticipants.sortName}, ${projectParticipants.userId}) > (${after.sortName}, ${after.userId}::uuid)`
              : undefined,
          ),
        )
        .orderBy(projectParticipants.sortName, projectParticipants.userId)
        .limit(limit);
    },

    /** The assignments of some of a project's participants (an export page's), in season order. */
    async exportAssignments(projectId: string, userIds: string[]): Promise<ExportAssignment[]> {
      if (!userIds.length) return [];
      return db
        .select({
          userId: participantAssignments.userId,
          season: seasons.name,
          firstRound: participantAssignments.firstRound,
          lastRound: participantAssignments.lastRound,
          startDate: participantAssignments.startDate,
        })
        .from(participantAssignments)
        .innerJoin(seasons, eq(seasons.id, participantAssignments.seasonId))
        .where(and(eq(participantAssignments.projectId, projectId), inArray(participantAssignments.userId, userIds)))
        .orderBy(participantAssignments.userId, seasons.position);
    },
  };
}
