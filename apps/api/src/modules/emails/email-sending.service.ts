import { randomUUID } from 'node:crypto';
import { isCertificateEmail } from '@pss/contract';
import type {
  EmailCalendar,
  EmailDelivery,
  EmailPreview,
  EmailPreviewBody,
  EmailSchedule,
  EmailsSent,
  SendEmailPreview,
  ListQuery,
  Paged,
  ParticipantFilter,
} from '@pss/contract';
import type { Db } from '../../db/client.js';
import { emailName } from '../../db/email-templates.js';
import type { Clock } from '../../lib/clock.js';
import { dayIn } from '../../lib/clock.js';
import { AppError, validationError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ParticipantsService } from '../participants/participants.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { createEmailAccess } from './email-access.js';
import {
  createEmailOutboxRepository,
  manualKey,
  type DeliveryRow,
  type EmailOutboxRepository,
  type OutboxEntry,
} from './email-outbox.repository.js';
import { certificateValues, longDate, renderEmail } from './email-render.js';
import { type EmailScheduler } from './email-scheduler.js';
import { dryRun } from './email-dry-run.js';
import { chooseRecipients } from './email-send-now.js';
import { createEmailScheduleRepository } from './email-schedule.repository.js';
import { calendarSeason, seasonCalendar } from './email-calendar.js';
import { createForecastRepository } from './email-forecast.js';
import { sampleCertificate, sampleParticipant, type SupportContact } from './email-sender.js';
import { admitTestSend, type TestEmailLimits } from './email-test-limits.js';
import { createEmailTestSendsRepository } from './email-test-sends.repository.js';
import { effectiveSupport, projectSupport } from './email-support.js';
import { emptyPlaceholderWarnings } from './email-warnings.js';
import { createEmailsRepository } from './emails.repository.js';

type Selection =
  { ids: string[] } | { all: true; except: string[]; search?: string; filter: Omit<ParticipantFilter, 'archived'> };

function toDelivery(row: DeliveryRow): EmailDelivery {
  return {
    id: row.id,
    participant:
      row.userId && row.firstName !== null
        ? { id: row.userId, first_name: row.firstName, last_name: row.lastName ?? '' }
        : null,
    to: row.toAddress,
    email_id: row.templateId,
    email_type: row.templateType,
    email_name: emailName(row.templateType),
    season_name: row.seasonName,
    round_number: row.roundNumber,
    kind: row.kind,
    scheduled_for: row.ruleDay,
    queued_at: row.createdAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
    status: row.status,
    attempts: row.attempts,
    last_error: row.lastError,
    error_code: row.errorCode,
  };
}

/**
 * Sending a project's emails by hand and as tests, previewing them, reading the delivery
 * log and the dry run of the schedule. Everything sent goes through the outbox (the sender
 * is woken at once); nothing here talks to the mail server.
 */
export function createEmailSendingService(deps: {
  db: Db;
  projects: Pick<ProjectsService, 'requireVisible'>;
  participants: Pick<ParticipantsService, 'resolveSelection'>;
  outbox: Pick<EmailOutboxRepository, 'queue' | 'deliveries' | 'existingKeys'>;
  scheduler: Pick<EmailScheduler, 'picks' | 'sharingReads'>;
  clock: Clock;
  timeZone: string;
  publicUrl: string;
  support: SupportContact;
  testEmailLimits: TestEmailLimits;
  /** Wakes the sender, so that what was queued goes out now. */
  wake(): void;
}) {
  const emails = createEmailsRepository(deps.db);
  const access = createEmailAccess({ db: deps.db, emails, projects: deps.projects });
  const today = () => dayIn(deps.timeZone, deps.clock.now());

  /**
   * A send by hand's recipients: the chosen participants for whom the email is true today
   * (./email-send-now.ts), and who is skipped and why. A disabled email is not sent (spec:
   * the enabled flag), by hand either: EMAIL_DISABLED. The Certificate Email is never sent by
   * hand: it names one certificate, and a send to participants has none to name (it goes by
   * itself when one is issued; a test shows it).
   */
  async function choose(caller: AccessClaims, templateId: string, selection: Selection) {
    const template = await access.template(caller, templateId);
    if (isCertificateEmail(template.type)) {
      throw validationError([
        {
          field: 'params.id',
          message:
            'The Certificate Email goes by itself when a certificate is issued; it cannot be sent by hand. ' +
            'Send a test to see it.',
        },
      ]);
    }
    if (!template.enabled) throw new AppError('EMAIL_DISABLED');
    const userIds = await deps.participants.resolveSelection(template.projectId, selection);
    const day = today();
    const context = await emails.seasonContext(template.projectId, template.seasonId, day);
    const choice = await chooseRecipients(deps.db, deps.timeZone, template, userIds, day, context);
    return { template, day, context, choice };
  }

  async function queueAndWake(entries: OutboxEntry[]): Promise<{ queued: number }> {
    const queued = await deps.outbox.queue(entries, deps.clock.now());
    if (queued) deps.wake();
    return { queued };
  }

  return {
    /**
     * A test goes to any address, so it is limited (per person and per project an hour) and
     * recorded: the count, the record and the queuing are one transaction.
     */
    async sendTest(caller: AccessClaims, templateId: string, addresses: string[]): Promise<{ queued: number }> {
      const template = await access.template(caller, templateId);
      const day = today();
      const context = await emails.seasonContext(template.projectId, template.seasonId, day);
      const recipients = [...new Set(addresses.map((a) => a.toLowerCase()))];
      const now = deps.clock.now();
      const queued = await deps.db.transaction(async (tx) => {
        await admitTestSend(createEmailTestSendsRepository(tx), deps.testEmailLimits, {
          sentAt: now,
          senderId: caller.userId,
          projectId: template.projectId,
          templateId,
          recipients,
          subject: template.subject,
          body: template.body,
          buttonText: template.buttonText,
          dashboardUrlText: template.dashboardUrlText,
        });
        const entries = recipients.map((address): OutboxEntry => ({
          projectId: template.projectId,
          templateId,
          seasonId: context?.seasonId ?? null,
          roundNumber: context?.roundNumber ?? null,
          userId: null,
          toAddress: address,
          kind: 'TEST',
          ruleDay: day,
          // Every test is its own: sending the same test twice sends it twice.
          dedupeKey: `T:${randomUUID()}`,
        }));
        return createEmailOutboxRepository(tx).queue(entries, now);
      });
      if (queued) deps.wake();
      return { queued };
    },

    /** Sends the email now to those of the chosen for whom it is true today; says who was skipped and why. */
    async send(caller: AccessClaims, templateId: string, selection: Selection): Promise<EmailsSent> {
      const { template, day, context, choice } = await choose(caller, templateId, selection);
      const { queued } = await queueAndWake(
        choice.recipients.map((r) => ({
          projectId: template.projectId,
          templateId,
          seasonId: context?.seasonId ?? null,
          roundNumber: context?.roundNumber ?? null,
          userId: r.userId,
          toAddress: r.email,
          kind: 'MANUAL',
          ruleDay: day,
          dedupeKey: manualKey(template.projectId, templateId, r.userId, day),
        })),
      );
      return { queued, skipped: choice.skipped };
    },

    /** What `send` would do with the same selection, changing nothing. */
    async sendPreview(caller: AccessClaims, templateId: string, selection: Selection): Promise<SendEmailPreview> {
      const { choice } = await choose(caller, templateId, selection);
      return { recipients: choice.recipients.length, skipped: choice.skipped };
    },

    /** The texts being edited, made into the message a participant (or the sample) would receive. */
    async preview(caller: AccessClaims, templateId: string, body: EmailPreviewBody): Promise<EmailPreview> {
      const template = await access.template(caller, templateId);
      const project = await deps.projects.requireVisible(caller, template.projectId);
      const participant = body.participant_id
        ? await emails.participant(template.projectId, body.participant_id)
        : null;
      if (body.participant_id && !participant) throw new AppError('USER_NOT_FOUND');
      const context = await emails.seasonContext(template.projectId, template.seasonId, today());
      const person = participant ?? sampleParticipant;
      // Never a real link: whoever previews must not be handed the participant's sign-in.
      const link = `${deps.publicUrl}/participant/link/personal-link`;
      const texts = {
        subject: body.subject,
        body: body.body,
        buttonText: body.button_text,
        dashboardUrlText: body.dashboard_url_text,
      };
      const values = {
        first_name: person.firstName,
        last_name: person.lastName,
        salutation: person.salutation ?? '',
        dashboard_link: link,
        project_name: project.name,
        season_name: context?.seasonName ?? '',
        round_number: context ? String(context.roundNumber) : '',
        round_end_date: context ? longDate(context.roundEndDate) : '',
        ...effectiveSupport(await projectSupport(deps.db, template.projectId), deps.support),
        // A sample certificate, as a test send names (the real one is known only when it is issued).
        ...certificateValues(deps.publicUrl, isCertificateEmail(template.type) ? sampleCertificate : null),
      };
      const rendered = renderEmail(texts, values, link);
      return {
        ...rendered,
        participant: participant
          ? {
              id: participant.id,
              first_name: participant.firstName,
              last_name: participant.lastName,
              email: participant.email,
            }
          : null,
        warnings: emptyPlaceholderWarnings(texts, values),
      };
    },

    async deliveries(
      caller: AccessClaims,
      projectId: string,
      query: ListQuery<
        'queued_at' | 'scheduled_for' | 'status',
        Parameters<EmailOutboxRepository['deliveries']>[1]['filter']
      >,
    ): Promise<Paged<EmailDelivery>> {
      await deps.projects.requireVisible(caller, projectId);
      const page = await deps.outbox.deliveries(projectId, query);
      return { ...page, items: page.items.map(toDelivery) };
    },

    /** The season's calendar: the dry run of each of its days, counted by email, with its forecast (./email-calendar.ts). */
    async calendar(caller: AccessClaims, projectId: string, seasonName: string | undefined): Promise<EmailCalendar> {
      await access.project(caller, projectId);
      const seasons = await createEmailScheduleRepository(deps.db, deps.timeZone).projectSeasons(projectId);
      const day = today();
      const season = calendarSeason(seasons, seasonName, day);
      const curve = await createForecastRepository(deps.db, deps.timeZone).curve(season, day);
      return seasonCalendar(deps.scheduler.sharingReads(), season, curve, day);
    },

    /** The dry run of the schedule for a day (./email-dry-run.ts). */
    async schedule(
      caller: AccessClaims,
      projectId: string,
      query: { date: string; page: number; limit: number },
    ): Promise<EmailSchedule> {
      await access.project(caller, projectId);
      return dryRun(deps, projectId, query);
    },
  };
}

export type EmailSendingService = ReturnType<typeof createEmailSendingService>;
