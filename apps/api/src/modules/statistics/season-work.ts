import { sql, type SQL } from 'drizzle-orm';
import { assignedCases } from '../../db/attempt-sync.js';

/**
 * Who and what a season's statistics count. Who: the season's participants, not archived,
 * not test users ("members"). What: their cases are the ones the assignments call for
 * (`assignedCases`, the rule the UserSeasonRoundCases are made by), joined to the
 * UserSeasonRoundCases for their status and score — so a participant who has never opened
 * their dashboard counts with every case NOT_STARTED, and nothing is written to read a figure.
 */

export interface SeasonScope {
  projectId: string;
  seasonId: string;
  /** `YYYY-MM-DD` in `timeZone`: cases unlocking after it do not count yet. */
  today: string;
  /**
   * The schedule's time zone (SCHEDULE_TIME_ZONE): a completion counts on the day it was
   * made there, the same days the emails are scheduled by.
   */
  timeZone: string;
}

/** One page of members, chosen and ordered in SQL. */
export interface MembersPage {
  where: SQL;
  order: SQL;
  limit: number;
  offset: number;
}

/** The season's members, or (`page`) only those of one page of them in a given order. */
export const members = (s: SeasonScope, page?: MembersPage) => sql`
  members as (
    select pa.user_id, pa.first_round, pa.last_round
    from participant_assignments pa
    join project_participants pp on pp.project_id = pa.project_id and pp.user_id = pa.user_id and not pp.archived
    join users u on u.id = pa.user_id and u.role <> 'TESTUSER'
    where pa.season_id = ${s.seasonId}::uuid
    ${page ? sql`and ${page.where} order by ${page.order} limit ${page.limit} offset ${page.offset}` : sql``}
  )`;

/**
 * Every member's assigned cases with their status, score and completion time. With a page
 * of members, only theirs: a page reads its own participants' cases, not the season's.
 */
export const work = (s: SeasonScope, page?: MembersPage) => sql`
  ${members(s, page)},
  work as (
    select a.user_id, a.case_id, a.round_number, a.unlocks_on,
      x.id as attempt_id, coalesce(x.status, 'NOT_STARTED') as status, x.score, x.submitted_at
    from (${assignedCases(
      page
        ? sql`pa.season_id = ${s.seasonId}::uuid and pa.user_id in (select user_id from members)`
        : sql`pa.season_id = ${s.seasonId}::uuid`,
    )}) a
    join members m on m.user_id = a.user_id
    left join user_season_round_cases x on x.user_id = a.user_id and x.case_id = a.case_id
  )`;

export const int = (value: unknown) => Number(value ?? 0);
export const rate = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
