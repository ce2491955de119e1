import { sql } from 'drizzle-orm';
import { newCertificateCode } from '../lib/certificate-codes.js';
import { rowsOf, type Tx } from './client.js';
import type { CertificateCase } from './schema/certificates.js';

interface Earned {
  cme_id: string;
  user_id: string;
  project_id: string;
  participant_name: string;
  profession: string | null;
  project_name: string;
  client_name: string;
  credits: string;
  moc: boolean;
  course_id: string | null;
  min_cases: number;
  cases: CertificateCase[];
}

/**
 * Issues the CME certificates a participant has now earned (issue #37), in the transaction of
 * the submit that completed `attemptId`: one for each CME of the project whose minimum of
 * completed cases they now reach and hold no certificate of. Test users earn none.
 *
 * Exactly once, also when their submits race: the participant's advisory lock (the class the
 * kept counts take for them, migration 0041) comes first, so a concurrent submit of theirs
 * waits for this transaction to end and then counts, in statements begun after the wait, the
 * completion this one made; the unique index on CME and participant is the last word (ON
 * CONFLICT DO NOTHING). Answers the new certificates' ids.
 */
export async function issueEarnedCertificates(tx: Tx, attemptId: string, at: Date): Promise<string[]> {
  await tx.execute(sql`
    select pg_advisory_xact_lock(73110037, hashtext(user_id::text))
    from user_season_round_cases where id = ${attemptId}::uuid`);
  const earned = rowsOf<Earned>(
    await tx.execute(sql`
      with attempt as (
        select user_id, project_id from user_season_round_cases where id = ${attemptId}::uuid
      ),
      done as (
        select x.user_id, x.project_id, count(*)::int as completed,
          jsonb_agg(jsonb_build_object('case_id', c.id, 'case_name', c.name, 'submitted_at', x.submitted_at)
            order by x.submitted_at, c.id) as cases
        from user_season_round_cases x
        join attempt a on a.user_id = x.user_id and a.project_id = x.project_id
        join cases c on c.id = x.case_id
        where x.status = 'COMPLETE'
        group by x.user_id, x.project_id
      )
      select m.id as cme_id, d.user_id, d.project_id, trim(u.first_name || ' ' || u.last_name) as participant_name,
        u.profession, p.name as project_name, cl.name as client_name, m.credits::text as credits, m.moc,
        m.totera_course_id as course_id, m.min_cases, d.cases
      from cmes m
      join done d on d.project_id = m.project_id and d.completed >= m.min_cases
      join users u on u.id = d.user_id and u.role <> 'TESTUSER'
      join projects p on p.id = m.project_id
      join clients cl on cl.id = p.client_id
      where not exists (select 1 from certificates k where k.cme_id = m.id and k.user_id = d.user_id)
      order by m.min_cases, m.id`),
  );
  const ids: string[] = [];
  for (const e of earned) {
    const [row] = rowsOf<{ id: string }>(
      await tx.execute(sql`
        insert into certificates (code, cme_id, project_id, user_id, participant_name, profession, project_name,
          client_name, credits, moc_points, course_id, min_cases, cases, issued_at)
        values (${newCertificateCode()}, ${e.cme_id}::uuid, ${e.project_id}::uuid, ${e.user_id}::uuid,
          ${e.participant_name}, ${e.profession}, ${e.project_name}, ${e.client_name}, ${e.credits}::numeric,
          ${e.moc ? e.credits : null}::numeric, ${e.course_id}, ${e.min_cases}, ${JSON.stringify(e.cases)}::jsonb,
          ${at.toISOString()}::timestamptz)
        on conflict (cme_id, user_id) where cme_id is not null do nothing
        returning id`),
    );
    if (row) ids.push(row.id);
  }
  return ids;
}
