import type { FastifyInstance, FastifyRequest } from 'fastify';
import { emailSuppressionRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { AppError } from '../../lib/errors.js';
import type { EmailWebhooksService } from './email-webhooks.service.js';

const rawBodies = new WeakMap<FastifyRequest, string>();

/**
 * The providers' webhooks. SendGrid signs the body exactly as sent, so these routes keep it:
 * their own scope parses JSON (and SNS's JSON sent as text/plain) and remembers the text.
 */
export function registerEmailWebhooksRoutes(app: FastifyInstance, service: EmailWebhooksService): void {
  void app.register(async (scope) => {
    scope.removeContentTypeParser(['application/json', 'text/plain']);
    scope.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (request, body, done) => {
      const text = String(body);
      rawBodies.set(request, text);
      try {
        done(null, text.trim() === '' ? undefined : JSON.parse(text));
      } catch {
        done(new AppError('VALIDATION_ERROR', { message: 'The body is not JSON.' }), undefined);
      }
    });
    const implement = contractRoutes(scope);
    implement(
      emailSuppressionRoutes.providerEvents,
      {
        tags: ['Emails'],
        summary: 'A mail provider’s bounces and complaints (ses, sendgrid, mailgun, postmark)',
        description:
          'For the providers, not for people: each call is checked the way its provider signs it, and its ' +
          'bounces and complaints are recorded once each (a hard bounce or a complaint suppresses the address at ' +
          'once, soft bounces after three in a row). `ses`: an SNS message for the configured topic ' +
          '(SES_SNS_TOPIC_ARN), its signature checked with its signing certificate from AWS; a subscription to ' +
          'that topic is confirmed. `sendgrid`: the Signed Event Webhook’s ECDSA signature ' +
          '(SENDGRID_WEBHOOK_PUBLIC_KEY) of the timestamp and the body as sent. `mailgun`: the HMAC-SHA256 ' +
          'signature of timestamp and token (MAILGUN_WEBHOOK_SIGNING_KEY), a timestamp within five minutes and ' +
          'a token used once. `postmark`: HTTP basic authentication (POSTMARK_WEBHOOK_USER and _PASSWORD). A ' +
          'call that fails its check: 401 NOT_AUTHORIZED, and nothing is recorded. A provider that is not ' +
          'configured: 404 NOT_FOUND. Limited as anonymous calls are (ANONYMOUS_CALLS_PER_MINUTE: 429 ' +
          'TOO_MANY_REQUESTS with Retry-After, which the providers retry).',
      },
      async (request) =>
        service.receive(request.params.provider, {
          headers: request.headers,
          rawBody: rawBodies.get(request as unknown as FastifyRequest) ?? '',
          body: request.body,
        }),
    );
  });
}
