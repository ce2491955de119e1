import { sql, type SQL } from 'drizzle-orm';
import type { ForecastBasis } from '@pss/contract';
import { rowsOf, type Db } from '../../db/client.js';
import { daysBetween, finishingRules, type DueEmail, type SeasonFacts } from './email-rules.js';

/**
 * The season calendar's forecast (issue #48): how many of each future email the schedule is
 * expected to send, where the calendar's own count is the upper bound (it assumes nobody
 * completes from today on).
 *
 * The model is a completion curve. A participant's round "began" on the later of the round's
 * start and their own start date; they completed it on the day (in the schedule's time zone)
 * they submitted the last of its published cases. From the history, `stillOpen(k)` is the
 * share of participants' rounds not yet completed before day k since the round began. A future
 * email that stops when the round is completed (reminder, last day, new round) is then expected
 * to go to each participant it would go to today with the chance that they are still not done
 * on its day, given they are not done today: `stillOpen(k of its day) / stillOpen(k of today)`.
 * Every other email (the initial email, the summary's) does not depend on completing: its
 * forecast is its count. Days up to today are counted as they stand (forecast = count).
 *
 * The history: the rounds of the project's past seasons (other seasons whose last round ended
 * before today) with a published case; without any, the rounds of this season that have ended;
 * without those either, no history, and every forecast is its upper bound.
 */

export interface CompletionCurve {
  basis: ForecastBasis;
  /** The share of participants' rounds not completed before day `k` since the round began (1 for k ≤ 0). */
  stillOpen(k: number): number;
}

interface CurveRow {
  /** Days from the round's beginning (for the participant) to its completion; null if never completed. */
  offset: number | null;
  n: number;
  seasons: number;
  rounds: number;
}

/** The curve from the history's counts by completion day. */
export function completionCurve(rows: CurveRow[], source: ForecastBasis['source']): CompletionCurve {
  const total = rows.reduce((sum, r) => sum + r.n, 0);
  const first = rows[0];
  if (!total || !first) {
    return { basis: { source: 'NONE', seasons: 0, rounds: 0, participant_rounds: 0 }, stillOpen: () => 1 };
  }
  const completedBy = rows
    .filter((r): r is CurveRow & { offset: number } => r.offset !== null)
    .sort((a, b) => a.offset - b.offset);
  return {
    basis: { source, seasons: first.seasons, rounds: first.rounds, participant_rounds: total },
    stillOpen(k) {
      if (k <= 0) return 1;
      const done = completedBy.filter((r) => r.offset < k).reduce((sum, r) => sum + r.n, 0);
      return (total - done) / total;
    },
  };
}

/** The expected share of a pick's email on `date`, seen from `today` (1 when it does not depend on completing). */
export function forecastShare(
  curve: CompletionCurve,
  season: Pick<SeasonFacts, 'rounds'>,
  participant: { startDate: string },
  due: Pick<DueEmail, 'type' | 'roundNumber'>,
  date: string,
  today: string,
): number {
  if (date <= today || !finishingRules.includes(due.type)) return 1;
  const round = season.rounds.find((r) => r.number === due.roundNumber);
  if (!round) return 1;
  const began = participant.startDate > round.startDate ? participant.startDate : round.startDate;
  const now = curve.stillOpen(daysBetween(began, today));
  return now > 0 ? curve.stillOpen(daysBetween(began, date)) / now : 0;
}

/**
 * The project's completion history, counted by completion day in SQL: one row per day since the
 * round began (a few dozen at most), whatever the number of participants.
 */
export function createForecastRepository(db: Db, timeZone: string) {
  async function curveOf(projectId: string, rounds: SQL): Promise<CurveRow[]> {
    return rowsOf<CurveRow>(
      await db.execute(sql`
        with placed as (
          select r.season_id, r.number, r.start_date, r.end_date,
            (select count(*)::int from cases c
              where c.season_id = r.season_id and c.round_number = r.number and c.status = 'PUBLISHED') as cases
          from rounds r join seasons s on s.id = r.season_id
          where s.project_id = ${projectId}::uuid and ${rounds}
        ),
        members as (
          select pa.user_id, p.season_id, p.number, p.cases, greatest(p.start_date, pa.start_date) as began
          from placed p
          join participant_assignments pa on pa.season_id = p.season_id
            and p.number between pa.first_round and pa.last_round and pa.start_date <= p.end_date
          where p.cases > 0
        ),
        completed as (
          select m.season_id, m.number, m.began,
            (select case when count(*) filter (where x.status = 'COMPLETE') >= m.cases
                then (max(x.submitted_at) at time zone ${timeZone})::date end
              from user_season_round_cases x
              where x.user_id = m.user_id and x.season_id = m.season_id and x.round_number = m.number) as completed_on
          from members m
        )
        select case when completed_on is not null then greatest(completed_on - began, 0) end as "offset", count(*)::int as n,
          (select count(distinct season_id)::int from members) as seasons,
          (select count(*)::int from (select distinct season_id, number from members) r) as rounds
        from completed group by 1 order by 1`),
    ).map((r) => ({ ...r, offset: r.offset === null ? null : Number(r.offset) }));
  }

  return {
    /** The curve of the project's past seasons; else of this season's ended rounds; else none. */
    async curve(season: { id: string; projectId: string }, today: string): Promise<CompletionCurve> {
      const past = await curveOf(season.projectId, sql`s.id <> ${season.id}::uuid and s.end_date < ${today}::date`);
      if (past.length) return completionCurve(past, 'PAST_SEASONS');
      const thisSeason = await curveOf(
        season.projectId,
        sql`s.id = ${season.id}::uuid and r.end_date < ${today}::date`,
      );
      return completionCurve(thisSeason, 'THIS_SEASON');
    },
  };
}
