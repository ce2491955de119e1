import { sql, type SQL } from 'drizzle-orm';
import { newCertificateCode } from './certificate-codes.js';
import { queueCertificateEmails } from './certificate-emails.js';
import { rowsOf, type Executor, type Tx } from './client.js';

/**
 * Issuing CME certificates (issue #37; the table: db/schema/certificates.ts). A participant
 * earns one for each CME of a project whose minimum of completed cases they reach, once;
 * test users earn none. What it certifies is copied onto it as it stands when it is issued.
 */

/** Members' completed cases of a project, per participant (`who` narrows the attempts). */
const completions = (who: SQL) => sql`
  done as (
    select x.user_id, x.project_id, count(*)::int as completed,
      jsonb_agg(jsonb_build_object('case_id', c.id, 'case_name', c.name, 'submitted_at', x.submitted_at)
        order by x.submitted_at, c.id) as cases
    from user_season_round_cases x
    join cases c on c.id = x.case_id
    where x.status = 'COMPLETE' and ${who}
    group by x.user_id, x.project_id
  )`;

/**
 * Issues what the participants `who` picks have earned of the CMEs `which` picks: finds the
 * (CME, participant) pairs reached and not yet certified, gives each a fresh code, and writes
 * them in one statement (a unique index on CME and participant has the last word: ON
 * CONFLICT DO NOTHING). Answers the new certificates' ids.
 */
async function issue(x: Executor, who: SQL, which: SQL, at: Date): Promise<string[]> {
  const pairs = rowsOf<{ cme_id: string; user_id: string }>(
    await x.execute(sql`
      with ${completions(who)}
      select m.id as cme_id, d.user_id
      from cmes m
      join done d on d.project_id = m.project_id and d.completed >= m.min_cases
      join users u on u.id = d.user_id and u.role <> 'TESTUSER'
      where ${which} and not exists (select 1 from certificates k where k.cme_id = m.id and k.user_id = d.user_id)
      order by m.min_cases, m.id, d.user_id`),
  );
  if (!pairs.length) return [];
  const coded = JSON.stringify(pairs.map((p) => ({ ...p, code: newCertificateCode() })));
  const issued = rowsOf<{ id: string }>(
    await x.execute(sql`
      with ${completions(who)}
      insert into certificates (code, cme_id, project_id, user_id, participant_name, profession, project_name,
        client_name, credits, moc_points, course_id, min_cases, cases, issued_at)
      select k.code, m.id, m.project_id, u.id, trim(u.first_name || ' ' || u.last_name), u.profession, p.name,
        cl.name, m.credits, case when m.moc then m.credits end, m.totera_course_id, m.min_cases, d.cases,
        ${at.toISOString()}::timestamptz
      from jsonb_to_recordset(${coded}::jsonb) as k(cme_id uuid, user_id uuid, code text)
      join cmes m on m.id = k.cme_id
      join done d on d.user_id = k.user_id and d.project_id = m.project_id
      join users u on u.id = k.user_id
      join projects p on p.id = m.project_id
      join clients cl on cl.id = p.client_id
      on conflict (cme_id, user_id) where cme_id is not null do nothing
      returning id`),
  );
  const ids = issued.map((r) => r.id);
  // Their emails, in this same transaction: a rolled-back issue queues none (db/certificate-emails.ts).
  await queueCertificateEmails(x, ids, at);
  return ids;
}

/**
 * The certificates a participant has now earned, in the transaction of the submit that
 * completed `attemptId`. Exactly once, also when their submits race: the participant's
 * advisory lock (the class the kept counts take for them, migration 0041) comes first, so a
 * concurrent submit of theirs waits for this transaction to end and then counts, in
 * statements begun after the wait, the completion this one made.
 */
export async function issueEarnedCertificates(tx: Tx, attemptId: string, at: Date): Promise<string[]> {
  // The lock and the attempt's participant and project in one statement: a submit's own cost.
  const [attempt] = rowsOf<{ user_id: string; project_id: string }>(
    await tx.execute(sql`
      select user_id, project_id, pg_advisory_xact_lock(73110037, hashtext(user_id::text))::text as locked
      from user_season_round_cases where id = ${attemptId}::uuid`),
  );
  if (!attempt) return [];
  return issue(
    tx,
    sql`x.user_id = ${attempt.user_id}::uuid and x.project_id = ${attempt.project_id}::uuid`,
    sql`true`,
    at,
  );
}

/**
 * The certificates of one CME for everyone who already reaches its minimum: when it is
 * created, or its minimum lowered, those who completed enough cases before hold theirs at
 * once instead of at their next submit.
 */
export async function issueCertificatesOfCme(x: Executor, cmeId: string, at: Date): Promise<string[]> {
  return issue(
    x,
    sql`x.project_id = (select project_id from cmes where id = ${cmeId}::uuid)`,
    sql`m.id = ${cmeId}::uuid`,
    at,
  );
}
