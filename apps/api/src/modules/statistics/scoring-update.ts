import { sql } from 'drizzle-orm';
import type { CaseDocument } from '@pss/contract';
import { rowsOf, type Db } from '../../db/client.js';
import { scoreAnswers, type StoredAnswer } from '../cases/cases.service.js';

type Questions = CaseDocument['questions'];

/**
 * Scores every completed attempt of a project again from its stored answers, by the one
 * scoring rule, and writes the scores that differ (after a scoring fix, for instance).
 * Idempotent: a second run changes nothing. Reads 500 attempts at a time by id.
 */
export async function rescoreProject(db: Db, projectId: string): Promise<{ checked: number; updated: number }> {
  let checked = 0;
  let updated = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = rowsOf<{ id: string; score: number | null; questions: Questions; answers: StoredAnswer[] }>(
      await db.execute(sql`
        select x.id, x.score, c.body->'questions' as questions,
          coalesce((select json_agg(json_build_object('question_id', a.question_id, 'choice_ids', a.choice_ids,
            'text', a.text, 'none_of_below', a.none_of_below))
            from case_answers a where a.user_season_round_case_id = x.id), '[]'::json) as answers
        from user_season_round_cases x join cases c on c.id = x.case_id
        where x.project_id = ${projectId}::uuid and x.status = 'COMPLETE' and x.id > ${after}::uuid
        order by x.id limit 500`),
    );
    if (!rows.length) return { checked, updated };
    const changed: { id: string; score: number }[] = [];
    for (const row of rows) {
      const score = scoreAnswers(row.questions, new Map(row.answers.map((a) => [a.question_id, a]))).score;
      if (score !== row.score) changed.push({ id: row.id, score });
    }
    if (changed.length) {
      await db.execute(sql`
        update user_season_round_cases x set score = c.score
        from json_to_recordset(${JSON.stringify(changed)}::json) as c(id uuid, score smallint)
        where x.id = c.id and x.status = 'COMPLETE'`);
    }
    checked += rows.length;
    updated += changed.length;
    after = rows[rows.length - 1]!.id;
  }
}
