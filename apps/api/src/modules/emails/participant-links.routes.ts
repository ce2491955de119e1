import type { FastifyInstance } from 'fastify';
import { emailDeliveryRoutes, participantLinkRoutes } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import { contractRoutes } from '../../lib/contract-routes.js';
import type { ParticipantLinksService } from './participant-links.service.js';

export function registerParticipantLinksRoutes(app: FastifyInstance, service: ParticipantLinksService): void {
  const implement = contractRoutes(app);

  implement(
    participantLinkRoutes.take,
    {
      tags: ['Participants'],
      summary: 'Take a new dashboard link of a participant of the project, to hand to them',
      description:
        'A new single-use link to the participant’s dashboard (it signs in once, and stops working at `expires_at`, ' +
        'DASHBOARD_LINK_TTL_DAYS after now). It is answered once and kept nowhere: the audit trail records that this ' +
        'administrator took this participant’s link, never the link. The participant must be one of the project’s and ' +
        'not archived (USER_NOT_FOUND otherwise); a project the caller cannot see: PROJECT_NOT_FOUND.',
    },
    async (request) => service.takeLink(caller(request), request.params.userId, request.params.projectId),
  );

  implement(
    participantLinkRoutes.send,
    {
      tags: ['Participants'],
      summary: 'Email a participant of the project their dashboard link now',
      description:
        'Queues the project’s Dashboard Link Email to the participant (202) and wakes the sender: it goes within ' +
        'seconds, with a freshly signed link, and the delivery log shows how it went. Each call sends one. A disabled ' +
        'Dashboard Link Email is not sent (409 EMAIL_DISABLED). The participant must be one of the project’s and not ' +
        'archived (USER_NOT_FOUND otherwise).',
    },
    async (request) => service.sendLink(caller(request), request.params.userId, request.params.projectId),
  );

  implement(
    emailDeliveryRoutes.stats,
    {
      tags: ['Emails'],
      summary: 'How the project’s emails fared: sent, bounced, complained and suppressed by type, and the bounce rate',
      description:
        'For each email type the project has sent (tests left out): messages the mail server took, those a bounce ' +
        'report (hard or soft) or a complaint came back for (tied to the message by its return path or Message-ID), ' +
        'and those not sent because the address was suppressed; the participants who turned the project’s reminders ' +
        'off; and the bounce rate (bounced over sent), with `bounce_warning` above 2 %. A project the caller cannot ' +
        'see: PROJECT_NOT_FOUND.',
    },
    async (request) => service.deliveryStats(caller(request), request.params.id),
  );

  implement(
    emailDeliveryRoutes.resend,
    {
      tags: ['Emails'],
      summary: 'Send a row of the project’s delivery log again',
      description:
        'Queues the same email (its template, season, round and certificate) again, by hand, to the participant’s ' +
        'address as it is now (202); the log gains a line and the old one stays. An email still queued or being sent: ' +
        '409 EMAIL_STILL_PENDING. A test send is sent again with a new test send: VALIDATION_ERROR. A row that is not ' +
        'the project’s: NOT_FOUND. The sender checks it is still true as for any email sent by hand (an archived ' +
        'participant, a disabled email: CANCELLED).',
    },
    async (request) => service.resend(caller(request), request.params.id, request.params.deliveryId),
  );
}
