import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './client.js';

/**
 * The cases the assignments call for, as rows (user_id, project_id, case_id, season_id,
 * round_number, unlocks_on): every published case placed in a round a participant (not
 * archived) is assigned to, unlocking on the later of the round's start and the
 * participant's start date. The one place this rule lives: the UserSeasonRoundCases are
 * made from it, and the statistics count by it (without writing).
 */
export function assignedCases(where: SQL): SQL {
  return sql`
    select pa.user_id, pa.project_id, c.id as case_id, c.season_id, c.round_number,
      greatest(r.start_date, pa.start_date) as unlocks_on
    from participant_assignments pa
    join project_participants pp on pp.project_id = pa.project_id and pp.user_id = pa.user_id and not pp.archived
    join cases c on c.project_id = pa.project_id and c.season_id = pa.season_id and c.status = 'PUBLISHED'
      and c.round_number between pa.first_round and pa.last_round
    join rounds r on r.season_id = c.season_id and r.number = c.round_number
    where ${where}`;
}

/**
 * Makes the UserSeasonRoundCases the assignments call for (see `assignedCases`). Set-based
 * and idempotent; the participant's dashboard, the progress views and the progress filter
 * run it.
 */
export async function syncAttempts(db: Pick<Db, 'execute'>, scope: { userId: string } | { projectId: string }) {
  const where = 'userId' in scope ? sql`pa.user_id = ${scope.userId}` : sql`pa.project_id = ${scope.projectId}`;
  // The anti-join leaves out the attempts that exist (nearly all of them, once a project
  // runs) before the insert: 130,000 conflicting rows cost over a second; skipped, a fraction.
  await db.execute(sql`
    insert into user_season_round_cases (user_id, project_id, case_id, season_id, round_number, unlocks_on)
    select a.* from (${assignedCases(where)}) a
    where not exists (
      select 1 from user_season_round_cases x where x.user_id = a.user_id and x.case_id = a.case_id)
    on conflict (user_id, case_id) do nothing`);
}

/**
 * Whether the participant completed the season: they have cases in it and every one of
 * them is COMPLETE. The one place this rule lives: a posted Season Results Summary shows
 * to exactly these participants, and its launch and reminder emails go to them.
 */
export function completedSeason(userId: SQL, seasonId: SQL): SQL {
  return sql`(exists (select 1 from user_season_round_cases done
      where done.user_id = ${userId} and done.season_id = ${seasonId})
    and not exists (select 1 from user_season_round_cases left_over
      where left_over.user_id = ${userId} and left_over.season_id = ${seasonId} and left_over.status <> 'COMPLETE'))`;
}
