import { z } from 'zod';

/**
 * Where bounces and complaints come back (issue #47): the domain of each email's own return
 * path, and the credentials each provider's webhook is checked with. A provider without its
 * credentials is not configured: its webhook answers 404. Kept beside config.ts, which takes
 * these variables into its environment's schema.
 */
export const emailEventsEnv = {
  // Unset: the domain of SMTP_FROM's address.
  BOUNCE_DOMAIN: z
    .string()
    .regex(
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i,
      'must be a domain name',
    )
    .optional(),
  // Amazon SES through SNS: the topic whose notifications (and subscription) are taken.
  SES_SNS_TOPIC_ARN: z
    .string()
    .regex(/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[\w-]{1,256}$/, 'must be an SNS topic ARN')
    .optional(),
  // The hosts SNS signing certificates may be fetched from (a regular expression); AWS's own by default.
  SES_SNS_CERT_HOST_PATTERN: z
    .string()
    .refine((value) => {
      try {
        new RegExp(value);
        return true;
      } catch {
        return false;
      }
    }, 'must be a regular expression')
    .optional(),
  // SendGrid's Signed Event Webhook: the verification key it shows (base64 of the DER public key).
  SENDGRID_WEBHOOK_PUBLIC_KEY: z.string().min(40).optional(),
  // Mailgun's HTTP webhook signing key.
  MAILGUN_WEBHOOK_SIGNING_KEY: z.string().min(8).optional(),
  // Postmark's webhook: the HTTP basic-auth user and password set on the webhook's URL.
  POSTMARK_WEBHOOK_USER: z.string().min(1).optional(),
  POSTMARK_WEBHOOK_PASSWORD: z.string().min(12).optional(),
};

export interface EmailEventsConfig {
  /** The domain of every email's return path, `bounces+<outbox id>@<bounceDomain>`. */
  bounceDomain: string;
  /** Each provider's webhook credentials; undefined: that provider is not configured (404). */
  emailEvents: {
    ses: { topicArn: string; certHostPattern: RegExp | undefined } | undefined;
    sendgrid: { publicKey: string } | undefined;
    mailgun: { signingKey: string } | undefined;
    postmark: { user: string; password: string } | undefined;
  };
}

type EmailEventsEnv = { SMTP_FROM: string } & {
  [K in keyof typeof emailEventsEnv]?: string | undefined;
};

/** The address in `Name <address>` (or the whole text when it is only an address). */
export function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();
}

export function emailEventsConfig(e: EmailEventsEnv, invalid: (message: string) => Error): EmailEventsConfig {
  if (Boolean(e.POSTMARK_WEBHOOK_USER) !== Boolean(e.POSTMARK_WEBHOOK_PASSWORD)) {
    throw invalid('POSTMARK_WEBHOOK_USER and POSTMARK_WEBHOOK_PASSWORD must be set together');
  }
  const from = addressOf(e.SMTP_FROM);
  return {
    bounceDomain: (e.BOUNCE_DOMAIN ?? from.slice(from.lastIndexOf('@') + 1)).toLowerCase() || 'localhost',
    emailEvents: {
      ses: e.SES_SNS_TOPIC_ARN
        ? {
            topicArn: e.SES_SNS_TOPIC_ARN,
            certHostPattern: e.SES_SNS_CERT_HOST_PATTERN ? new RegExp(e.SES_SNS_CERT_HOST_PATTERN) : undefined,
          }
        : undefined,
      sendgrid: e.SENDGRID_WEBHOOK_PUBLIC_KEY ? { publicKey: e.SENDGRID_WEBHOOK_PUBLIC_KEY } : undefined,
      mailgun: e.MAILGUN_WEBHOOK_SIGNING_KEY ? { signingKey: e.MAILGUN_WEBHOOK_SIGNING_KEY } : undefined,
      postmark:
        e.POSTMARK_WEBHOOK_USER && e.POSTMARK_WEBHOOK_PASSWORD
          ? { user: e.POSTMARK_WEBHOOK_USER, password: e.POSTMARK_WEBHOOK_PASSWORD }
          : undefined,
    },
  };
}
