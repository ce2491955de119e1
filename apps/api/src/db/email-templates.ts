import { sql } from 'drizzle-orm';
import {
  defaultFooter as footer,
  emailTypeDescriptor,
  emailTypeDescriptors,
  isManualOnlyEmail,
  projectEmailTypes,
  seasonEmailTypes,
  type EmailDefaultTexts,
  type EmailTypeValue,
} from '@pss/contract';
import type { Executor } from './client.js';

/**
 * The one statement that gives a project every template it lacks, from the written defaults
 * each email type declares (`defaults` in packages/contract/src/email-types/). It lives here,
 * not in the emails module, because the projects module calls it in the transaction that
 * creates a project or a season, and the emails module calls it before it reads (a project
 * made before emails existed gets its templates the first time they are asked for).
 */
export interface EmailDefault extends EmailDefaultTexts {
  name: string;
}

/** Each type's name and default texts. */
export const projectEmailDefaults = Object.fromEntries(
  emailTypeDescriptors.map((d) => [d.type, { name: d.name, ...d.defaults }]),
) as Record<EmailTypeValue, EmailDefault>;

/**
 * The defaults as first written (before issue #47): a footer with "or call {phone}." (broken
 * without a phone) and the link a third time, and a link text that named the place rather
 * than saying what to do if the button fails. A template that still holds one of these word
 * for word is given today's; one an administrator edited is left alone.
 */
const firstFooter =
  '<p>Questions? Write to {email} or call {phone}.</p>' +
  '<p>If the button does not work, copy this link into your browser: {dashboard_link}</p>';
const firstUrlTexts: Partial<Record<EmailTypeValue, string>> = {
  summary_launch: 'Your results',
  summary_reminder: 'Your results',
  season_summary_launch: 'The season summary',
  season_summary_reminder: 'The season summary',
};
const firstDefaults = JSON.stringify(
  (Object.keys(projectEmailDefaults) as EmailTypeValue[]).map((type) => {
    const d = projectEmailDefaults[type];
    return {
      type,
      first_body: d.body.endsWith(footer) ? d.body.slice(0, -footer.length) + firstFooter : null,
      body: d.body,
      first_url_text: firstUrlTexts[type] ?? 'Your dashboard',
      url_text: d.dashboardUrlText,
    };
  }),
);

/** The defaults as a JSON document of rows, for one set-based insert. */
const defaultRows = (types: readonly EmailTypeValue[]) =>
  JSON.stringify(
    types.map((type) => {
      const d = projectEmailDefaults[type];
      return {
        type,
        subject: d.subject,
        body: d.body,
        button_text: d.buttonText,
        dashboard_url_text: d.dashboardUrlText,
        // Every email goes by itself at first (by the schedule, or the Certificate Email when a
        // certificate is issued), but those sent by hand only (`manualOnlyEmailTypes`).
        send_mode: isManualOnlyEmail(type) ? 'MANUAL' : 'AUTOMATIC',
      };
    }),
  );

/**
 * Gives a project its project emails and each of its seasons its variants, where missing
 * (idempotent; concurrent callers insert nothing twice): enabled, AUTOMATIC but for those sent
 * by hand only, which are MANUAL.
 */
export async function ensureEmailTemplates(db: Executor, projectId: string): Promise<void> {
  await db.execute(sql`
    insert into email_templates
      (project_id, season_id, type, subject, body, button_text, dashboard_url_text, send_mode)
    select ${projectId}::uuid, null, d.type, d.subject, d.body, d.button_text, d.dashboard_url_text, d.send_mode
    from json_to_recordset(${defaultRows(projectEmailTypes)}::json)
      as d(type text, subject text, body text, button_text text, dashboard_url_text text, send_mode text)
    on conflict do nothing`);
  await db.execute(sql`
    insert into email_templates
      (project_id, season_id, type, subject, body, button_text, dashboard_url_text, send_mode)
    select s.project_id, s.id, d.type, d.subject, d.body, d.button_text, d.dashboard_url_text, d.send_mode
    from seasons s
    cross join json_to_recordset(${defaultRows(seasonEmailTypes)}::json)
      as d(type text, subject text, body text, button_text text, dashboard_url_text text, send_mode text)
    where s.project_id = ${projectId}::uuid
    on conflict do nothing`);
  // Texts still as first written get today's; edited ones match nothing and are kept.
  await db.execute(sql`
    update email_templates t set
      body = case when t.body = d.first_body then d.body else t.body end,
      dashboard_url_text = case when t.dashboard_url_text = d.first_url_text then d.url_text
        else t.dashboard_url_text end
    from json_to_recordset(${firstDefaults}::json)
      as d(type text, first_body text, body text, first_url_text text, url_text text)
    where t.project_id = ${projectId}::uuid and t.type = d.type
      and (t.body = d.first_body or t.dashboard_url_text = d.first_url_text)`);
}

/** The template's display name (spec §4's template names; the season variants' own). */
export const emailName = (type: EmailTypeValue) => emailTypeDescriptor(type).name;
