import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** `<id@host>`: the same on every try of one email. */
  messageId?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** False when no mail server is configured: the outbox then marks emails UNSENT. */
  readonly configured?: boolean;
  /** Closes pooled connections (when the app closes). */
  close?(): void;
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
    },
    { from: options.from },
  );
  return {
    configured: true,
    async send(message) {
      await transport.sendMail({ ...message });
    },
    close: () => transport.close(),
  };
}
