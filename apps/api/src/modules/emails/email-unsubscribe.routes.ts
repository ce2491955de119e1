import type { FastifyInstance } from 'fastify';
import { emailUnsubscribeRoutes, unsubscribePagePath } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import { contractRoutes } from '../../lib/contract-routes.js';
import type { EmailUnsubscribeService } from './email-unsubscribe.service.js';

const tags = ['Emails'];

/** The `List-Unsubscribe` field of a small multipart/form-data body, as an object (empty without it). */
function oneClickField(body: string): Record<string, string> {
  const value =
    /content-disposition:\s*form-data;\s*name="List-Unsubscribe"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([^\r\n]*)/i.exec(
      body,
    )?.[1];
  return value === undefined ? {} : { 'List-Unsubscribe': value.trim() };
}

/**
 * The List-Unsubscribe address of reminders (RFC 2369, RFC 8058) and the participant's
 * reminders. The one-click POST takes the form body mail providers send
 * (`application/x-www-form-urlencoded`), in a scope of its own so that no other API call
 * takes forms (a form is what another site's page can post without asking first).
 */
export function registerEmailUnsubscribeRoutes(app: FastifyInstance, service: EmailUnsubscribeService): void {
  const implement = contractRoutes(app);

  implement(
    emailUnsubscribeRoutes.page,
    {
      tags,
      summary:
        'A reminder’s unsubscribe address opened in a browser: redirects to the page that asks (changes nothing)',
      description:
        'A GET never unsubscribes: mail scanners and link previews open links. It redirects to the web page ' +
        '`/unsubscribe?token=`, whose button makes the one-click POST to this same address.',
    },
    async (request, reply) =>
      reply.redirect(`${unsubscribePagePath}?token=${encodeURIComponent(request.params.token)}`, 302),
  );

  void app.register(async (forms) => {
    forms.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    // RFC 8058's own example posts multipart/form-data: its one field is read here (the app's
    // multipart parser, for uploads, streams files and leaves fields out of the body).
    forms.removeContentTypeParser('multipart/form-data');
    forms.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
      done(null, oneClickField(body as string)),
    );
    contractRoutes(forms)(
      emailUnsubscribeRoutes.oneClick,
      {
        tags,
        summary: 'One-click unsubscribe from a project’s reminders (RFC 8058)',
        description:
          'The address in a reminder’s `List-Unsubscribe` header. POST `List-Unsubscribe=One-Click` (form-encoded, ' +
          'as mail providers send it, or JSON) and that participant gets no more reminder emails from that project ' +
          '(a project-scoped UNSUBSCRIBED suppression; their other emails still go). The signed link is the ' +
          'permission: it names the participant and the project, lasts a year and signs no one in. Idempotent. ' +
          'A link altered, expired or of someone no longer in the project: 400 UNSUBSCRIBE_LINK_INVALID, nothing ' +
          'changes. Limited as anonymous calls are (ANONYMOUS_CALLS_PER_MINUTE).',
      },
      async (request) => {
        await service.oneClick(request.params.token);
        return null;
      },
    );
  });

  implement(
    emailUnsubscribeRoutes.reminders,
    {
      tags,
      summary: 'The participant’s projects whose reminder emails they turned off',
      description: 'Each with when (`since`). A project not listed sends its reminders.',
    },
    async (request) => service.reminders(caller(request).userId),
  );

  implement(
    emailUnsubscribeRoutes.resumeReminders,
    {
      tags,
      summary: 'The participant turns a project’s reminder emails back on',
      description:
        'Lifts their own unsubscribe from that project (an address suppressed whole, for a bounce or a ' +
        'complaint, stays so: an administrator lifts that). Idempotent. A project they are not in: 404.',
    },
    async (request) => {
      await service.resumeReminders(caller(request).userId, request.params.projectId);
      return null;
    },
  );
}
