import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { ensureEmailTemplates } from './db/email-templates.js';
import type { Clock } from './lib/clock.js';
import type { Mailer } from './lib/mailer.js';
import type { Metrics } from './lib/metrics.js';
import type { TokenService } from './lib/tokens.js';
import { createBounceMailbox } from './modules/emails/bounce-mailbox.js';
import { outboxRecipients } from './modules/emails/bounce-mailbox.repository.js';
import { createEmailOutboxRepository } from './modules/emails/email-outbox.repository.js';
import { createEmailScheduleRepository } from './modules/emails/email-schedule.repository.js';
import { createEmailScheduler, type EmailScheduler } from './modules/emails/email-scheduler.js';
import { createEmailSender, type EmailSender, type SenderOptions } from './modules/emails/email-sender.js';
import { createEmailSendingService } from './modules/emails/email-sending.service.js';
import { createEmailSuppressionsService } from './modules/emails/email-suppressions.service.js';
import { createEmailWebhooksService } from './modules/emails/email-webhooks.service.js';
import { createEmailWorker } from './modules/emails/email-worker.js';
import { createUnsubscribeLinks, listUnsubscribeHeaders } from './modules/emails/unsubscribe-links.js';
import { createEmailUnsubscribeService } from './modules/emails/email-unsubscribe.service.js';
import { createEmailPace } from './modules/emails/email-pace.js';
import { createParticipantLinksService } from './modules/emails/participant-links.service.js';
import type { ParticipantsService } from './modules/participants/participants.service.js';
import type { ProjectsService } from './modules/projects/projects.service.js';
import { afterCommit } from './db/unit-of-work.js';
import type { SystemRecorder } from './modules/audit/call-recorder.service.js';

/** The email schedule and outbox, as main.ts starts them and tests drive them. */
export interface AppEmails {
  /** Queues what the schedule says is due today. */
  runScheduler: EmailScheduler['run'];
  /** Sends what is due in the outbox until nothing is left. */
  drain: EmailSender['drain'];
  /**
   * Runs both in the background (main.ts); answers a stop function. With a mail server, what
   * an earlier process left UNSENT for want of one is queued again first.
   */
  startWorker(): () => Promise<void>;
  /** Queues again what was not sent for want of a mail server (what startWorker does first). */
  requeueUnsent(): Promise<{ requeued: number; dropped: number }>;
}

/**
 * How many days an email left UNSENT for want of a mail server may still go once one is
 * configured: as long as a Certificate Email may be late. Older ones are old news.
 */
export const UNSENT_KEPT_DAYS = 7;

/** The emails' services the routes are given (app-routes.ts). */
export type AppEmailServices = Omit<ReturnType<typeof createAppEmails>, 'emails'>;

/**
 * The email schedule, the outbox and its sender, the worker that runs both, and the sending
 * service of the emails screens; `emails` is what main.ts and tests reach.
 */
export function createAppEmails(deps: {
  config: Config;
  database: Database;
  clock: Clock;
  tokens: TokenService;
  mailer: Mailer;
  metrics: Metrics;
  log: FastifyBaseLogger;
  projects: ProjectsService;
  participants: ParticipantsService;
  /** Tests shorten the outbox's retries and leases. */
  senderOptions?: SenderOptions;
  /** Records each message sent in the audit trail. */
  audit?: SystemRecorder;
}) {
  const { config, clock, tokens, mailer, metrics, log } = deps;
  const { db } = deps.database;
  const emailOutbox = createEmailOutboxRepository(db);
  const emailScheduler = createEmailScheduler({
    schedule: createEmailScheduleRepository(db, config.scheduleTimeZone),
    outbox: emailOutbox,
    ensureTemplates: (projectId) => ensureEmailTemplates(db, projectId),
    clock,
    timeZone: config.scheduleTimeZone,
  });
  // A reminder's one-click unsubscribe link (RFC 8058): signed with the server's secret, for this purpose only.
  const unsubscribeLinks = createUnsubscribeLinks(config.sessionSecret);
  const emailSender = createEmailSender({
    outbox: emailOutbox,
    mailer,
    clock,
    timeZone: config.scheduleTimeZone,
    publicUrl: config.publicUrl,
    support: config.support,
    dashboardLink: async (userId, now) =>
      `${config.publicUrl}/participant/link/${await tokens.signLinkToken(userId, now, config.linkTtlDays)}`,
    log,
    options: { leaseMs: config.emailLeaseSeconds * 1000, ...deps.senderOptions },
    unsubscribeHeaders: (work, now) => listUnsubscribeHeaders(unsubscribeLinks, config.publicUrl, work, now),
    pace: config.emailMaxPerMinute ? createEmailPace(db, config.emailMaxPerMinute) : undefined,
    audit: deps.audit,
    bounceDomain: config.bounceDomain,
  });
  // The suppression list, which bounces, complaints and unsubscribes fill (each recorded in the audit trail).
  const emailSuppressions = createEmailSuppressionsService({ db, clock, audit: deps.audit });
  // The providers' webhooks, which report bounces and complaints to it.
  const emailWebhooks = createEmailWebhooksService({
    config: config.emailEvents,
    clock,
    suppressions: emailSuppressions,
    log,
  });
  // A reminder's one-click unsubscribe, and the participant turning reminders back on.
  const emailUnsubscribe = createEmailUnsubscribeService({
    db,
    clock,
    links: unsubscribeLinks,
    suppressions: emailSuppressions,
  });
  // Every drain's outcome is counted for /metrics, whether the worker or a test runs it.
  const countedSender = { drain: async () => metrics.countEmails(await emailSender.drain()) };
  // Bounces and complaints read from the return path's mailbox (BOUNCE_IMAP_URL), when there is one.
  const bounces =
    config.bounceMailbox &&
    createBounceMailbox({
      url: config.bounceMailbox.url,
      recordEvent: (event) => emailSuppressions.recordEvent(event),
      sentTo: outboxRecipients(db),
      clock,
      log,
    });
  const emailWorker = createEmailWorker({ scheduler: emailScheduler, sender: countedSender, bounces, log });
  const emailSending = createEmailSendingService({
    db,
    projects: deps.projects,
    participants: deps.participants,
    outbox: emailOutbox,
    scheduler: emailScheduler,
    clock,
    timeZone: config.scheduleTimeZone,
    publicUrl: config.publicUrl,
    support: config.support,
    testEmailLimits: config.testEmailLimits,
    wake: () => afterCommit(() => emailWorker.wake()),
  });

  const participantLinks = createParticipantLinksService({
    db,
    projects: deps.projects,
    outbox: emailOutbox,
    clock,
    timeZone: config.scheduleTimeZone,
    publicUrl: config.publicUrl,
    linkTtlDays: config.linkTtlDays,
    signLink: (userId, now, ttlDays) => tokens.signLinkToken(userId, now, ttlDays),
    wake: () => afterCommit(() => emailWorker.wake()),
  });

  const requeueUnsent = async () => {
    const outcome = await emailOutbox.requeueUnsent(clock.now(), UNSENT_KEPT_DAYS);
    if (outcome.requeued + outcome.dropped > 0) {
      log.info(outcome, 'emails not sent for want of a mail server were queued again');
    }
    return outcome;
  };
  const emails: AppEmails = {
    runScheduler: () => emailScheduler.run(),
    drain: () => countedSender.drain(),
    startWorker: () => {
      if (mailer.configured !== false) {
        void requeueUnsent()
          .then(() => emailWorker.wake())
          .catch((error: unknown) => log.error({ err: error }, 'emails not sent could not be queued again'));
      }
      return emailWorker.start({
        schedulerIntervalMs: config.schedulerIntervalSeconds * 1000,
        bouncePollMs: config.bounceMailbox?.pollMs,
      });
    },
    requeueUnsent,
  };
  return { emails, emailSending, participantLinks, emailSuppressions, emailUnsubscribe, emailWebhooks };
}
