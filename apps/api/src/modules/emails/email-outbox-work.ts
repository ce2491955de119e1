import { sql } from 'drizzle-orm';
import type { EmailDeliveryKindValue, EmailTypeValue } from '@pss/contract';
import { rowsOf, type Executor } from '../../db/client.js';
import { supportColumns, type SupportSetting } from './email-support.js';

/** A claimed row with what it takes to decide whether it is still due and to write it. */
export interface OutboxWork {
  id: string;
  /** Whose email it is: the audit trail's record of its sending names them. */
  projectId: string;
  clientId: string;
  kind: EmailDeliveryKindValue;
  attempts: number;
  toAddress: string;
  ruleDay: string;
  userId: string | null;
  roundNumber: number | null;
  template: {
    type: EmailTypeValue;
    subject: string;
    body: string;
    buttonText: string;
    dashboardUrlText: string;
    enabled: boolean;
    sendMode: 'AUTOMATIC' | 'MANUAL';
  };
  projectName: string;
  projectArchived: boolean;
  /** The project's support contact, else its client's ({email}, {phone}; null: the server's). */
  support: SupportSetting;
  participant: { firstName: string; lastName: string; salutation: string | null; archived: boolean } | null;
  seasonName: string | null;
  roundEndDate: string | null;
  casesInRound: number;
  completedInRound: number;
  /** The season's Results Summary is posted (a summary email goes only while it is). */
  summaryPosted: boolean;
  /** The certificate a Certificate Email announces (null for any other email, or once it is deleted). */
  certificate: { code: string; credits: number; revoked: boolean } | null;
  /**
   * The address's suppressions (read in this statement, not a round trip a row): the whole
   * address's reason, and whether it unsubscribed from this project's reminders.
   */
  suppressed: { addressReason: string | null; unsubscribedFromProject: boolean };
}

interface WorkRow {
  id: string;
  project_id: string;
  client_id: string;
  kind: EmailDeliveryKindValue;
  attempts: number;
  to_address: string;
  rule_day: string;
  user_id: string | null;
  round_number: number | null;
  type: EmailTypeValue;
  subject: string;
  body: string;
  button_text: string;
  dashboard_url_text: string;
  enabled: boolean;
  send_mode: 'AUTOMATIC' | 'MANUAL';
  project_name: string;
  project_status: string;
  support_email: string | null;
  support_phone: string | null;
  first_name: string | null;
  last_name: string | null;
  salutation: string | null;
  archived: boolean | null;
  season_name: string | null;
  round_end: string | null;
  cases_in_round: number;
  completed_in_round: number;
  summary_posted: boolean;
  certificate_code: string | null;
  certificate_credits: number | null;
  certificate_revoked: boolean | null;
  suppressed_reason: string | null;
  unsubscribed_from_project: boolean;
}

/** The claimed rows with their template, participant, season and round progress. */
export async function readOutboxWork(db: Executor, ids: string[]): Promise<OutboxWork[]> {
  if (!ids.length) return [];
  const result = await db.execute(sql`
    select o.id, o.project_id, p.client_id, o.kind, o.attempts, o.to_address, o.rule_day::text as rule_day,
      o.user_id, o.round_number, t.type, t.subject, t.body, t.button_text, t.dashboard_url_text, t.enabled,
      t.send_mode, p.name as project_name, p.status as project_status, ${supportColumns},
      u.first_name, u.last_name, u.salutation, pp.archived, s.name as season_name, r.end_date::text as round_end,
      (select count(*)::int from cases c
        where c.season_id = o.season_id and c.round_number = o.round_number and c.status = 'PUBLISHED') as cases_in_round,
      (select count(*)::int from user_season_round_cases x
        where x.user_id = o.user_id and x.season_id = o.season_id and x.round_number = o.round_number
          and x.status = 'COMPLETE') as completed_in_round,
      exists (select 1 from season_summaries ss where ss.season_id = o.season_id and ss.status = 'POSTED')
        as summary_posted,
      k.code as certificate_code, k.credits::float8 as certificate_credits,
      k.revoked_at is not null as certificate_revoked,
      (select x.reason from email_suppressions x
        where x.email = lower(o.to_address) and x.project_id is null) as suppressed_reason,
      exists (select 1 from email_suppressions x
        where x.email = lower(o.to_address) and x.project_id = o.project_id) as unsubscribed_from_project
    from email_outbox o
    join email_templates t on t.id = o.template_id
    join projects p on p.id = o.project_id
    join clients pcl on pcl.id = p.client_id
    left join users u on u.id = o.user_id
    left join project_participants pp on pp.project_id = o.project_id and pp.user_id = o.user_id
    left join seasons s on s.id = o.season_id
    left join rounds r on r.season_id = o.season_id and r.number = o.round_number
    left join certificates k on k.id = o.certificate_id
    where o.id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  return rowsOf<WorkRow>(result).map((r) => ({
    id: r.id,
    projectId: r.project_id,
    clientId: r.client_id,
    kind: r.kind,
    attempts: r.attempts,
    toAddress: r.to_address,
    ruleDay: r.rule_day,
    userId: r.user_id,
    roundNumber: r.round_number,
    template: {
      type: r.type,
      subject: r.subject,
      body: r.body,
      buttonText: r.button_text,
      dashboardUrlText: r.dashboard_url_text,
      enabled: r.enabled,
      sendMode: r.send_mode,
    },
    projectName: r.project_name,
    projectArchived: r.project_status === 'ARCHIVED',
    support: { email: r.support_email, phone: r.support_phone },
    participant:
      r.user_id && r.first_name !== null
        ? {
            firstName: r.first_name,
            lastName: r.last_name ?? '',
            salutation: r.salutation,
            archived: r.archived ?? true,
          }
        : null,
    seasonName: r.season_name,
    roundEndDate: r.round_end,
    casesInRound: r.cases_in_round,
    completedInRound: r.completed_in_round,
    summaryPosted: r.summary_posted,
    certificate:
      r.certificate_code !== null
        ? {
            code: r.certificate_code,
            credits: Number(r.certificate_credits),
            revoked: r.certificate_revoked === true,
          }
        : null,
    suppressed: { addressReason: r.suppressed_reason, unsubscribedFromProject: r.unsubscribed_from_project },
  }));
}
