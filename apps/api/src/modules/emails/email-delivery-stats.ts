import { sql } from 'drizzle-orm';
import { BOUNCE_RATE_WARNING, type EmailDeliveryStats, type EmailTypeValue } from '@pss/contract';
import { rowsOf, type Db } from '../../db/client.js';
import { emailName } from '../../db/email-templates.js';

interface TypeRow {
  type: EmailTypeValue;
  sent: number;
  bounced: number;
  complained: number;
  suppressed: number;
}

/**
 * How a project's emails fared, by type (the Progress Dashboard): what the mail server took,
 * what bounce and complaint reports came back for (an event is tied to its message by the
 * message's return path or Message-ID), what was not sent to a suppressed address, and how
 * many participants turned the project's reminders off. One statement over the project's
 * outbox (its index by project) and the events of those messages (their index by message).
 */
export async function emailDeliveryStats(db: Db, projectId: string): Promise<EmailDeliveryStats> {
  const rows = rowsOf<TypeRow>(
    await db.execute(sql`
      select t.type,
        cast(count(*) filter (where o.status = 'SENT') as integer) as sent,
        cast(count(*) filter (where o.status = 'SENT' and exists (select 1 from email_events e
          where e.outbox_id = o.id and e.type in ('HARD_BOUNCE', 'SOFT_BOUNCE'))) as integer) as bounced,
        cast(count(*) filter (where o.status = 'SENT' and exists (select 1 from email_events e
          where e.outbox_id = o.id and e.type = 'COMPLAINT')) as integer) as complained,
        cast(count(*) filter (where o.status = 'SUPPRESSED') as integer) as suppressed
      from email_outbox o
      join email_templates t on t.id = o.template_id
      where o.project_id = ${projectId} and o.kind <> 'TEST'
      group by t.type`),
  );
  const [unsubscribed] = rowsOf<{ n: number }>(
    await db.execute(sql`
      select cast(count(*) as integer) as n from email_suppressions
      where project_id = ${projectId} and reason = 'UNSUBSCRIBED'`),
  );
  const sent = rows.reduce((sum, row) => sum + row.sent, 0);
  const bounced = rows.reduce((sum, row) => sum + row.bounced, 0);
  const bounceRate = sent ? bounced / sent : 0;
  return {
    by_type: rows
      .map((row) => ({
        email_type: row.type,
        email_name: emailName(row.type),
        sent: row.sent,
        bounced: row.bounced,
        complained: row.complained,
        suppressed: row.suppressed,
      }))
      .sort((a, b) => b.sent - a.sent || a.email_name.localeCompare(b.email_name)),
    unsubscribed: unsubscribed?.n ?? 0,
    bounce_rate: bounceRate,
    bounce_warning: bounceRate > BOUNCE_RATE_WARNING,
  };
}
