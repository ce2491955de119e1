import { sql } from 'drizzle-orm';
import { isManualOnlyEmail, projectEmailTypes, seasonEmailTypes, type EmailTypeValue } from '@pss/contract';
import type { Executor } from './client.js';

/**
 * The written defaults of a project's emails (spec §1 and §4), and the one statement that
 * gives a project every template it lacks. It lives here, not in the emails module,
 * because the projects module calls it in the transaction that creates a project or a
 * season, and the emails module calls it before it reads (a project made before emails
 * existed gets its templates the first time they are asked for).
 */
export interface EmailDefault {
  name: string;
  subject: string;
  body: string;
  buttonText: string;
  dashboardUrlText: string;
}

/**
 * The support footer every default ends with (spec §1). The phone has a paragraph of its own:
 * without a support phone it comes out empty and the renderer leaves the paragraph out, so
 * no email says "or call .". The dashboard link is not in it: the button carries the link,
 * and the renderer puts the fallback (the dashboard link text and the address) under it.
 */
const footer = '<p>Questions? Write to us at {email}.</p><p>You can also call us on {phone}.</p>';

/** Under the button: the fallback, followed by the address written out. */
const fallback = 'If the button does not work, copy this address into your browser:';

const letter = (paragraphs: string[]) =>
  `<p>Dear {salutation} {last_name},</p>${paragraphs.map((p) => `<p>${p}</p>`).join('')}${footer}`;

export const projectEmailDefaults: Record<EmailTypeValue, EmailDefault> = {
  initial: {
    name: 'Initial Launch Email',
    subject: '{project_name}: your patient cases are ready',
    body: letter([
      'Welcome to {project_name}. Your first patient cases are waiting on your dashboard.',
      'Each case takes a few minutes; your answers are saved as you give them.',
    ]),
    buttonText: 'Open my dashboard',
    dashboardUrlText: fallback,
  },
  reminder: {
    name: 'Reminder Email',
    subject: '{project_name}: your cases for round {round_number} are waiting',
    body: letter(['A friendly reminder: round {round_number} closes on {round_end_date}. Your cases are waiting.']),
    buttonText: 'Continue my cases',
    dashboardUrlText: fallback,
  },
  last_day_of_round: {
    name: 'Last Day of Round Email',
    subject: '{project_name}: today is the last day of round {round_number}',
    body: letter(['Round {round_number} closes today. There is still time to finish your cases.']),
    buttonText: 'Finish my cases',
    dashboardUrlText: fallback,
  },
  new_round: {
    name: 'New Round Transition Email',
    subject: '{project_name}: round {round_number} has begun',
    body: letter(['Round {round_number} of {season_name} has begun, with new patient cases for you.']),
    buttonText: 'See the new cases',
    dashboardUrlText: fallback,
  },
  last_round: {
    name: 'Last Day of Last Round Email',
    subject: '{project_name}: the last round closes today',
    body: letter(['The last round of {season_name} closes today. Finish your cases to complete the season.']),
    buttonText: 'Finish my cases',
    dashboardUrlText: fallback,
  },
  summary_launch: {
    name: 'Project Summary Launch Email',
    subject: '{project_name}: your results are ready',
    body: letter(['The results of {season_name} are ready: see how your answers compare with your peers.']),
    buttonText: 'See my results',
    dashboardUrlText: fallback,
  },
  summary_reminder: {
    name: 'Project Summary Reminder Email',
    subject: '{project_name}: your results are waiting',
    body: letter(['Your results for {season_name} are waiting on your dashboard.']),
    buttonText: 'See my results',
    dashboardUrlText: fallback,
  },
  certificate_issued: {
    name: 'Certificate Email',
    subject: '{project_name}: your CME certificate',
    body: letter([
      'Congratulations: your certificate for {project_name} is ready. CME credits earned: {credits}.',
      'Download it as a PDF from your dashboard. Anyone can check that it is genuine at {certificate_link} ' +
        '(certificate {certificate_code}).',
    ]),
    buttonText: 'Get my certificate',
    dashboardUrlText: fallback,
  },
  dashboard_link: {
    name: 'Dashboard Link Email',
    subject: '{project_name}: your dashboard link',
    body: letter([
      'Here is your own link to your dashboard in {project_name}, where your patient cases are.',
      'It signs you in once; ask for a new one from the sign-in page whenever you need it.',
    ]),
    buttonText: 'Open my dashboard',
    dashboardUrlText: fallback,
  },
  season_summary_launch: {
    name: 'Season Summary Launch Email',
    subject: '{project_name}: the {season_name} summary is ready',
    body: letter(['The summary of {season_name} is ready on your dashboard.']),
    buttonText: 'See the summary',
    dashboardUrlText: fallback,
  },
  season_summary_reminder: {
    name: 'Season Summary Reminder Email',
    subject: '{project_name}: the {season_name} summary is waiting',
    body: letter(['The summary of {season_name} is waiting on your dashboard.']),
    buttonText: 'See the summary',
    dashboardUrlText: fallback,
  },
};

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
 * Gives a project its nine project emails and each of its seasons its five variants,
 * where missing (idempotent; concurrent callers insert nothing twice): enabled, AUTOMATIC
 * but for the season's Season Summary emails, which are MANUAL.
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
export const emailName = (type: EmailTypeValue) => projectEmailDefaults[type].name;
