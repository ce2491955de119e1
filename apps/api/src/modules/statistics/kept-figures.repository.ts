import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import type { CategoryRoundCounts } from './category-use.js';
import { CHART_DAYS, figuresOf, type SeasonFigures, type SeasonFiguresRow } from './season-figures-row.js';
import type { SeasonScope } from './season-work.js';

/**
 * The season's figures read from its kept counts (db/schema/kept-counts.ts, kept by the
 * triggers of migration 0041): a few hundred rows, whatever the season's size. The figures
 * are those of apps/api/test/season-figures-reference.ts, which reads the season's work and is
 * the reference the tests compare these with.
 *
 * Members are counted by group (first round, last round, start date): with the season's
 * rounds and published cases a group says which cases its members have and when each
 * unlocks (the later of the round's start and the start date), so everything "unlocked by
 * today" is worked out here from the groups, and the kept rows carry only what members did.
 */
export function createKeptFiguresRepository(db: Db) {
  /** The season's groups, with per round in their range its unlock day and published cases. */
  const groupRounds = (s: SeasonScope) => sql`
    groups as (
      select first_round, last_round, start_date, members
      from kept_member_groups where season_id = ${s.seasonId}::uuid and members <> 0
    ),
    round_cases as (
      select round_number, count(*)::int as n from cases
      where season_id = ${s.seasonId}::uuid and status = 'PUBLISHED' and round_number is not null
      group by round_number
    ),
    group_rounds as (
      select g.first_round, g.last_round, g.start_date, g.members, r.number as round_number,
        greatest(r.start_date, g.start_date) as unlocks_on, coalesce(rc.n, 0) as n
      from groups g
      join rounds r on r.season_id = ${s.seasonId}::uuid and r.number between g.first_round and g.last_round
      left join round_cases rc on rc.round_number = r.number
    ),
    -- Per group, the rounds (bits) whose cases have unlocked by today.
    group_unlocked as (
      select first_round, last_round, start_date,
        coalesce(bit_or(1 << (round_number - 1)) filter (where n > 0 and unlocks_on <= ${s.today}::date), 0) as mask
      from group_rounds group by first_round, last_round, start_date
    ),
    progress as (
      select p.*, gu.mask as unlocked_mask
      from kept_progress p
      join group_unlocked gu using (first_round, last_round, start_date)
      where p.season_id = ${s.seasonId}::uuid and p.participants <> 0
    )`;

  return {
    async seasonFigures(s: SeasonScope): Promise<SeasonFigures> {
      const [row] = rowsOf<SeasonFiguresRow>(
        await db.execute(sql`
          with ${groupRounds(s)},
          case_rows as (
            select k.case_id, k.started, k.completed, k.scored, k.score_sum,
              greatest(r.start_date, k.start_date) as unlocks_on
            from kept_case_counts k
            join cases c on c.id = k.case_id
            join rounds r on r.season_id = k.season_id and r.number = c.round_number
            where k.season_id = ${s.seasonId}::uuid
          )
          select
            (select coalesce(sum(members), 0) from groups)::int as total,
            (select coalesce(sum(participants), 0) from progress where started_rounds <> 0)::int as participating,
            (select coalesce(sum(completed), 0) from case_rows where unlocks_on <= ${s.today}::date)::int
              as cases_completed,
            (select coalesce(sum(members * n), 0) from group_rounds where unlocks_on <= ${s.today}::date)::int
              as cases_unlocked,
            (select coalesce(sum(participants), 0) from progress
              where unlocked_mask <> 0 and (unlocked_mask & ~done_rounds::int) = 0)::int as participants_completed,
            (select jsonb_agg(jsonb_build_object(
                'round_number', r.number,
                'assigned', (select coalesce(sum(members), 0) from groups g
                  where r.number between g.first_round and g.last_round),
                'participating', (select coalesce(sum(participants), 0) from progress p
                  where p.started_rounds & (1 << (r.number - 1)) <> 0),
                'completed', (select coalesce(sum(participants), 0) from progress p
                  where p.done_rounds & p.unlocked_mask & (1 << (r.number - 1)) <> 0)
              ) order by r.number)
              from rounds r where r.season_id = ${s.seasonId}::uuid) as rounds,
            (select jsonb_agg(jsonb_build_object(
                'case_id', c.id, 'case_name', c.name, 'round_number', c.round_number,
                'assigned', coalesce((select sum(gr.members) from group_rounds gr
                  where gr.round_number = c.round_number), 0),
                'started', coalesce(k.started, 0), 'completed', coalesce(k.completed, 0),
                'average_score', case when k.scored > 0 then round(k.score_sum::numeric / k.scored, 1) end
              ) order by c.round_number, lower(c.name), c.id)
              from cases c
              left join (
                select case_id, sum(started) as started, sum(completed) as completed,
                  sum(scored) as scored, sum(score_sum) as score_sum
                from case_rows group by case_id
              ) k on k.case_id = c.id
              where c.season_id = ${s.seasonId}::uuid and c.status = 'PUBLISHED' and c.round_number is not null)
              as cases,
            (select jsonb_agg(jsonb_build_object('date', d::date::text, 'completed', coalesce((
                select sum(q.completed) from kept_completion_quarters q
                where q.season_id = ${s.seasonId}::uuid
                  and q.quarter >= (d::date::timestamp at time zone ${s.timeZone})
                  and q.quarter < ((d::date + 1)::timestamp at time zone ${s.timeZone})), 0)) order by d)
              from generate_series(${s.today}::date - ${CHART_DAYS - 1}::int, ${s.today}::date, interval '1 day') d)
              as by_day`),
      );
      return figuresOf(row!);
    },

    /** Question categories' use per round, from the kept picks and completions (as `categoryUse` of the reference). */
    async categoryUse(s: SeasonScope): Promise<CategoryRoundCounts[]> {
      return rowsOf<CategoryRoundCounts>(
        await db.execute(sql`
          with completed as (
            select case_id, sum(completed) as attempts from kept_case_counts
            where season_id = ${s.seasonId}::uuid group by case_id having sum(completed) > 0
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
              coalesce(k.picked, 0) as picked
            from choices ch
            join completed n on n.case_id = ch.case_id
            left join kept_choice_picks k on k.season_id = ${s.seasonId}::uuid and k.case_id = ch.case_id
              and k.question_id::text = ch.question_id and k.choice_id = ch.choice_id
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

export type KeptFiguresRepository = ReturnType<typeof createKeptFiguresRepository>;
