import { sql, type SQL } from 'drizzle-orm';
import type { EmailTypeValue } from '@pss/contract';
import { completedSeason } from '../../db/attempt-sync.js';
import { rowsOf, type Db } from '../../db/client.js';
import { SUMMARY_REMINDER_AFTER_DAYS, type ParticipantFacts, type SeasonFacts } from './email-rules.js';

/** A season the schedule may have something to send for on a day, with its project. */
export interface ScheduledSeason extends SeasonFacts {
  projectId: string;
  startDate: string;
}

/** A participant's facts for the rules, with whom to write to. */
export interface ScheduleParticipant extends ParticipantFacts {
  email: string;
  firstName: string;
  lastName: string;
  sortName: string;
}

export interface TemplateChoice {
  id: string;
  type: EmailTypeValue;
  seasonId: string | null;
  /** Enabled and AUTOMATIC: the schedule may send it. */
  automatic: boolean;
}

/** Where a page of participants ends, to start the next one after it. */
export interface ParticipantCursor {
  sortName: string;
  userId: string;
}

/**
 * What the schedule reads: the seasons running about a day, their rounds and placed cases,
 * and their participants' places and progress, a page at a time in name order (a project
 * of 100,000 is never held in memory at once). Days are the schedule's (`timeZone`).
 */
export function createEmailScheduleRepository(db: Db, timeZone: string) {
  async function roundsAndCases(seasonIds: string[]) {
    if (!seasonIds.length) return { rounds: [], cases: [] };
    const ids = sql.join(
      seasonIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    const rounds = rowsOf<{ season_id: string; number: number; start_date: string; end_date: string }>(
      await db.execute(sql`
        select season_id, number, start_date::text as start_date, end_date::text as end_date
        from rounds where season_id in (${ids}) order by number`),
    );
    const cases = rowsOf<{ season_id: string; round_number: number; n: number }>(
      await db.execute(sql`
        select season_id, round_number, count(*)::int as n from cases
        where season_id in (${ids}) and status = 'PUBLISHED' and round_number is not null
        group by season_id, round_number`),
    );
    return { rounds, cases };
  }

  async function withRounds(
    seasons: {
      id: string;
      project_id: string;
      name: string;
      start_date: string;
      summary_posted_on: string | null;
    }[],
  ): Promise<ScheduledSeason[]> {
    const { rounds, cases } = await roundsAndCases(seasons.map((s) => s.id));
    return seasons.map((s) => ({
      id: s.id,
      projectId: s.project_id,
      name: s.name,
      startDate: s.start_date,
      summaryPostedOn: s.summary_posted_on,
      rounds: rounds
        .filter((r) => r.season_id === s.id)
        .map((r) => ({ number: r.number, startDate: r.start_date, endDate: r.end_date })),
      casesByRound: Object.fromEntries(cases.filter((c) => c.season_id === s.id).map((c) => [c.round_number, c.n])),
    }));
  }

  /** Seasons with their project, the day their summary was posted (if it was), rounds and placed cases. */
  async function seasonsWhere(condition: SQL): Promise<ScheduledSeason[]> {
    const seasons = rowsOf<{
      id: string;
      project_id: string;
      name: string;
      start_date: string;
      summary_posted_on: string | null;
    }>(
      await db.execute(sql`
        select s.id, s.project_id, s.name, s.start_date::text as start_date,
          (ss.posted_at at time zone ${timeZone})::date::text as summary_posted_on
        from seasons s join projects p on p.id = s.project_id
        left join season_summaries ss on ss.season_id = s.id and ss.status = 'POSTED'
        where ${condition}
        order by s.start_date, s.id`),
    );
    return withRounds(seasons);
  }

  return {
    /**
     * Seasons of active projects that run on the day, or ended the day before (a
     * participant who started on a season's last day still gets their launch email), and
     * seasons whose Results Summary was posted in the week before (its launch and reminder).
     */
    async seasonsAbout(day: string, projectId?: string): Promise<ScheduledSeason[]> {
      return seasonsWhere(
        sql`p.status = 'ACTIVE'
          and ((s.end_date >= ${day}::date - 1 and s.start_date <= ${day}::date)
            or (ss.posted_at at time zone ${timeZone})::date
              between ${day}::date - ${SUMMARY_REMINDER_AFTER_DAYS}::int and ${day}::date)
          ${projectId ? sql`and s.project_id = ${projectId}::uuid` : sql``}`,
      );
    },

    /** A project's seasons, whatever their dates (the season calendar's), with what `seasonsAbout` reads of them. */
    projectSeasons(projectId: string): Promise<ScheduledSeason[]> {
      return seasonsWhere(sql`s.project_id = ${projectId}::uuid`);
    },

    /** The project's templates (its own, and every season's variants). */
    async templates(projectId: string): Promise<TemplateChoice[]> {
      const rows = rowsOf<{ id: string; type: EmailTypeValue; season_id: string | null; automatic: boolean }>(
        await db.execute(sql`
          select id, type, season_id, (enabled and send_mode = 'AUTOMATIC') as automatic
          from email_templates where project_id = ${projectId}::uuid`),
      );
      return rows.map((r) => ({ id: r.id, type: r.type, seasonId: r.season_id, automatic: r.automatic }));
    },

    /**
     * A page of the season's participants (not archived), in name order after `after`,
     * with their progress in the round running on `day` (if any).
     */
    async participants(
      season: ScheduledSeason,
      runningRound: number | null,
      after: ParticipantCursor | null,
      limit: number,
    ): Promise<ScheduleParticipant[]> {
      const rows = rowsOf<{
        user_id: string;
        sort_name: string;
        start_date: string;
        first_round: number;
        last_round: number;
        email: string;
        first_name: string;
        last_name: string;
        returning: boolean;
        completed: number;
        completed_season: boolean;
        last_seen_on: string | null;
      }>(
        await db.execute(sql`
          select pp.user_id, pp.sort_name, pa.start_date::text as start_date, pa.first_round, pa.last_round,
            u.email, u.first_name, u.last_name,
            -- offset 0: looked up for each row (by the assignments' key), never made into
            -- a hash of every earlier assignment in the database for each page.
            exists (
              select 1 from participant_assignments before
              join seasons bs on bs.id = before.season_id
              where before.user_id = pp.user_id and before.project_id = pp.project_id
                and bs.start_date < ${season.startDate}::date
              offset 0
            ) as returning,
            ${
              runningRound === null
                ? sql`0`
                : sql`(select count(*)::int from user_season_round_cases x
                    where x.user_id = pp.user_id and x.season_id = pa.season_id
                      and x.round_number = ${runningRound} and x.status = 'COMPLETE')`
            } as completed,
            -- Read only for a season with a posted summary (its launch and reminder).
            ${season.summaryPostedOn ? completedSeason(sql`pp.user_id`, sql`pa.season_id`) : sql`false`}
              as completed_season,
            ${
              season.summaryPostedOn
                ? sql`(select (max(se.created_at) at time zone ${timeZone})::date::text
                    from sessions se where se.user_id = pp.user_id)`
                : sql`null`
            } as last_seen_on
          from project_participants pp
          join participant_assignments pa on pa.user_id = pp.user_id and pa.season_id = ${season.id}::uuid
          join users u on u.id = pp.user_id
          where pp.project_id = ${season.projectId}::uuid and not pp.archived
            ${after ? sql`and (pp.sort_name, pp.user_id) > (${after.sortName}, ${after.userId}::uuid)` : sql``}
          order by pp.sort_name, pp.user_id
          limit ${limit}`),
      );
      return rows.map((r) => ({
        userId: r.user_id,
        sortName: r.sort_name,
        startDate: r.start_date,
        firstRound: r.first_round,
        lastRound: r.last_round,
        returning: r.returning,
        completedInRound: r.completed,
        completedSeason: r.completed_season,
        lastSeenOn: r.last_seen_on,
        email: r.email,
        firstName: r.first_name,
        lastName: r.last_name,
      }));
    },
  };
}

export type EmailScheduleRepository = ReturnType<typeof createEmailScheduleRepository>;
