import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** `<id@host>`: the same on every try of one email. */
  messageId?: string;
  /** Extra header fields (List-Unsubscribe…), one line each; signed with the rest when DKIM is set. */
  headers?: Record<string, string>;
  /**
   * The SMTP envelope sender (MAIL FROM), where bounces go: the email's own return path
   * (`bounces+<outbox id>@BOUNCE_DOMAIN`). The From header stays SMTP_FROM.
   */
  envelopeFrom?: string;
}

/**
 * The header fields a DKIM signature covers when present: nodemailer's own list (RFC 6376's
 * suggestions) and List-Unsubscribe-Post, which RFC 8058 requires signed with List-Unsubscribe
 * (so no one can turn a forwarded message's unsubscribe into a one-click one).
 */
const DKIM_SIGNED_FIELDS = [
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding',
  'Content-ID:Content-Description:Resent-Date:Resent-From:Resent-Sender:Resent-To:Resent-Cc:Resent-Message-ID',
  'In-Reply-To:References:List-Id:List-Help:List-Unsubscribe:List-Subscribe:List-Post:List-Owner:List-Archive',
  'List-Unsubscribe-Post',
].join(':');

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** False when no mail server is configured: the outbox then marks emails UNSENT. */
  readonly configured?: boolean;
  /** Closes pooled connections (when the app closes). */
  close?(): void;
}

/** The key every message is signed with (DKIM), as the config reads it (`config-mail-auth.ts`). */
export interface DkimKey {
  domainName: string;
  keySelector: string;
  /** PEM. */
  privateKey: string;
}

/**
 * Email through SMTP (`SMTP_URL`, e.g. `smtp://user:pass@mail.example.org:587`). Without
 * one, the log says that a message was not sent, to whom and about what — never its text,
 * which may hold a sign-in link (a credential).
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  log: { info(obj: unknown, msg: string): void };
  /** Signs every message (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY); unsigned without. */
  dkim?: DkimKey | undefined;
}): Mailer {
  if (!options.smtpUrl) {
    return {
      configured: false,
      async send(message) {
        options.log.info({ mail: { to: message.to, subject: message.subject } }, 'email not sent (no SMTP_URL)');
      },
    };
  }
  // A few pooled connections; a server that stops answering is given up on in seconds, not
  // nodemailer's default ten minutes, so the outbox can retry it later.
  const transport = nodemailer.createTransport(
    {
      url: options.smtpUrl,
      pool: true,
      maxConnections: 4,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
      // nodemailer signs each message as it is written to the server (rsa-sha256, relaxed/relaxed).
      ...(options.dkim ? { dkim: { ...options.dkim, headerFieldNames: DKIM_SIGNED_FIELDS } } : {}),
    },
    { from: options.from },
  );
  return {
    configured: true,
    async send({ envelopeFrom, ...message }) {
      await transport.sendMail(
        envelopeFrom ? { ...message, envelope: { from: envelopeFrom, to: message.to } } : message,
      );
    },
    close: () => transport.close(),
  };
}
