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
  await x.execute(sql`
    update projects set
      active_participants = (select count(*) from project_participants where project_id = ${projectId} and not archived),
      archived_participants = (select count(*) from project_participants where project_id = ${projectId} and archived),
      not_ready_participants = (select count(*) from project_participants where project_id = ${projectId} and not archived and data_status = 'NOT_READY')
    where id = ${projectId}`);
}
