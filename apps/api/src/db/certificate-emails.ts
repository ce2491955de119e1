import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from './client.js';
import { ensureEmailTemplates } from './email-templates.js';

/**
 * The Certificate Email (issue #37): one outbox row per certificate just issued, put there in
 * the transaction that issues it (db/certificates.ts), so a submit that rolls back queues
 * nothing and one that commits cannot lose its email. It lives here, beside the issuing, for
 * the same reason `ensureEmailTemplates` does: the attempts and CME modules' transactions
 * call it, not the emails module.
 *
 * Queued only while the project's Certificate Email is enabled and AUTOMATIC, to participants
 * not archived of a project not archived; kind SCHEDULED (it goes by itself, as the schedule's
 * do) under the key `C:{certificate}`, so a certificate is announced once whoever queues it.
 * The sender reads the certificate's code and credits when it renders, and cancels the email
 * of a certificate revoked meanwhile (modules/emails/email-sender.ts).
 *
 * Its day is the issue's date in UTC: this layer does not know the schedule's time zone, and
 * the day only names the email in the delivery log and starts the sender's lateness window
 * (a week, so a day's difference from the schedule's zone never decides whether it goes).
 * Answers how many emails were queued.
 */
export async function queueCertificateEmails(x: Executor, certificateIds: string[], at: Date): Promise<number> {
  if (!certificateIds.length) return 0;
  // One parameter however many: a CME created on a large project issues thousands at once.
  const ids = sql`(select value::uuid from jsonb_array_elements_text(${JSON.stringify(certificateIds)}::jsonb))`;
  const projects = rowsOf<{ project_id: string }>(
    await x.execute(sql`select distinct project_id from certificates where id in ${ids}`),
  );
  // A project made before the Certificate Email existed gets it (and any other it lacks) now.
  for (const { project_id } of projects) await ensureEmailTemplates(x, project_id);
  const day = at.toISOString().slice(0, 10);
  const queued = rowsOf<{ id: string }>(
    await x.execute(sql`
      insert into email_outbox (project_id, template_id, user_id, to_address, kind, rule_day, dedupe_key,
        certificate_id, next_attempt_at, created_at)
      select k.project_id, t.id, k.user_id, u.email, 'SCHEDULED', ${day}::date, 'C:' || k.id::text, k.id,
        ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
      from certificates k
      join email_templates t on t.project_id = k.project_id and t.season_id is null
        and t.type = 'certificate_issued' and t.enabled and t.send_mode = 'AUTOMATIC'
      join projects p on p.id = k.project_id and p.status <> 'ARCHIVED'
      join project_participants pp on pp.project_id = k.project_id and pp.user_id = k.user_id and not pp.archived
      join users u on u.id = k.user_id
      where k.id in ${ids} and k.revoked_at is null
      on conflict (dedupe_key) do nothing
      returning id`),
  );
  return queued.length;
}
