import type { EmailEventProvider } from '@pss/contract';
import type { EmailEventsConfig } from '../../config-email-events.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { EmailEvent } from './email-events.js';
import type { EmailSuppressionsService } from './email-suppressions.service.js';
import { createMailgunWebhook, createPostmarkWebhook, createSendgridWebhook } from './email-webhook-providers.js';
import { createSesWebhook, NotAuthentic } from './email-webhook-ses.js';

/** A provider's webhook call as the route hands it over: its headers, its body as sent and as parsed. */
export interface WebhookCall {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  body: unknown;
}

/**
 * The providers' webhooks (`POST /email-events/{provider}`): each call is checked the way its
 * provider signs or authenticates it, its bounces and complaints mapped to email events and
 * recorded (the suppressions service applies the rules). A provider not configured answers
 * 404; a call that fails its check, 401 NOT_AUTHORIZED, and nothing is recorded.
 */
export function createEmailWebhooksService(deps: {
  config: EmailEventsConfig['emailEvents'];
  clock: Clock;
  suppressions: Pick<EmailSuppressionsService, 'recordEvent'>;
  log?: { warn(obj: unknown, msg: string): void };
}) {
  const { ses, sendgrid, mailgun, postmark } = deps.config;
  const readers: Partial<Record<EmailEventProvider, (call: WebhookCall, at: Date) => Promise<EmailEvent[]>>> = {};
  if (ses) {
    const hook = createSesWebhook({ ...ses, log: deps.log });
    readers.ses = (call, at) => hook.events(call.body, at);
  }
  if (sendgrid) {
    const hook = createSendgridWebhook(sendgrid);
    readers.sendgrid = async (call, at) => hook.events(call.headers, call.rawBody, call.body, at);
  }
  if (mailgun) {
    const hook = createMailgunWebhook(mailgun);
    readers.mailgun = async (call, at) => hook.events(call.body, at);
  }
  if (postmark) {
    const hook = createPostmarkWebhook(postmark);
    readers.postmark = async (call, at) => hook.events(call.headers, call.body, at);
  }

  return {
    /** Checks and records one webhook call; answers how many bounces and complaints it carried. */
    async receive(provider: EmailEventProvider, call: WebhookCall): Promise<{ events: number }> {
      const read = readers[provider];
      if (!read) throw new AppError('NOT_FOUND');
      let events: EmailEvent[];
      try {
        events = await read(call, deps.clock.now());
      } catch (error) {
        if (error instanceof NotAuthentic) throw new AppError('NOT_AUTHORIZED');
        throw error;
      }
      for (const event of events) await deps.suppressions.recordEvent(event);
      return { events: events.length };
    },
  };
}

export type EmailWebhooksService = ReturnType<typeof createEmailWebhooksService>;
