import type { FastifyInstance } from 'fastify';
import { emailSendingRoutes } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import { contractRoutes } from '../../lib/contract-routes.js';
import type { EmailSendingService } from './email-sending.service.js';

const tags = ['Emails'];

export function registerEmailSendingRoutes(app: FastifyInstance, service: EmailSendingService): void {
  const implement = contractRoutes(app);

  implement(
    emailSendingRoutes.sendTest,
    {
      tags,
      summary: 'Send a test of an email (the id is the email’s) to up to 20 addresses',
      description:
        'The template as saved, filled with a sample participant’s details; its button leads to the sign-in page ' +
        '(a test address is no participant). A disabled email may be tested. Queued in the outbox and sent at once (202); the delivery log shows ' +
        'how it went. No address: TEST_EMAIL_RECIPIENT_REQUIRED; a malformed one: INVALID_EMAIL. Test emails are ' +
        'limited per person and per project an hour (TEST_EMAILS_PER_PERSON_PER_HOUR, ' +
        'TEST_EMAILS_PER_PROJECT_PER_HOUR): over either, 429 TEST_EMAIL_LIMIT_REACHED with Retry-After and ' +
        'nothing is sent. Each send is recorded: who sent which texts to which addresses.',
    },
    async (request) => service.sendTest(caller(request), request.params.id, request.body.emails),
  );

  implement(
    emailSendingRoutes.send,
    {
      tags,
      summary: 'Send an email (the id is the email’s) to chosen participants now',
      description:
        'A selection as elsewhere: `{ "ids": [...] }` or `{ "all": true, "except": [...], "search", "filter" }`. ' +
        'Archived participants are left out; an id that is not the project’s: USER_NOT_FOUND, and nothing is sent. ' +
        'Each chosen participant gets it only if it is true for them today, by the schedule’s own rules: the ' +
        'Initial Launch email once their start date has come; a reminder, last-day or new-round email while its ' +
        'round runs, is one of theirs, has a published case and they have cases of it left; a summary email once ' +
        'the season’s summary is posted, to those who completed the season. The rest are answered in `skipped`, ' +
        'each with the reason, and sent nothing. Each participant gets their own signed dashboard link. A ' +
        'participant is sent one email by hand at most once a day (a double click queues nothing twice); ' +
        '`queued` counts the new ones. A disabled email is not sent: 409 EMAIL_DISABLED and nothing is queued ' +
        '(enable it first; a test send still goes). The Certificate Email cannot be sent by hand (400).',
    },
    async (request) => service.send(caller(request), request.params.id, request.body),
  );

  implement(
    emailSendingRoutes.sendPreview,
    {
      tags,
      summary: 'Who “Send now” of an email (the id is the email’s) would reach, and who it would skip and why',
      description:
        'The same selection as `POST /projects/{emailId}/send-email`, answered without sending or queuing ' +
        'anything: `recipients` counts those the email is true for today, `skipped` lists the others, each with ' +
        'the reason (starts later, their round has no case to take, completed, summary not posted…). The same ' +
        'refusals as the send: USER_NOT_FOUND, 409 EMAIL_DISABLED, 400 for the Certificate Email.',
    },
    async (request) => service.sendPreview(caller(request), request.params.id, request.body),
  );

  implement(
    emailSendingRoutes.preview,
    {
      tags,
      summary: 'Render the texts of an email being edited (the id is the email’s), as a participant would receive them',
      description:
        'Subject, HTML part and plain-text part, filled with the chosen participant’s details (`participant_id`, ' +
        'one of the project’s: USER_NOT_FOUND otherwise) or a sample participant’s. The dashboard link stands in ' +
        'for the participant’s own, which is only ever made when the email is sent.',
    },
    async (request) => service.preview(caller(request), request.params.id, request.body),
  );

  implement(
    emailSendingRoutes.deliveries,
    {
      tags,
      summary: 'The project’s delivery log: every email queued, sent, retried, failed or cancelled',
      description:
        'Newest first unless sorted (`queued_at`, `scheduled_for`, `status`); `search` matches the address; ' +
        '`filter` takes `status`, `kind` (SCHEDULED, MANUAL, TEST) and `email_id`. A FAILED email carries ' +
        'EMAILS_SEND_FAILED and the mail server’s message.',
    },
    async (request) => service.deliveries(caller(request), request.params.id, request.query),
  );

  implement(
    emailSendingRoutes.schedule,
    {
      tags,
      summary: 'Dry run of the round schedule: who would get which email on a day, and why',
      description:
        'Only enabled, automatic emails; progress as it stands now. `already_queued` says the email is in the ' +
        'outbox for that day already (the schedule would not queue it again). `counts` totals each email over ' +
        'every page.',
    },
    async (request) => service.schedule(caller(request), request.params.id, request.query),
  );

  implement(
    emailSendingRoutes.calendar,
    {
      tags,
      summary:
        'The season calendar: which emails the schedule sends on each day of a season, to how many, and a forecast',
      description:
        'For each day from the season’s first round to its last round’s end (once a summary is posted, to its ' +
        'reminder if that is later): the dry run of that day (`/email-schedule`), counted by email, with progress ' +
        'as it stands now — a participant who has completed a round is in none of its later reminders. That count ' +
        'is the upper bound: it assumes nobody completes from today on. Beside it, `forecast`: on days after ' +
        '`today`, each email that stops when a round is completed counts each participant by the share of the ' +
        'history still not done on that day since the round began, among those not done today. The history ' +
        '(`forecast_basis`) is the project’s other seasons that have ended, else this season’s ended rounds, ' +
        'else none (the forecast is then the count). `today` is the app’s day in the schedule’s time zone; ' +
        '`rounds` gives each round’s published cases (a round with none sends nothing). ' +
        '`season` names the season (NOT_FOUND if the project has none of that name); left out, the project’s ' +
        'default season (the one running today, else the latest begun).',
    },
    async (request) => service.calendar(caller(request), request.params.id, request.query.season),
  );
}
