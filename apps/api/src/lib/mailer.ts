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
 * one, messages are written to the log instead, so a development machine still shows the
 * sign-in links it would have sent.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  log: { info(obj: unknown, msg: string): void };
}): Mailer {
  if (!options.smtpUrl) {
    return {
      async send(message) {
        options.log.info({ mail: message }, 'email not sent (no SMTP_URL): logged instead');
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
