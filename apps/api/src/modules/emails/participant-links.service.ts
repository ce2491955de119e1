import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { EmailDeliveryStats, ParticipantLink } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { ensureEmailTemplates } from '../../db/email-templates.js';
import { emailOutbox, emailTemplates, users } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { dayIn } from '../../lib/clock.js';
import { AppError, validationError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { auditChanges, auditTarget } from '../audit/audit-scope.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { EmailOutboxRepository, OutboxEntry } from './email-outbox.repository.js';
import { emailDeliveryStats } from './email-delivery-stats.js';
import { createEmailsRepository } from './emails.repository.js';

/**
 * One participant, one link (issue #47): an administrator copies a participant's new
 * dashboard link, or has the Dashboard Link Email sent to them through the outbox; and any
 * row of a project's delivery log can be sent again by hand.
 */
export function createParticipantLinksService(deps: {
  db: Db;
  projects: Pick<ProjectsService, 'requireVisible'>;
  outbox: Pick<EmailOutboxRepository, 'queue'>;
  clock: Clock;
  timeZone: string;
  publicUrl: string;
  linkTtlDays: number;
  /** A new dashboard link token of the participant (signed now; it signs in once). */
  signLink(userId: string, now: Date, ttlDays: number): Promise<string>;
  /** Wakes the sender once the call has committed, so what was queued goes out now. */
  wake(): void;
}) {
  const emails = createEmailsRepository(deps.db);

  /** The project (visible to the caller) and its participant (archived or not), or 404. */
  async function participantOf(caller: AccessClaims, userId: string, projectId: string) {
    await deps.projects.requireVisible(caller, projectId);
    const participant = await emails.participant(projectId, userId);
    if (!participant) throw new AppError('USER_NOT_FOUND');
    auditTarget('user', userId);
    return participant;
  }

  async function queue(entry: OutboxEntry): Promise<{ queued: number }> {
    const queued = await deps.outbox.queue([entry], deps.clock.now());
    if (queued) deps.wake();
    return { queued };
  }

  return {
    /** How the project's emails fared, by type, and its bounce rate (the Progress Dashboard). */
    async deliveryStats(caller: AccessClaims, projectId: string): Promise<EmailDeliveryStats> {
      await deps.projects.requireVisible(caller, projectId);
      return emailDeliveryStats(deps.db, projectId);
    },

    /**
     * A new single-use dashboard link, answered once and never kept: the audit trail records
     * that this administrator took this participant's link and until when it works, never
     * the link (a credential). An archived participant is given none: their dashboard is closed.
     */
    async takeLink(caller: AccessClaims, userId: string, projectId: string): Promise<ParticipantLink> {
      const participant = await participantOf(caller, userId, projectId);
      if (participant.archived) throw new AppError('USER_NOT_FOUND');
      const now = deps.clock.now();
      const token = await deps.signLink(userId, now, deps.linkTtlDays);
      const expiresAt = new Date(now.getTime() + deps.linkTtlDays * 86_400_000).toISOString();
      auditChanges(null, { dashboard_link: 'taken by an administrator', expires_at: expiresAt });
      return { url: `${deps.publicUrl}/participant/link/${token}`, expires_at: expiresAt };
    },

    /**
     * The project's Dashboard Link Email to one participant, through the outbox (202). Each
     * ask sends one: the administrator asks because the last one did not reach them. A
     * disabled Dashboard Link Email is not sent (EMAIL_DISABLED), as "Send now" refuses.
     */
    async sendLink(caller: AccessClaims, userId: string, projectId: string): Promise<{ queued: number }> {
      const participant = await participantOf(caller, userId, projectId);
      if (participant.archived) throw new AppError('USER_NOT_FOUND');
      await ensureEmailTemplates(deps.db, projectId);
      const [template] = await deps.db
        .select({ id: emailTemplates.id, enabled: emailTemplates.enabled })
        .from(emailTemplates)
        .where(
          and(
            eq(emailTemplates.projectId, projectId),
            isNull(emailTemplates.seasonId),
            eq(emailTemplates.type, 'dashboard_link'),
          ),
        );
      if (!template) throw new AppError('NOT_FOUND');
      if (!template.enabled) throw new AppError('EMAIL_DISABLED');
      return queue({
        projectId,
        templateId: template.id,
        seasonId: null,
        roundNumber: null,
        userId,
        toAddress: participant.email,
        kind: 'MANUAL',
        ruleDay: dayIn(deps.timeZone, deps.clock.now()),
        dedupeKey: `L:${randomUUID()}`,
      });
    },

    /**
     * A delivery-log row sent again by hand, as it was (its email, season, round and
     * certificate) to the participant's address as it is now (an address corrected after a
     * bounce is the one used). The new row is the log's own line; the old one stays as it
     * was. A test is sent again with a new test send (it goes to any address and is counted),
     * and an email still on its way is not doubled.
     */
    async resend(caller: AccessClaims, projectId: string, deliveryId: string): Promise<{ queued: number }> {
      await deps.projects.requireVisible(caller, projectId);
      const [row] = await deps.db
        .select({
          templateId: emailOutbox.templateId,
          seasonId: emailOutbox.seasonId,
          roundNumber: emailOutbox.roundNumber,
          certificateId: emailOutbox.certificateId,
          userId: emailOutbox.userId,
          kind: emailOutbox.kind,
          status: emailOutbox.status,
          ruleDay: emailOutbox.ruleDay,
          currentAddress: users.email,
        })
        .from(emailOutbox)
        .leftJoin(users, eq(users.id, emailOutbox.userId))
        .where(and(eq(emailOutbox.id, deliveryId), eq(emailOutbox.projectId, projectId)));
      if (!row) throw new AppError('NOT_FOUND');
      auditTarget('email', deliveryId);
      if (row.kind === 'TEST' || !row.userId || !row.currentAddress) {
        throw validationError([
          { field: 'params.deliveryId', message: 'A test email is sent again with a new test send.' },
        ]);
      }
      if (row.status === 'QUEUED' || row.status === 'SENDING') throw new AppError('EMAIL_STILL_PENDING');
      return queue({
        projectId,
        templateId: row.templateId,
        seasonId: row.seasonId,
        roundNumber: row.roundNumber,
        certificateId: row.certificateId,
        userId: row.userId,
        toAddress: row.currentAddress,
        kind: 'MANUAL',
        // The email speaks of its own day (a reminder of its round), so it keeps it.
        ruleDay: row.ruleDay,
        dedupeKey: `R:${deliveryId}:${randomUUID()}`,
      });
    },
  };
}

export type ParticipantLinksService = ReturnType<typeof createParticipantLinksService>;
