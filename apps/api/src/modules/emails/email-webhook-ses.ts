import https from 'node:https';
import MessageValidator from 'sns-validator';
import type { EmailEvent } from './email-events.js';
import { outboxIdFromVerp } from './email-return-path.js';

/** AWS's own hosts for SNS signing certificates and subscription confirmations. */
const AWS_SNS_HOSTS = /^sns\.[a-zA-Z0-9-]{3,}\.amazonaws\.com(\.cn)?$/;

export class NotAuthentic extends Error {}

/** What an SNS message carries, once its signature is checked. */
interface SnsMessage {
  Type: string;
  TopicArn: string;
  Message: string;
  MessageId: string;
  SubscribeURL?: string;
}

interface SesRecipient {
  emailAddress?: unknown;
  diagnosticCode?: unknown;
  status?: unknown;
}

/** The id our Message-ID carries (`<outbox id@host>`), or what the return path says. */
function outboxOf(mail: { source?: unknown; commonHeaders?: { messageId?: unknown } } | undefined): string | null {
  const fromPath = typeof mail?.source === 'string' ? outboxIdFromVerp(mail.source) : null;
  if (fromPath) return fromPath;
  const messageId = mail?.commonHeaders?.messageId;
  const id = typeof messageId === 'string' ? /^<?([0-9a-f-]{36})@/i.exec(messageId.trim())?.[1] : undefined;
  return id ? id.toLowerCase() : null;
}

/**
 * Amazon SES's bounce and complaint notifications, as SNS delivers them (notifications or
 * event publishing). A permanent bounce is HARD_BOUNCE, a transient or undetermined one
 * SOFT_BOUNCE, a complaint COMPLAINT; deliveries and the rest are not events here.
 */
export function sesEvents(message: string, at: Date): EmailEvent[] {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(message) as Record<string, unknown>;
  } catch {
    return [];
  }
  const kind = body.notificationType ?? body.eventType;
  const mail = body.mail as Parameters<typeof outboxOf>[0];
  const outboxId = outboxOf(mail);
  const events: EmailEvent[] = [];
  if (kind === 'Bounce') {
    const bounce = (body.bounce ?? {}) as { bounceType?: unknown; feedbackId?: unknown; bouncedRecipients?: unknown };
    const type = bounce.bounceType === 'Permanent' ? 'HARD_BOUNCE' : 'SOFT_BOUNCE';
    for (const r of Array.isArray(bounce.bouncedRecipients) ? (bounce.bouncedRecipients as SesRecipient[]) : []) {
      if (typeof r.emailAddress !== 'string') continue;
      const detail = [r.status, r.diagnosticCode, bounce.bounceType].filter((x) => typeof x === 'string').join('; ');
      events.push({
        type,
        email: r.emailAddress,
        outboxId,
        detail,
        source: 'ses',
        externalId: `${String(bounce.feedbackId)}:${r.emailAddress.toLowerCase()}`,
        at,
      });
    }
  } else if (kind === 'Complaint') {
    const complaint = (body.complaint ?? {}) as {
      feedbackId?: unknown;
      complainedRecipients?: unknown;
      complaintFeedbackType?: unknown;
    };
    for (const r of Array.isArray(complaint.complainedRecipients)
      ? (complaint.complainedRecipients as SesRecipient[])
      : []) {
      if (typeof r.emailAddress !== 'string') continue;
      events.push({
        type: 'COMPLAINT',
        email: r.emailAddress,
        outboxId,
        detail: `complaint${typeof complaint.complaintFeedbackType === 'string' ? `: ${complaint.complaintFeedbackType}` : ''}`,
        source: 'ses',
        externalId: `${String(complaint.feedbackId)}:${r.emailAddress.toLowerCase()}`,
        at,
      });
    }
  }
  return events;
}

/** GETs a URL over https (the global agent: the certificates Node trusts); true on a 2xx. */
function visit(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    https
      .get(url, { timeout: 10_000 }, (response) => {
        response.resume();
        response.on('end', () => resolve((response.statusCode ?? 500) < 300));
      })
      .on('error', () => resolve(false))
      .on('timeout', function (this: { destroy(): void }) {
        this.destroy();
      });
  });
}

/**
 * The SES webhook: each SNS message's signature is checked with its signing certificate
 * (sns-validator: fetched over https from AWS's SNS hosts only, `certHostPattern` in a test),
 * and only the configured topic's are taken. A subscription to that topic is confirmed by
 * visiting its SubscribeURL (on the same hosts); notifications give their events.
 */
export function createSesWebhook(options: {
  topicArn: string;
  certHostPattern: RegExp | undefined;
  log?: { warn(obj: unknown, msg: string): void };
}) {
  const hosts = options.certHostPattern ?? AWS_SNS_HOSTS;
  const validator = new MessageValidator(hosts);
  const verified = (body: unknown) =>
    new Promise<SnsMessage>((resolve, reject) => {
      if (typeof body !== 'string' && (typeof body !== 'object' || body === null)) {
        reject(new NotAuthentic('not an SNS message'));
        return;
      }
      validator.validate(body as string | Record<string, unknown>, (error, message) =>
        error || !message
          ? reject(new NotAuthentic(error?.message ?? 'invalid'))
          : resolve(message as unknown as SnsMessage),
      );
    });

  return {
    /** The events of one SNS message; throws NotAuthentic for a message not signed by SNS for our topic. */
    async events(body: unknown, at: Date): Promise<EmailEvent[]> {
      const message = await verified(body);
      if (message.TopicArn !== options.topicArn) throw new NotAuthentic('another topic');
      if (message.Type === 'SubscriptionConfirmation') {
        const url = message.SubscribeURL ? new URL(message.SubscribeURL) : null;
        if (!url || url.protocol !== 'https:' || !hosts.test(url.host)) throw new NotAuthentic('subscribe URL');
        // Not confirmed (AWS out of reach): said in the log; AWS can be asked to send the request again.
        if (!(await visit(url.toString())))
          options.log?.warn({ topic: message.TopicArn }, 'SNS subscription not confirmed');
        return [];
      }
      if (message.Type !== 'Notification') return [];
      return sesEvents(message.Message, at);
    },
  };
}
