import { z } from 'zod';

/**
 * A project's emails (spec §4): seven project emails, and per season five variants. Each
 * is a template with placeholders filled per participant when it is sent.
 */
export const projectEmailTypes = [
  'initial',
  'reminder',
  'last_day_of_round',
  'new_round',
  'last_round',
  'summary_launch',
  'summary_reminder',
] as const;
export const seasonEmailTypes = [
  'initial',
  'summary_launch',
  'summary_reminder',
  'season_summary_launch',
  'season_summary_reminder',
] as const;
export const emailTypes = [...projectEmailTypes, 'season_summary_launch', 'season_summary_reminder'] as const;
export const EmailType = z.enum(emailTypes);
export type EmailTypeValue = z.infer<typeof EmailType>;

export const emailSendModes = ['AUTOMATIC', 'MANUAL'] as const;
export const EmailSendMode = z.enum(emailSendModes);

/** The placeholders a template may use; anything else in braces is refused when saved. */
export const emailPlaceholders = [
  'first_name',
  'last_name',
  'salutation',
  'dashboard_link',
  'project_name',
  'season_name',
  'round_number',
  'round_end_date',
  'email',
  'phone',
] as const;

/** The `{name}` placeholders of a text that are not in `emailPlaceholders`, each once. */
export function unknownPlaceholders(text: string): string[] {
  const known = new Set<string>(emailPlaceholders);
  const found = [...text.matchAll(/\{([^{}\s]*)\}/g)].map((m) => m[1]!);
  return [...new Set(found.filter((name) => !known.has(name)))];
}

const withKnownPlaceholders = (max: number) =>
  z
    .string()
    .max(max)
    .superRefine((text, ctx) => {
      for (const name of unknownPlaceholders(text)) {
        ctx.addIssue({
          code: 'custom',
          message: `{${name}} is not a placeholder; use one of ${emailPlaceholders.map((p) => `{${p}}`).join(', ')}.`,
        });
      }
    });

export const emailTemplate = z.object({
  id: z.string().uuid(),
  type: EmailType,
  name: z.string(),
  /** The season of a season variant; null for a project email. */
  season_id: z.string().uuid().nullable(),
  subject: z.string(),
  body: z.string(),
  button_text: z.string(),
  dashboard_url_text: z.string(),
  enabled: z.boolean(),
  send_mode: EmailSendMode,
  updated_at: z.string(),
});
export type EmailTemplate = z.infer<typeof emailTemplate>;
export const emailTemplateList = z.object({ items: z.array(emailTemplate) });

/** Saving a template: its texts (placeholders checked) and how it is sent. */
export const saveEmailBody = z.strictObject({
  subject: withKnownPlaceholders(300).pipe(z.string().trim().min(1, 'FIELD_REQUIRED')),
  body: withKnownPlaceholders(50_000).pipe(z.string().trim().min(1, 'FIELD_REQUIRED')),
  button_text: withKnownPlaceholders(100).pipe(z.string().trim().min(1, 'FIELD_REQUIRED')),
  dashboard_url_text: withKnownPlaceholders(300),
  send_mode: EmailSendMode,
});
export type SaveEmailBody = z.input<typeof saveEmailBody>;

export const emailStatusBody = z.strictObject({ enabled: z.boolean() });
export const seasonNameQuery = z.object({ seasonName: z.string().trim().min(1).max(120) });
export const seasonNameBody = z.strictObject({ seasonName: z.string().trim().min(1).max(120) });
export const emailsChanged = z.object({ updated: z.number().int() });
