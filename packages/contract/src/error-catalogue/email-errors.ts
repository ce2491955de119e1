import type { ErrorDefinition } from './error-definition.js';

/** Errors of sending emails. */
export const emailErrors = {
  EMAILS_SEND_FAILED: { status: 500, message: 'Some or all emails could not be sent.', showServerMessage: true },
  TEST_EMAIL_RECIPIENT_REQUIRED: {
    status: 400,
    message: 'Enter at least one email address to send a test email.',
    showServerMessage: false,
  },
  /** Ours: "Send now" of a disabled email (a disabled email is not sent; a test send still goes). */
  EMAIL_DISABLED: {
    status: 409,
    message: 'This email is disabled, so it cannot be sent. Enable it first to send it.',
    showServerMessage: false,
  },
  // Test sends go to any address, from the platform's sender: counted per person and per project an hour.
  TEST_EMAIL_LIMIT_REACHED: {
    status: 429,
    message: 'Too many test emails were sent in the last hour. Please wait and try again.',
    showServerMessage: true,
  },
  /** Ours: "Send again" of a delivery-log row whose email is still queued or being sent. */
  EMAIL_STILL_PENDING: {
    status: 409,
    message: 'This email has not gone yet: send it again once it has.',
    showServerMessage: false,
  },
  /** Ours: a reminder's one-click unsubscribe link (List-Unsubscribe) altered, malformed or expired. */
  UNSUBSCRIBE_LINK_INVALID: {
    status: 400,
    message: 'This unsubscribe link is not valid or has expired. Use the link in a newer email.',
    showServerMessage: false,
  },
} as const satisfies Record<string, ErrorDefinition>;
