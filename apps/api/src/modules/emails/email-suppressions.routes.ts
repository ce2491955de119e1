import type { FastifyInstance } from 'fastify';
import { emailSuppressionRoutes } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import { contractRoutes } from '../../lib/contract-routes.js';
import type { EmailSuppressionsService } from './email-suppressions.service.js';

const tags = ['Emails'];
const scope =
  'A provider employee sees every address; a client’s administrator only the addresses of their own client’s ' +
  'participants (and unsubscribes from their own projects).';

export function registerEmailSuppressionsRoutes(app: FastifyInstance, service: EmailSuppressionsService): void {
  const implement = contractRoutes(app);

  implement(
    emailSuppressionRoutes.list,
    {
      tags,
      summary: 'The suppression list: addresses no email goes to, and why',
      description:
        'Each address with its reason (HARD_BOUNCE, SOFT_BOUNCES — three in a row —, COMPLAINT, UNSUBSCRIBED, ' +
        'MANUAL), the mail system’s own words, when and from where (imap, ses, sendgrid, mailgun, postmark, ' +
        'one-click, dashboard, admin). `project_id` null: the whole address; set: only that project’s reminders ' +
        '(the participant unsubscribed). Newest first unless sorted (`email`, `at`, `reason`); `search` matches ' +
        'the address; `filter` takes `reason` and `project_id`. ' +
        scope,
    },
    async (request) => service.list(caller(request), request.query),
  );

  implement(
    emailSuppressionRoutes.add,
    {
      tags,
      summary: 'Suppress an address by hand (MANUAL): no email goes to it until it is lifted',
      description:
        'The whole address, with an optional note (`detail`). An address already suppressed stays as it was ' +
        '(its first reason is kept) and is answered. A client’s administrator may suppress only their own ' +
        'participants’ addresses: any other is NOT_FOUND. A malformed address: VALIDATION_ERROR.',
    },
    async (request) => service.addByAdmin(caller(request), request.body),
  );

  implement(
    emailSuppressionRoutes.lift,
    {
      tags,
      summary: 'Lift an address’s suppression: emails go to it again',
      description:
        'Lifts the whole-address suppression (a bounce, a complaint, a manual one); a participant’s unsubscribe ' +
        'from one project’s reminders is theirs to undo, from their dashboard. None, or one the caller may not ' +
        'see: 404 NOT_FOUND. ' +
        scope,
    },
    async (request) => {
      await service.liftByAdmin(caller(request), request.params.email);
      return null;
    },
  );
}
