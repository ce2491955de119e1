import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { ParticipantFilter } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { isParticipantSearchIndexed, participantSearchCondition } from '../../db/participant-search.js';
import { projectParticipants } from '../../db/schema/index.js';

/** A participant's progress in the project, from their UserSeasonRoundCases (qualified by hand: a raw subquery). */
function progressCondition(progress: 'NOT_STARTED' | 'IN_PROGRESS' | 'COMPLETE'): SQL {
  const mine = sql`u.user_id = "project_participants"."user_id" and u.project_id = "project_participants"."project_id"`;
  const begun = sql`exists (select 1 from user_season_round_cases u where ${mine} and u.status <> 'NOT_STARTED')`;
  const open = sql`exists (select 1 from user_season_round_cases u where ${mine} and u.status <> 'COMPLETE')`;
  const any = sql`exists (select 1 from user_season_round_cases u where ${mine})`;
  if (progress === 'NOT_STARTED') return sql`not ${begun}`;
  if (progress === 'COMPLETE') return sql`(${any} and not ${open})`;
  return sql`(${begun} and ${open})`;
}

/**
 * Whether the participant's address is on the suppression list, for good or for this
 * project's reminders (lower-cased there; the list's unique index starts with the address).
 */
export function suppressedCondition(): SQL {
  return sql`exists (select 1 from email_suppressions s where s.email = lower("project_participants"."email")
    and (s.project_id is null or s.project_id = "project_participants"."project_id"))`;
}

/**
 * The list's rows. A search uses the project's search rows when they are up to date:
 * `searchIndexed` when the caller has read it already (a list page's head), else asked here.
 */
export async function participantListCondition(
  db: Db,
  projectId: string,
  search: string | undefined,
  filter: ParticipantFilter,
  searchIndexed?: boolean,
): Promise<SQL | undefined> {
  return and(
    eq(projectParticipants.projectId, projectId),
    eq(projectParticipants.archived, filter.archived ?? false),
    filter.data_status ? eq(projectParticipants.dataStatus, filter.data_status) : undefined,
    filter.progress ? progressCondition(filter.progress) : undefined,
    filter.email_state === 'SUPPRESSED' ? suppressedCondition() : undefined,
    filter.email_state === 'DELIVERABLE' ? sql`not ${suppressedCondition()}` : undefined,
    search
      ? participantSearchCondition(
          projectId,
          search,
          searchIndexed ?? (await isParticipantSearchIndexed(db, projectId)),
        )
      : undefined,
  );
}
