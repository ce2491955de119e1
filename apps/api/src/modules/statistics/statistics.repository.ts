import { sql, type SQL } from 'drizzle-orm';
import type {
  CaseCompletion,
  CompletionRate,
  CompletionsByDay,
  ListQuery,
  ParticipationRate,
  RoundStatistics,
} from '@pss/contract';
import { assignedCases } from '../../db/attempt-sync.js';
import { rowsOf, type Db } from '../../db/client.js';
import { escapeLike } from '../../lib/list-query.js';

/**
 * The statistics of a project season, each figure one SQL statement. Who counts: the
 * season's participants, not archived, not test users ("members"). Their cases are the
 * ones the assignments call for (`assignedCases`, the rule the UserSeasonRoundCases are made
 * by), joined to the UserSeasonRoundCases for their status and score — so a participant who
 * has never opened their dashboard counts with every case NOT_STARTED, and nothing is
 * written to read a figure.
 */

export interface SeasonScope {
  projectId: string;
  seasonId: string;
  /** `YYYY-MM-DD`: cases unlocking after it do not count yet. */
  today: string;
}

/** The season's members, or (`page`) only those of one page of them in a given order. */
const members = (s: SeasonScope, page?: { where: SQL; order: SQL; limit: number; offset: number }) => sql`
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
 * of members, only theirs: a page of 25 reads 25 participants' cases, not the season's.
 */
const work = (s: SeasonScope, page?: Parameters<typeof members>[1]) => sql`
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

const int = (value: unknown) => Number(value ?? 0);

/** The completion chart's span (spec §9: the last two weeks). */
export const CHART_DAYS = 14;

/** The season's figures the dashboard's tiles and charts show, read together. */
export interface SeasonFigures {
  participation: ParticipationRate;
  caseCompletion: CompletionRate;
  participantCompletion: CompletionRate;
  byRound: RoundStatistics[];
  cases: CaseCompletion[];
  completionsByDay: CompletionsByDay['items'];
}
const rate = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

const progressOf = sql`case
  when completed > 0 and completed = unlocked then 'COMPLETE'
  when started > 0 then 'IN_PROGRESS'
  else 'NOT_STARTED' end`;

export function createStatisticsRepository(db: Db) {
  async function one<T>(query: SQL): Promise<T> {
    return rowsOf<T>(await db.execute(query))[0]!;
  }

  /** The season's members matching a search (`u` is the user). */
  async function countMembers(s: SeasonScope, where: SQL): Promise<number> {
    const row = await one<{ n: number }>(sql`
      with ${members(s)}
      select count(*)::int as n from members m join users u on u.id = m.user_id where ${where}`);
    return int(row.n);
  }

  return {
    /**
     * Every figure of the season's dashboard tiles and charts in one statement: the
     * season's work is read once (PostgreSQL materialises a CTE used more than once) and
     * each figure is an aggregate over it. At 100,000 participants reading the work is most
     * of the cost, so the dashboard's six figures cost about what one did alone.
     */
    async seasonFigures(s: SeasonScope): Promise<SeasonFigures> {
      const row = await one<{
        total: number;
        participating: number;
        cases_completed: number;
        cases_unlocked: number;
        participants_completed: number;
        rounds: { round_number: number; assigned: number; participating: number; completed: number }[] | null;
        cases:
          | {
              case_id: string;
              case_name: string;
              round_number: number;
              assigned: number;
              started: number;
              completed: number;
              average_score: string | number | null;
            }[]
          | null;
        by_day: { date: string; completed: number }[];
      }>(sql`
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
          select (submitted_at at time zone 'UTC')::date as day, count(*) as completed
          from work
          where status = 'COMPLETE'
            and submitted_at >= (${s.today}::date - ${CHART_DAYS - 1}::int)::timestamp at time zone 'UTC'
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
      const total = int(row.total);
      const participantsCompleted = int(row.participants_completed);
      return {
        participation: { participating: int(row.participating), total, rate: rate(int(row.participating), total) },
        caseCompletion: {
          type: 'CASES',
          completed: int(row.cases_completed),
          total: int(row.cases_unlocked),
          rate: rate(int(row.cases_completed), int(row.cases_unlocked)),
        },
        participantCompletion: {
          type: 'PARTICIPANTS',
          completed: participantsCompleted,
          total,
          rate: rate(participantsCompleted, total),
        },
        byRound: (row.rounds ?? []).map((r) => ({
          round_number: r.round_number,
          assigned: int(r.assigned),
          participating: int(r.participating),
          completed: int(r.completed),
          participation_rate: rate(int(r.participating), int(r.assigned)),
          completion_rate: rate(int(r.completed), int(r.assigned)),
        })),
        cases: (row.cases ?? []).map((r) => ({
          case_id: r.case_id,
          case_name: r.case_name,
          round_number: r.round_number,
          assigned: int(r.assigned),
          started: int(r.started),
          completed: int(r.completed),
          completion_rate: rate(int(r.completed), int(r.assigned)),
          average_score: r.average_score === null ? null : Number(r.average_score),
        })),
        completionsByDay: row.by_day.map((d) => ({ date: d.date, completed: int(d.completed) })),
      };
    },

    /**
     * Per question category and round: necessary choices offered and missed, unnecessary
     * choices offered and chosen, over completed cases (free-text questions are not scored;
     * "none of the below" selects none of the listed choices — the scoring rule's terms).
     * Counted per choice rather than per attempt and choice: a choice is offered once per
     * completed attempt of its case, and chosen as often as the answers name it, so the
     * answers are grouped once and the season's choices (a few hundred) are joined to
     * those counts, not to every attempt.
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

    /** Each member's progress and score, overall and per round, a page of them sorted and filtered in SQL. */
    async participants(
      s: SeasonScope,
      query: ListQuery<'name' | 'email' | 'progress' | 'average_score', { progress?: string }>,
    ) {
      const order = query.sort
        .map((t) => {
          const column = {
            name: sql`lower(u.last_name), lower(u.first_name)`,
            email: sql`u.email`,
            progress: sql`progress`,
            average_score: sql`average_score`,
          }[t.field];
          return sql`${column} ${sql.raw(t.direction)} nulls last`;
        })
        .concat(sql`u.id`);
      const search = query.search ? `%${escapeLike(query.search)}%` : null;
      const searchSql = search
        ? sql`(u.first_name || ' ' || u.last_name || ' ' || u.email) ilike ${search}`
        : sql`true`;
      // Ordered by name or email and not filtered by progress, the page is chosen from the
      // members first and only its participants' cases are read; by progress or score, every
      // member's figures are needed to order them.
      const membersFirst = !query.filter.progress && query.sort.every((t) => t.field === 'name' || t.field === 'email');
      const page = membersFirst
        ? {
            where: searchSql,
            order: sql.join(order, sql`, `),
            limit: query.limit,
            offset: (query.page - 1) * query.limit,
          }
        : undefined;
      const rows = rowsOf<{
        user_id: string;
        first_name: string;
        last_name: string;
        email: string;
        progress: string;
        completed: number;
        unlocked: number;
        average_score: string | number | null;
        rounds: {
          round_number: number;
          progress: string;
          completed: number;
          unlocked: number;
          average_score: number | null;
        }[];
        total: number;
      }>(
        await db.execute(sql`
          with ${work(s, page)},
          per_round as (
            select user_id, round_number,
              count(*) filter (where status <> 'NOT_STARTED') as started,
              count(*) filter (where unlocks_on <= ${s.today}::date) as unlocked,
              count(*) filter (where unlocks_on <= ${s.today}::date and status = 'COMPLETE') as completed,
              round(avg(score) filter (where status = 'COMPLETE'), 1) as average_score
            from work group by user_id, round_number
          ),
          per_member as (
            select m.user_id,
              coalesce(sum(p.started), 0) as started,
              coalesce(sum(p.unlocked), 0) as unlocked,
              coalesce(sum(p.completed), 0) as completed,
              (select round(avg(score), 1) from work w where w.user_id = m.user_id and w.status = 'COMPLETE')
                as average_score,
              -- Every round the participant is assigned to, whether or not it has cases yet.
              jsonb_agg(jsonb_build_object(
                'round_number', r.n,
                'progress', case when p.completed > 0 and p.completed = p.unlocked then 'COMPLETE'
                  when p.started > 0 then 'IN_PROGRESS' else 'NOT_STARTED' end,
                'completed', coalesce(p.completed, 0), 'unlocked', coalesce(p.unlocked, 0),
                'average_score', p.average_score
              ) order by r.n) as rounds
            from members m
            cross join lateral generate_series(m.first_round::int, m.last_round::int) r(n)
            left join per_round p on p.user_id = m.user_id and p.round_number = r.n
            group by m.user_id
          ),
          listed as (
            select pm.*, ${progressOf} as progress from per_member pm
          )
          select u.id as user_id, u.first_name, u.last_name, u.email, l.progress, l.completed::int, l.unlocked::int,
            l.average_score, l.rounds, count(*) over ()::int as total
          from listed l join users u on u.id = l.user_id
          where ${searchSql}
            ${query.filter.progress ? sql`and l.progress = ${query.filter.progress}` : sql``}
          order by ${sql.join(order, sql`, `)}
          ${page ? sql`` : sql`limit ${query.limit} offset ${(query.page - 1) * query.limit}`}`),
      );
      const total = page
        ? await countMembers(s, searchSql)
        : (rows[0]?.total ?? (query.page > 1 ? await this.countParticipants(s, query) : 0));
      return {
        total,
        items: rows.map((r) => ({
          user_id: r.user_id,
          first_name: r.first_name,
          last_name: r.last_name,
          email: r.email,
          progress: r.progress as 'NOT_STARTED' | 'IN_PROGRESS' | 'COMPLETE',
          completed: int(r.completed),
          unlocked: int(r.unlocked),
          average_score: r.average_score === null ? null : Number(r.average_score),
          rounds: r.rounds.map((round) => ({
            round_number: round.round_number,
            progress: round.progress as 'NOT_STARTED' | 'IN_PROGRESS' | 'COMPLETE',
            completed: int(round.completed),
            unlocked: int(round.unlocked),
            average_score: round.average_score === null ? null : Number(round.average_score),
          })),
        })),
      };
    },

    /** The total of a participants page past the end (where no row carries it). */
    async countParticipants(
      s: SeasonScope,
      query: ListQuery<'name' | 'email' | 'progress' | 'average_score', { progress?: string }>,
    ): Promise<number> {
      const first = await this.participants(s, { ...query, page: 1, limit: 1 });
      return first.total;
    },

    /** The client's participants who have signed in, with their sign-ins (sessions begun). */
    async connectedAccounts(clientId: string, query: ListQuery<'last_sign_in' | 'name', Record<string, never>>) {
      const order = query.sort
        .map((t) =>
          t.field === 'name'
            ? sql`lower(u.last_name) ${sql.raw(t.direction)}, lower(u.first_name) ${sql.raw(t.direction)}`
            : sql`s.last_sign_in ${sql.raw(t.direction)}`,
        )
        .concat(sql`u.id`);
      const search = query.search ? `%${escapeLike(query.search)}%` : null;
      const rows = rowsOf<{
        user_id: string;
        first_name: string;
        last_name: string;
        email: string;
        role: string;
        sign_ins: number;
        first_sign_in: string;
        last_sign_in: string;
        total: number;
      }>(
        await db.execute(sql`
          with s as (
            select se.user_id, count(distinct se.family_id)::int as sign_ins,
              min(se.created_at) as first_sign_in, max(se.created_at) as last_sign_in
            from sessions se join users su on su.id = se.user_id
            where su.client_id = ${clientId}::uuid and su.role in ('USER', 'HALFUSER', 'TESTUSER')
            group by se.user_id
          )
          select u.id as user_id, u.first_name, u.last_name, u.email, u.role, s.sign_ins,
            to_char(s.first_sign_in at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as first_sign_in,
            to_char(s.last_sign_in at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_sign_in,
            count(*) over ()::int as total
          from s join users u on u.id = s.user_id
          ${search ? sql`where (u.first_name || ' ' || u.last_name || ' ' || u.email) ilike ${search}` : sql``}
          order by ${sql.join(order, sql`, `)}
          limit ${query.limit} offset ${(query.page - 1) * query.limit}`),
      );
      return { rows, total: rows[0]?.total ?? 0 };
    },
  };
}

export type StatisticsRepository = ReturnType<typeof createStatisticsRepository>;
