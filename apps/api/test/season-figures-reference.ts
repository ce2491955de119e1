import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../src/db/client.js';
import {
  CHART_DAYS,
  figuresOf,
  type SeasonFigures,
  type SeasonFiguresRow,
} from '../src/modules/statistics/season-figures-row.js';
import { work, type SeasonScope } from '../src/modules/statistics/season-work.js';

/**
 * The reference for a season's figures: its dashboard's tiles and charts, and question
 * category use, computed from the season's work (`season-work.ts`), one statement each. The
 * app reads the same figures from the kept counts (`kept-figures.repository.ts`); this is what
 * they are proved against (`kept-counts.test.ts`) and what the benchmarks compare them with
 * (bench/dashboard.ts). It lived in the statistics module until issue #49, though no screen
 * read it any more.
 */
export function createSeasonFiguresRepository(db: Db) {
  async function one<T>(query: SQL): Promise<T> {
    return rowsOf<T>(await db.execute(query))[0]!;
  }

  return {
    /**
     * Every figure of the season's dashboard tiles and charts in one statement: the
     * season's work is read once (PostgreSQL materialises a CTE used more than once) and
     * each figure is an aggregate over it. On a large season reading the work is most of the
     * cost, so the dashboard's figures together cost about what one did alone.
     */
    async seasonFigures(s: SeasonScope): Promise<SeasonFigures> {
      const row = await one<SeasonFiguresRow>(sql`
        with ${work(s)},
        per_round as (
          select user_id, round_number,
            count(*) filter (where status <> 'NOT_STARTED') as started,
            count(*) filter (where unlocks_on <= ${s.today}::date) as unlocked,
            count(*) filter (where unlocks_on <= ${s.today}::date and status = 'COMPLETE') as completed
          from work group by user_id, round_number
        ),
        per_member as (
          select user_id, sum(unlocked) as unlocked, sum(completed) as completed
          from per_round group by user_id
        ),
        daily as (
          select (submitted_at at time zone ${s.timeZone})::date as day, count(*) as completed
          from work
          where status = 'COMPLETE'
            and submitted_at >= (${s.today}::date - ${CHART_DAYS - 1}::int)::timestamp at time zone ${s.timeZone}
          group by 1
        )
        select
          (select count(*) from members)::int as total,
          (select count(distinct user_id) from work where status <> 'NOT_STARTED')::int as participating,
          (select count(*) from work where unlocks_on <= ${s.today}::date and status = 'COMPLETE')::int
            as cases_completed,
          (select count(*) from work where unlocks_on <= ${s.today}::date)::int as cases_unlocked,
          (select count(*) from per_member where unlocked > 0 and completed = unlocked)::int as participants_completed,
          (select jsonb_agg(jsonb_build_object(
              'round_number', r.number,
              'assigned', (select count(*) from members m where r.number between m.first_round and m.last_round),
              'participating', (select count(*) from per_round p where p.round_number = r.number and p.started > 0),
              'completed', (select count(*) from per_round p
                where p.round_number = r.number and p.unlocked > 0 and p.completed = p.unlocked)
            ) order by r.number)
            from rounds r where r.season_id = ${s.seasonId}::uuid) as rounds,
          (select jsonb_agg(jsonb_build_object(
              'case_id', c.case_id, 'case_name', c.case_name, 'round_number', c.round_number,
              'assigned', c.assigned, 'started', c.started, 'completed', c.completed,
              'average_score', c.average_score
            ) order by c.round_number, lower(c.case_name), c.case_id)
            from (
              select c.id as case_id, c.name as case_name, c.round_number,
                count(w.user_id) as assigned,
                count(w.user_id) filter (where w.status <> 'NOT_STARTED') as started,
                count(w.user_id) filter (where w.status = 'COMPLETE') as completed,
                round(avg(w.score) filter (where w.status = 'COMPLETE'), 1) as average_score
              from cases c left join work w on w.case_id = c.id
              where c.season_id = ${s.seasonId}::uuid and c.status = 'PUBLISHED' and c.round_number is not null
              group by c.id, c.name, c.round_number
            ) c) as cases,
          (select jsonb_agg(jsonb_build_object('date', d::date::text, 'completed', coalesce(daily.completed, 0))
              order by d)
            from generate_series(${s.today}::date - ${CHART_DAYS - 1}::int, ${s.today}::date, interval '1 day') d
            left join daily on daily.day = d::date) as by_day`);
      return figuresOf(row);
    },

    /**
     * Per question category and round: necessary choices offered and missed, unnecessary
     * choices offered and chosen, over completed cases (free-text questions are not scored;
     * "none of the below" selects none of the listed choices — the scoring rule's terms).
     * Counted per choice rather than per attempt and choice: a choice is offered once per
     * completed attempt of its case, and chosen as often as the answers name it, so the
     * answers are grouped once and the season's choices (far fewer than its attempts) are
     * joined to those counts, not to every attempt.
     */
    async categoryUse(s: SeasonScope) {
      return rowsOf<{
        category_id: string | null;
        category_name: string | null;
        round_number: number;
        necessary_offered: number;
        necessary_missed: number;
        unnecessary_offered: number;
        unnecessary_chosen: number;
      }>(
        await db.execute(sql`
          with ${work(s)},
          completed as (
            select case_id, count(*) as attempts from work where status = 'COMPLETE' group by case_id
          ),
          chosen as (
            select w.case_id, a.question_id::text as question_id, picked.choice_id, count(*) as times
            from work w
            join case_answers a on a.user_season_round_case_id = w.attempt_id and not a.none_of_below
            cross join lateral jsonb_array_elements_text(a.choice_ids) picked(choice_id)
            where w.status = 'COMPLETE'
            group by w.case_id, a.question_id, picked.choice_id
          ),
          choices as (
            select c.id as case_id, c.round_number, q->>'id' as question_id, q->>'category_id' as category_id,
              ch->>'id' as choice_id, ch->>'marked_as' as marked_as
            from cases c
            cross join lateral jsonb_array_elements(c.body->'questions') q
            cross join lateral jsonb_array_elements(q->'choices') ch
            where c.season_id = ${s.seasonId}::uuid and q->>'type' not in ('TEXT', 'TYPE_AHEAD')
          ),
          marked as (
            select ch.category_id, ch.round_number, ch.marked_as, n.attempts as offered,
              coalesce(k.times, 0) as picked
            from choices ch
            join completed n on n.case_id = ch.case_id
            left join chosen k on k.case_id = ch.case_id and k.question_id = ch.question_id
              and k.choice_id = ch.choice_id
          )
          select m.category_id, qc.name as category_name, m.round_number,
            coalesce(sum(offered) filter (where marked_as = 'NECESSARY'), 0)::int as necessary_offered,
            coalesce(sum(offered - picked) filter (where marked_as = 'NECESSARY'), 0)::int as necessary_missed,
            coalesce(sum(offered) filter (where marked_as = 'UNNECESSARY'), 0)::int as unnecessary_offered,
            coalesce(sum(picked) filter (where marked_as = 'UNNECESSARY'), 0)::int as unnecessary_chosen
          from marked m left join question_categories qc on qc.id::text = m.category_id
          group by m.category_id, qc.name, m.round_number
          order by lower(qc.name), m.round_number`),
      );
    },
  };
}
