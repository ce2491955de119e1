import { sql } from 'drizzle-orm';
import type { Executor } from './client.js';

/**
 * The one rule for a project's kept participant counts (`projects.active_participants`,
 * `archived_participants`, `not_ready_participants`): counted from its `project_participants`
 * rows, archived or not, whatever the project's own status. Every writer of those rows runs it
 * in the same transaction — an import, an archive, and the demo's seed — so the project's
 * overview, its client's list of projects and its Participants tab agree.
 */
export async function recountParticipants(x: Pick<Executor, 'execute'>, projectId: string): Promise<void> {
  // One pass over the project's rows (an import's recount reads up to 100,000 of them).
  await x.execute(sql`
    update projects p set
      active_participants = c.active, archived_participants = c.archived, not_ready_participants = c.not_ready
    from (
      select count(*) filter (where not archived) as active,
        count(*) filter (where archived) as archived,
        count(*) filter (where not archived and data_status = 'NOT_READY') as not_ready
      from project_participants where project_id = ${projectId}
    ) c
    where p.id = ${projectId}`);
}
