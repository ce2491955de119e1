import type { EmailTemplate, SaveEmailBody } from '@pss/contract';

/** The editable part of a template, as the editor's form holds it. */
export type EmailForm = Required<SaveEmailBody>;

export function toEmailForm(template: EmailTemplate): EmailForm {
  return {
    subject: template.subject,
    body: template.body,
    button_text: template.button_text,
    dashboard_url_text: template.dashboard_url_text,
    send_mode: template.send_mode,
  };
}

/** The fields of an email's texts that take placeholders as plain text (the body is rich text). */
export const plainTextFields = ['subject', 'button_text', 'dashboard_url_text'] as const;
export type PlainTextField = (typeof plainTextFields)[number];

/**
 * `{name}` put into a text where its selection was (replacing what was selected), and where
 * the cursor goes after it. Without a selection (never focused) it goes at the end.
 */
export function insertPlaceholder(
  text: string,
  name: string,
  selection: { start: number | null; end: number | null },
): { text: string; cursor: number } {
  const token = `{${name}}`;
  const start = clamp(selection.start ?? text.length, text.length);
  const end = Math.max(start, clamp(selection.end ?? start, text.length));
  return { text: text.slice(0, start) + token + text.slice(end), cursor: start + token.length };
}

const clamp = (value: number, max: number) => Math.min(Math.max(0, value), max);

/** Today plus some days, as `YYYY-MM-DD` in the browser's own calendar (the schedule's day). */
export function localDay(offsetDays: number, now: Date = new Date()): string {
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offsetDays);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}
