import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { ParticipantReminders } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { emailSuppressions, projectParticipants, projects, users } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { auditTarget } from '../audit/audit-scope.service.js';
import type { EmailSuppressionsService } from './email-suppressions.service.js';
import type { UnsubscribeLinks } from './unsubscribe-links.js';

/**
 * Signed and unsubscribable (issue #47): the one-click unsubscribe of a reminder's
 * List-Unsubscribe address (RFC 8058), and the participant's own view and undoing of it.
 * An unsubscribe is a project-scoped UNSUBSCRIBED suppression (email-suppressions.service.ts):
 * it stops that project's reminders to that address and nothing else.
 */
export function createEmailUnsubscribeService(deps: {
  db: Db;
  clock: Clock;
  links: UnsubscribeLinks;
  suppressions: Pick<EmailSuppressionsService, 'suppress' | 'lift'>;
}) {
  const { db } = deps;

  /** The participant's address, when they still take part in the project (archived or not). */
  async function addressIn(userId: string, projectId: string): Promise<string | null> {
    const [row] = await db
      .select({ email: users.email })
      .from(projectParticipants)
      .innerJoin(users, eq(users.id, projectParticipants.userId))
      .where(and(eq(projectParticipants.userId, userId), eq(projectParticipants.projectId, projectId)))
      .limit(1);
    return row ? row.email.toLowerCase() : null;
  }

  return {
    /**
     * Stops the reminders the link names (that participant, that project). Idempotent: a
     * second click, or a provider that POSTs twice, changes nothing more. A link altered,
     * expired, or of someone no longer in the project: UNSUBSCRIBE_LINK_INVALID, nothing changes.
     */
    async oneClick(token: string): Promise<void> {
      // The trail names the suppression (its address), never the link, which is a credential.
      auditTarget('email-suppression', 'one-click');
      const claims = deps.links.verify(token, deps.clock.now());
      const email = claims ? await addressIn(claims.userId, claims.projectId) : null;
      if (!claims || !email) throw new AppError('UNSUBSCRIBE_LINK_INVALID');
      await deps.suppressions.suppress({
        email,
        reason: 'UNSUBSCRIBED',
        projectId: claims.projectId,
        source: 'one-click',
        detail: 'Unsubscribed from the project’s reminders (List-Unsubscribe, one click).',
      });
    },

    /** The participant's projects whose reminders they turned off, and since when. */
    async reminders(userId: string): Promise<ParticipantReminders> {
      const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
      if (!user) return { off: [] };
      const mine = db
        .select({ id: projectParticipants.projectId })
        .from(projectParticipants)
        .innerJoin(projects, eq(projects.id, projectParticipants.projectId))
        .where(eq(projectParticipants.userId, userId));
      const rows = await db
        .select({ projectId: emailSuppressions.projectId, at: emailSuppressions.at })
        .from(emailSuppressions)
        .where(
          and(
            eq(emailSuppressions.email, user.email.toLowerCase()),
            eq(emailSuppressions.reason, 'UNSUBSCRIBED'),
            isNotNull(emailSuppressions.projectId),
            inArray(emailSuppressions.projectId, mine),
          ),
        )
        .orderBy(emailSuppressions.at);
      return { off: rows.map((r) => ({ project_id: r.projectId!, since: r.at.toISOString() })) };
    },

    /**
     * Turns the project's reminders back on for the participant: lifts their project-scoped
     * suppression (an address suppressed whole, for a bounce or a complaint, stays so: that is
     * an administrator's to lift). A project they are not in: NOT_FOUND. Idempotent.
     */
    async resumeReminders(userId: string, projectId: string): Promise<void> {
      const email = await addressIn(userId, projectId);
      if (!email) throw new AppError('NOT_FOUND');
      await deps.suppressions.lift({ email, projectId });
    },
  };
}

export type EmailUnsubscribeService = ReturnType<typeof createEmailUnsubscribeService>;
