import { sql, type SQL } from 'drizzle-orm';
import type { ListQuery } from '@pss/contract';
import { rowsOf, type Db } from '../../db/client.js';
import { escapeLike } from '../../lib/list-query.js';
import { int, members, work, type SeasonScope } from './season-work.js';

type ParticipantsQuery = ListQuery<'name' | 'email' | 'progress' | 'average_score', { progress?: string }>;

const progressOf = sql`case
  when completed > 0 and completed = unlocked then 'COMPLETE'
  when started > 0 then 'IN_PROGRESS'
  else 'NOT_STARTED' end`;

/** Each member of a season with their progress and score, overall and per round: the participants table. */
export function createParticipantStatisticsRepository(db: Db) {
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

  /** Each member's progress and score, overall and per round, a page of them sorted and filtered in SQL. */
  async function participants(s: SeasonScope, query: ParticipantsQuery) {
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
    const searchSql = search ? sql`(u.first_name || ' ' || u.last_name || ' ' || u.email) ilike ${search}` : sql`true`;
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
      : (rows[0]?.total ?? (query.page > 1 ? await countParticipants(s, query) : 0));
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
  }

  /** The total of a participants page past the end (where no row carries it). */
  async function countParticipants(s: SeasonScope, query: ParticipantsQuery): Promise<number> {
    const first = await participants(s, { ...query, page: 1, limit: 1 });
    return first.total;
  }

  return { participants, countParticipants };
}
