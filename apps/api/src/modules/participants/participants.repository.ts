import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { ParticipantFilter } from '@pss/contract';
import { syncAttempts } from '../../db/attempt-sync.js';
import type { Db } from '../../db/client.js';
import { projectsWithStaleSearch, refreshParticipantSearch } from '../../db/participant-search.js';
import { projectParticipants } from '../../db/schema/index.js';
import { recountParticipants } from '../../db/participant-counts.js';
import { createParticipantExportReads } from './participant-export-reads.js';
import { participantListCondition } from './participant-list-condition.js';
import { createParticipantList } from './participant-list.js';

export type { ExportAssignment, ExportRow } from './participant-export-reads.js';
export type { ParticipantListHead, ParticipantRow } from './participant-list.js';

export function createParticipantsRepository(db: Db) {
  return {
    /** Brings the search rows of projects whose search is stale up to date (see db/participant-search.ts). */
    async refreshStaleSearch(): Promise<void> {
      // Claimed per project: every process's worker runs this, one of them refreshes each.
      for (const projectId of await projectsWithStaleSearch(db)) {
        await refreshParticipantSearch(db, projectId, { claim: true });
      }
    },

    /**
     * A large import leaves pages the visibility map does not know yet (deep pages then read
     * the table instead of the index) and a GIN pending list to merge, until autovacuum
     * comes by. Run after the import has completed, outside any transaction.
     */
    async tidyAfterImport(): Promise<void> {
      await db.execute(sql`vacuum analyze project_participants`);
      await db.execute(sql`vacuum analyze participant_search`);
      // Fresh statistics for the next import's plans (the embedded database has no autovacuum).
      await db.execute(sql`analyze users`);
      await db.execute(sql`analyze participant_assignments`);
    },

    /** Brings the project's UserSeasonRoundCases up to date (before filtering by progress). */
    syncAttempts: (projectId: string) => syncAttempts(db, { projectId }),

    ...createParticipantList(db),

    ...createParticipantExportReads(db),

    /** Ids of a selection: given ids within the project, or all matching except some. */
    async selectIds(
      projectId: string,
      selection: { ids: string[] } | { except: string[]; search?: string; filter: ParticipantFilter },
    ): Promise<string[]> {
      const where =
        'ids' in selection
          ? and(eq(projectParticipants.projectId, projectId), inArray(projectParticipants.userId, selection.ids))
          : and(
              await participantListCondition(db, projectId, selection.search, selection.filter),
              selection.except.length ? notInArray(projectParticipants.userId, selection.except) : undefined,
            );
      const rows = await db.select({ id: projectParticipants.userId }).from(projectParticipants).where(where);
      return rows.map((r) => r.id);
    },

    async setArchived(projectId: string, userIds: string[], archived: boolean, at: Date): Promise<number> {
      if (!userIds.length) return 0;
      return db.transaction(async (tx) => {
        let updated = 0;
        for (let i = 0; i < userIds.length; i += 1000) {
          const rows = await tx
            .update(projectParticipants)
            .set({ archived, archivedAt: archived ? at : null })
            .where(
              and(
                eq(projectParticipants.projectId, projectId),
                inArray(projectParticipants.userId, userIds.slice(i, i + 1000)),
                eq(projectParticipants.archived, !archived),
              ),
            )
            .returning({ id: projectParticipants.userId });
          updated += rows.length;
        }
        await recountParticipants(tx, projectId);
        return updated;
      });
    },

    async setNotes(projectId: string, userId: string, notes: string | null): Promise<boolean> {
      const rows = await db
        .update(projectParticipants)
        .set({ notes })
        .where(and(eq(projectParticipants.projectId, projectId), eq(projectParticipants.userId, userId)))
        .returning({ id: projectParticipants.userId });
      return rows.length === 1;
    },
  };
}
export type ParticipantsRepository = ReturnType<typeof createParticipantsRepository>;
