/**
 * What an email type is, declared once: one module per type in this folder (`initial.ts`,
 * `reminder.ts`, …), listed in `index.ts`, from which every list of types is derived — the
 * wire's enumeration, the templates a project and a season get, the database's checks, the
 * manual-only, certificate and reminder lists, the simulator's columns. What is code rather
 * than data stays where it runs, keyed by type so that the type checker names what a new type
 * lacks: its schedule rule (`scheduleRules` in apps/api/src/modules/emails/email-rules.ts), the
 * schedule's explanation on the Emails screen (`explainedIn` in
 * apps/web/src/features/emails/email-schedule.tsx). CONTRIBUTING.md has the recipe.
 */

/**
 * How the email goes. `scheduled`: a rule of the round schedule picks its day
 * (`scheduleRules`); `triggered`: queued by an event, in that event's transaction (the
 * Certificate Email, when a certificate is issued); `manual-only`: no rule sends it, an
 * administrator does ("Send now", or one participant's link), and its templates are MANUAL
 * (the database's `email_templates_manual_only_check` holds it).
 */
export type EmailSending = 'scheduled' | 'triggered' | 'manual-only';

/**
 * What must be true for a participant to get it: asked when it is sent by hand ("Send now"
 * skips the others, saying why: `whyNotNow`) and again by the sender just before it goes (else
 * it is CANCELLED, saying why: `cancelReason`).
 * - `none`: any participant of the project (not read against a season).
 * - `started`: takes part in the season, and their start date has come.
 * - `round-unfinished`: and has cases left in the round the email speaks of, which is running
 *   and one of theirs; an email still queued when they finish it is cancelled.
 * - `summary-posted`: and the season's Results Summary is posted and they completed the season;
 *   taking the summary down cancels what is still queued.
 * - `certificate`: names one CME certificate, so it is never sent by hand; a revoked
 *   certificate cancels it. The certificate's placeholders are filled in it only.
 */
export type EmailCondition = 'none' | 'started' | 'round-unfinished' | 'summary-posted' | 'certificate';

/** A template's written default texts (placeholders in braces: `emailPlaceholders`). */
export interface EmailDefaultTexts {
  subject: string;
  /** Rich text; `letter()` writes the salutation and the support footer around paragraphs. */
  body: string;
  buttonText: string;
  dashboardUrlText: string;
}

export interface EmailTypeDescriptor {
  /** Its key: `email_templates.type`, the wire's `email_type`. */
  type: string;
  /** Its name on every screen, log and file (spec §4). */
  name: string;
  /** Whether a project has a template of it, and whether each season has its own variant. */
  project: boolean;
  season: boolean;
  sending: EmailSending;
  condition: EmailCondition;
  /**
   * A reminder: it nudges a participant along rather than telling them something new. It
   * carries List-Unsubscribe (RFC 8058), and a participant who unsubscribes from a project
   * stops getting its reminders and nothing else.
   */
  reminder: boolean;
  defaults: EmailDefaultTexts;
  /** Its column in the season simulator's day table and chart; null for one a season does not send by itself. */
  simulator: { label: string; colour: string } | null;
}

/** Declares an email type, keeping its literal values (`sending: 'scheduled'`) for the lists derived from it. */
export function defineEmailType<const D extends EmailTypeDescriptor>(descriptor: D): D {
  return descriptor;
}

/**
 * The support footer every default ends with (spec §1). The phone has a paragraph of its own:
 * without a support phone it comes out empty and the renderer leaves the paragraph out, so
 * no email says "or call .". The dashboard link is not in it: the button carries the link,
 * and the renderer puts the fallback (the dashboard link text and the address) under it.
 */
export const defaultFooter = '<p>Questions? Write to us at {email}.</p><p>You can also call us on {phone}.</p>';

/** Under the button: the fallback, followed by the address written out. */
export const defaultFallback = 'If the button does not work, copy this address into your browser:';

/** A default body: the salutation, the paragraphs, the support footer. */
export const letter = (paragraphs: string[]) =>
  `<p>Dear {salutation} {last_name},</p>${paragraphs.map((p) => `<p>${p}</p>`).join('')}${defaultFooter}`;
