import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { members, type SeasonScope } from './season-work.js';

/** One scored question of a published case, with its completed attempts' figures (SQL's answer). */
export interface QuestionFiguresRow {
  case_id: string;
  /** The case it was copied from, or itself: copies of one case in several rounds are compared. */
  family_id: string;
  case_name: string;
  round_number: number;
  question_id: string;
  /** The question's place in its case, from 1. */
  position: number;
  question_text: string;
  /** Members' completed attempts at the case. */
  attempts: number;
  /** Attempts with full marks on the question. */
  full_marks: number;
  /** The point-biserial correlation of full marks with the rest of the case's score; null without variance. */
  discrimination: number | null;
}

/** One choice of a scored question, and how often members' completed attempts picked it. */
export interface ChoiceFiguresRow {
  case_id: string;
  question_id: string;
  choice_id: string;
  position: number;
  choice_text: string;
  marked_as: 'NECESSARY' | 'APPROPRIATE' | 'UNNECESSARY';
  chosen: number;
}

/**
 * The item analysis of a season's published cases (issue #37), read from members' completed
 * attempts (the same members as every other figure: assigned, not archived, not test users).
 *
 * Scoring is the platform's (`cases/scoring.ts`), per question: necessary choices picked
 * minus unnecessary ones, over the necessary ones available; full marks when every necessary
 * choice and no unnecessary one was picked (a question with no necessary choice: when no
 * unnecessary one was). Free-text questions are not scored and not analysed. A question's
 * discrimination correlates its full marks (0 or 1) with the score of the rest of the case
 * — the case's score computed without that question — over the case's completed attempts:
 * PostgreSQL's `corr`, which is the point-biserial coefficient when one side is 0 or 1.
 */
export function createItemAnalysisRepository(db: Db) {
  const scope = (s: SeasonScope) => sql`
    ${members(s)},
    season_cases as (
      select c.id as case_id, coalesce(c.source_case_id, c.id) as family_id, c.name as case_name,
        c.round_number, c.body
      from cases c
      where c.season_id = ${s.seasonId}::uuid and c.status = 'PUBLISHED' and c.round_number is not null
    ),
    questions as (
      select c.case_id, c.family_id, c.case_name, c.round_number, q.value ->> 'id' as question_id,
        q.ord::int as position,
        coalesce(q.value ->> 'text', '') as question_text, q.value -> 'choices' as choices,
        (select count(*) from jsonb_array_elements(q.value -> 'choices') ch
          where ch ->> 'marked_as' = 'NECESSARY')::int as necessary
      from season_cases c
      cross join lateral jsonb_array_elements(c.body -> 'questions') with ordinality q(value, ord)
      where q.value ->> 'type' not in ('TEXT', 'TYPE_AHEAD')
    ),
    choices as (
      select q.case_id, q.question_id, ch.value ->> 'id' as choice_id, ch.ord::int as position,
        coalesce(ch.value ->> 'text', '') as choice_text, ch.value ->> 'marked_as' as marked_as
      from questions q
      cross join lateral jsonb_array_elements(q.choices) with ordinality ch(value, ord)
    ),
    attempts as (
      select x.id as attempt_id, x.case_id
      from user_season_round_cases x
      join members m on m.user_id = x.user_id
      join season_cases c on c.case_id = x.case_id and c.round_number between m.first_round and m.last_round
      where x.status = 'COMPLETE'
    ),
    picks as (
      select a.attempt_id, a.case_id, ans.question_id::text as question_id, p.choice_id
      from attempts a
      join case_answers ans on ans.user_season_round_case_id = a.attempt_id and not ans.none_of_below
      cross join lateral jsonb_array_elements_text(ans.choice_ids) p(choice_id)
    )`;

  return {
    async questionFigures(s: SeasonScope): Promise<QuestionFiguresRow[]> {
      return rowsOf<QuestionFiguresRow>(
        await db.execute(sql`
          with ${scope(s)},
          picked as (
            select p.attempt_id, p.question_id,
              count(*) filter (where ch.marked_as = 'NECESSARY') as necessary_picked,
              count(*) filter (where ch.marked_as = 'UNNECESSARY') as unnecessary_picked
            from picks p
            join choices ch on ch.case_id = p.case_id and ch.question_id = p.question_id and ch.choice_id = p.choice_id
            group by p.attempt_id, p.question_id
          ),
          scored as (
            select a.attempt_id, q.case_id, q.question_id, q.necessary,
              coalesce(k.necessary_picked, 0) as necessary_picked,
              coalesce(k.unnecessary_picked, 0) as unnecessary_picked
            from attempts a
            join questions q on q.case_id = a.case_id
            left join picked k on k.attempt_id = a.attempt_id and k.question_id = q.question_id
          ),
          totals as (
            select attempt_id, sum(necessary) as necessary, sum(necessary_picked) as necessary_picked,
              sum(unnecessary_picked) as unnecessary_picked
            from scored group by attempt_id
          ),
          items as (
            select s.case_id, s.question_id,
              case when s.necessary = 0 then (s.unnecessary_picked = 0)::int
                else (s.necessary_picked = s.necessary and s.unnecessary_picked = 0)::int end as full_mark,
              case when t.necessary - s.necessary = 0
                then case when t.unnecessary_picked - s.unnecessary_picked = 0 then 100 else 0 end
                else greatest(0, least(100, 100.0
                  * ((t.necessary_picked - s.necessary_picked) - (t.unnecessary_picked - s.unnecessary_picked))
                  / (t.necessary - s.necessary)))
              end as rest
            from scored s join totals t on t.attempt_id = s.attempt_id
          ),
          figures as (
            select case_id, question_id, count(*)::int as attempts, sum(full_mark)::int as full_marks,
              corr(full_mark, rest) as discrimination
            from items group by case_id, question_id
          )
          select q.case_id, q.family_id, q.case_name, q.round_number, q.question_id, q.position, q.question_text,
            coalesce(f.attempts, 0) as attempts, coalesce(f.full_marks, 0) as full_marks, f.discrimination
          from questions q
          left join figures f on f.case_id = q.case_id and f.question_id = q.question_id
          order by q.round_number, lower(q.case_name), q.case_id, q.position`),
      );
    },

    /**
     * How often each choice was picked: the kept picks (issue #36), which count the same
     * completed attempts of the same members, so the answers are read once per analysis (by
     * `questionFigures`, which needs them per attempt), not twice. (The unreferenced parts of
     * the scope — members, attempts, picks — are not run: PostgreSQL skips a WITH query
     * nothing refers to.)
     */
    async choiceFigures(s: SeasonScope): Promise<ChoiceFiguresRow[]> {
      return rowsOf<ChoiceFiguresRow>(
        await db.execute(sql`
          with ${scope(s)}
          select ch.case_id, ch.question_id, ch.choice_id, ch.position, ch.choice_text, ch.marked_as,
            coalesce(k.picked, 0)::int as chosen
          from choices ch
          left join kept_choice_picks k on k.season_id = ${s.seasonId}::uuid and k.case_id = ch.case_id
            and k.question_id::text = ch.question_id and k.choice_id = ch.choice_id
          order by ch.case_id, ch.question_id, ch.position`),
      );
    },
  };
}

export type ItemAnalysisRepository = ReturnType<typeof createItemAnalysisRepository>;
