import type { SeasonPlan } from './season-plan.js';
import { POSTMARK_WEBHOOK, type ReceivedMail } from './simulation-app.js';

/**
 * The simulation's mail provider, as far as bounces go: a message the simulation's SMTP
 * server took for a clinician whose address bounces (the plan's `bounces`) never reaches
 * them, and the provider tells the app the way Postmark does — its bounce webhook
 * (`POST /api/email-events/postmark`, HTTP basic auth) with a HardBounce naming the
 * recipient and the message. The moment of the first report per address is kept: from then
 * on nothing may reach that address.
 */
export function mailProvider(deps: { plan: SeasonPlan; baseUrl: string }) {
  const bouncing = new Set(deps.plan.clinicians.filter((c) => c.bounces).map((c) => c.email));
  const authorization = `Basic ${Buffer.from(`${POSTMARK_WEBHOOK.user}:${POSTMARK_WEBHOOK.password}`).toString('base64')}`;
  /** When the provider first reported each address's bounce. */
  const reported = new Map<string, Date>();
  let nextId = 4_323_372_036_854;

  /** Postmark's HardBounce record for a message (the fields its documentation's sample has). */
  function hardBounce(mail: ReceivedMail, at: Date) {
    // Postmark echoes the message it sent by its own MessageID; ours is the outbox id in the
    // Message-ID (and the return path), which is what a provider relaying our id would carry.
    const outboxId = /^<?([0-9a-f-]{36})@/i.exec(mail.messageId)?.[1] ?? '';
    return {
      RecordType: 'Bounce',
      ID: nextId++,
      Type: 'HardBounce',
      TypeCode: 1,
      Name: 'Hard bounce',
      Tag: '',
      MessageID: outboxId,
      ServerID: 7,
      MessageStream: 'outbound',
      Description: 'The server was unable to deliver your message (ex: unknown user, mailbox not found).',
      Details: `smtp;550 5.1.1 <${mail.to}>: Recipient address rejected: User unknown`,
      Email: mail.to,
      From: mail.envelopeFrom,
      BouncedAt: at.toISOString(),
      DumpAvailable: false,
      Inactive: true,
      CanActivate: true,
      Subject: mail.subject,
    };
  }

  return {
    /** Whether mail to the address bounces (it never reaches its reader). */
    bounces: (address: string) => bouncing.has(address.toLowerCase()),

    /** Reports each of these messages that bounced, at `at`; answers how many it reported. */
    async report(mails: ReceivedMail[], at: Date): Promise<number> {
      let count = 0;
      for (const mail of mails) {
        const address = mail.to.toLowerCase();
        if (!bouncing.has(address)) continue;
        const response = await fetch(`${deps.baseUrl}/email-events/postmark`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify(hardBounce(mail, at)),
        });
        const text = await response.text();
        if (!response.ok) {
          throw new Error(`the Postmark bounce webhook answered ${response.status}: ${text.slice(0, 300)}`);
        }
        if (!reported.has(address)) reported.set(address, at);
        count += 1;
      }
      return count;
    },

    /** When the address's bounce was first reported, if it was. */
    reportedAt: (address: string) => reported.get(address.toLowerCase()),
    reported: () => new Map(reported),
  };
}

export type MailProvider = ReturnType<typeof mailProvider>;
