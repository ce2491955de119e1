import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
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
      async send(message) {
        options.log.info({ mail: { to: message.to, subject: message.subject } }, 'email not sent (no SMTP_URL)');
      },
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: options.from, ...message });
    },
  };
}
