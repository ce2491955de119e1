/**
 * What the email editor and the delivery log read without the emails' schemas
 * (./emails.ts): how a template is sent, its placeholders and the longest texts, the
 * outbox's statuses and kinds. Apart so that those screens paint without bringing zod.
 */

export const emailSendModes = ['AUTOMATIC', 'MANUAL'] as const;

/*
 * Which types are sent by hand only, name a certificate or are reminders is said by each type's
 * descriptor (./email-types/): `manualOnlyEmailTypes`, `isCertificateEmail`, `isReminderEmail`.
 */

/** The web page a GET of the List-Unsubscribe address leads to: it asks before anything changes. */
export const unsubscribePagePath = '/unsubscribe';

/**
 * The placeholders a template may use; anything else in braces is refused when saved. Any
 * template may use any of them, but the certificate's (`certificate_link`: its public
 * verification page, `certificate_code`, `credits`) are filled only in the Certificate Email
 * and are empty in the others.
 */
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
  'certificate_link',
  'certificate_code',
  'credits',
] as const;

/** The `{name}` placeholders of a text that are not in `emailPlaceholders`, each once. */
export function unknownPlaceholders(text: string): string[] {
  const known = new Set<string>(emailPlaceholders);
  const found = [...text.matchAll(/\{([^{}\s]*)\}/g)].map((m) => m[1]!);
  return [...new Set(found.filter((name) => !known.has(name)))];
}

/** The longest each of a template's texts may be. */
export const EMAIL_TEXT_MAX = { subject: 300, body: 50_000, button_text: 100, dashboard_url_text: 300 } as const;

/**
 * Whether texts being edited can be previewed: each within its length and with known
 * placeholders only (what the preview call's schema checks of them).
 */
export function emailTextsFit(texts: Record<keyof typeof EMAIL_TEXT_MAX, string>): boolean {
  return (Object.keys(EMAIL_TEXT_MAX) as (keyof typeof EMAIL_TEXT_MAX)[]).every(
    (field) => texts[field].length <= EMAIL_TEXT_MAX[field] && unknownPlaceholders(texts[field]).length === 0,
  );
}

/** A test send goes to at most this many addresses. */
export const MAX_TEST_RECIPIENTS = 20;

/**
 * An email's way through the outbox. QUEUED: waiting (or waiting to retry); SENDING: a
 * sender holds it; SENT: the mail server took it; FAILED: refused for good or out of tries
 * (EMAILS_SEND_FAILED, with the server's message); CANCELLED: no longer due when its turn
 * came (the participant finished, was archived, the email was disabled, or its certificate
 * was revoked); UNSENT: no mail server is configured (`SMTP_URL`), so it shows what would
 * have been sent; SUPPRESSED: the address is on the suppression list (a bounce, a complaint,
 * an unsubscribe: why, in `last_error`), so nothing went to the mail server.
 */
export const emailDeliveryStatuses = [
  'QUEUED',
  'SENDING',
  'SENT',
  'FAILED',
  'CANCELLED',
  'UNSENT',
  'SUPPRESSED',
] as const;

/**
 * SCHEDULED: queued by the round schedule, or by a certificate being issued (the Certificate
 * Email); MANUAL: sent by an administrator; TEST: a test send.
 */
export const emailDeliveryKinds = ['SCHEDULED', 'MANUAL', 'TEST'] as const;
