import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { EventWebhook } from '@sendgrid/eventwebhook';
import type { EmailEvent } from './email-events.js';
import { outboxIdFromVerp } from './email-return-path.js';
import { NotAuthentic } from './email-webhook-ses.js';

/** How far a signed webhook's timestamp may be from the app's clock (Mailgun's replay window). */
export const WEBHOOK_TIMESTAMP_TOLERANCE_MS = 5 * 60_000;

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string) => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};
const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
const record = (value: unknown) =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** Our Message-ID (`<outbox id@host>`) in a provider's copy of it. */
function outboxOfMessageId(value: unknown): string | null {
  const id = /^<?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@/i.exec(text(value).trim())?.[1];
  return id ? id.toLowerCase() : null;
}

/** Equal, in a time that does not depend on where they differ (or on their lengths). */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

/**
 * SendGrid's Signed Event Webhook: an ECDSA (P-256) signature of the timestamp header and the
 * raw body, checked with the verification key (@sendgrid/eventwebhook). A bounce is
 * HARD_BOUNCE, a block (a temporary refusal) SOFT_BOUNCE, a spam report COMPLAINT.
 */
export function createSendgridWebhook(options: { publicKey: string }) {
  const webhook = new EventWebhook();
  const key = webhook.convertPublicKeyToECDSA(options.publicKey);
  return {
    events(headers: Headers, rawBody: string, body: unknown, at: Date): EmailEvent[] {
      const signature = header(headers, 'x-twilio-email-event-webhook-signature');
      const timestamp = header(headers, 'x-twilio-email-event-webhook-timestamp');
      let valid: boolean;
      try {
        valid = Boolean(signature && timestamp && webhook.verifySignature(key, rawBody, signature, timestamp));
      } catch {
        // A signature that is not even an ECDSA signature (bad base64, bad DER).
        valid = false;
      }
      if (!valid) throw new NotAuthentic('sendgrid signature');
      const events: EmailEvent[] = [];
      for (const item of Array.isArray(body) ? body.map(record) : []) {
        const kind = item.event === 'spamreport' ? 'COMPLAINT' : item.event === 'bounce' ? item.type : null;
        const type =
          kind === 'COMPLAINT' ? 'COMPLAINT' : kind === 'blocked' ? 'SOFT_BOUNCE' : kind ? 'HARD_BOUNCE' : null;
        if (!type || !text(item.email) || !text(item.sg_event_id)) continue;
        events.push({
          type,
          email: text(item.email),
          outboxId: outboxOfMessageId(item['smtp-id']),
          detail: [text(item.status), text(item.reason)].filter(Boolean).join('; ') || text(item.event),
          source: 'sendgrid',
          externalId: text(item.sg_event_id),
          at,
        });
      }
      return events;
    },
  };
}

/**
 * Mailgun's webhooks: an HMAC-SHA256 of the timestamp and the token with the webhook signing
 * key. The signature covers neither the event nor the moment, so a timestamp more than five
 * minutes off the app's clock is refused, and each token is taken once: it is the event's id
 * (a second event under one token is a repeat, recorded once), and one that named no event
 * is remembered by this process for as long as its timestamp is accepted.
 */
export function createMailgunWebhook(options: { signingKey: string }) {
  const seen = new Map<string, number>();
  return {
    events(body: unknown, at: Date): EmailEvent[] {
      const signed = record(record(body).signature);
      const timestamp = text(signed.timestamp);
      const token = text(signed.token);
      const signature = text(signed.signature);
      const expected = createHmac('sha256', options.signingKey)
        .update(timestamp + token)
        .digest('hex');
      if (!timestamp || !token || !sameSecret(signature, expected)) throw new NotAuthentic('mailgun signature');
      const sentAt = Number(timestamp) * 1000;
      if (!Number.isFinite(sentAt) || Math.abs(at.getTime() - sentAt) > WEBHOOK_TIMESTAMP_TOLERANCE_MS) {
        throw new NotAuthentic('mailgun timestamp');
      }
      for (const [old, until] of seen) if (until < at.getTime()) seen.delete(old);
      if (seen.has(token)) throw new NotAuthentic('mailgun token replayed');
      seen.set(token, sentAt + WEBHOOK_TIMESTAMP_TOLERANCE_MS);

      const data = record(record(body)['event-data']);
      const kind = text(data.event);
      const permanent = text(data.severity) === 'permanent';
      const type =
        kind === 'complained' ? 'COMPLAINT' : kind === 'failed' ? (permanent ? 'HARD_BOUNCE' : 'SOFT_BOUNCE') : null;
      const email = text(data.recipient);
      if (!type || !email) return [];
      const delivery = record(data['delivery-status']);
      const headers = record(record(data.message).headers);
      const envelope = record(data.envelope);
      return [
        {
          type,
          email,
          outboxId: outboxIdFromVerp(text(envelope.sender)) ?? outboxOfMessageId(headers['message-id']),
          detail: [text(delivery.code), text(delivery.description) || text(delivery.message), text(data.reason)]
            .filter(Boolean)
            .join('; '),
          source: 'mailgun',
          externalId: token,
          at,
        },
      ];
    },
  };
}

/**
 * Postmark's bounce and spam-complaint webhooks: HTTP basic authentication with the user and
 * password set on the webhook's URL, compared in constant time. A HardBounce is HARD_BOUNCE, a
 * spam complaint COMPLAINT, a soft bounce or a transient failure SOFT_BOUNCE; the rest (an
 * auto-responder, a subscription change) are not events here.
 */
export function createPostmarkWebhook(options: { user: string; password: string }) {
  const expected = `Basic ${Buffer.from(`${options.user}:${options.password}`).toString('base64')}`;
  const soft = new Set(['SoftBounce', 'Transient', 'DnsError', 'ManuallyDeactivated', 'Blocked']);
  return {
    events(headers: Headers, body: unknown, at: Date): EmailEvent[] {
      if (!sameSecret(header(headers, 'authorization') ?? '', expected)) throw new NotAuthentic('postmark credentials');
      const item = record(body);
      const kind = text(item.Type);
      const type =
        item.RecordType === 'SpamComplaint' || kind === 'SpamComplaint' || kind === 'SpamNotification'
          ? 'COMPLAINT'
          : kind === 'HardBounce' || kind === 'BadEmailAddress'
            ? 'HARD_BOUNCE'
            : soft.has(kind)
              ? 'SOFT_BOUNCE'
              : null;
      const email = text(item.Email);
      if (!type || !email || !text(item.ID)) return [];
      return [
        {
          type,
          email,
          outboxId: null,
          detail: [kind, text(item.Description), text(item.Details)].filter(Boolean).join('; '),
          source: 'postmark',
          externalId: `${text(item.RecordType) || 'Bounce'}:${text(item.ID)}`,
          at,
        },
      ];
    },
  };
}
