import { unlockPagePath } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import { currentRequestId } from '../../lib/request-context.js';
import { hashRefreshToken, newRefreshToken } from '../../lib/tokens.js';
import { auditActor, auditChanges, auditTarget } from '../audit/audit-scope.service.js';
import type { SystemRecorder } from '../audit/call-recorder.service.js';
import type { UserRow, UsersService } from '../users/users.service.js';
import type { AccountLocksRepository } from './account-locks.repository.js';
import type { AuthMail } from './auth-mail.js';
import type { AuthSettings } from './auth-settings.js';

/** How long an emailed unlock link works (once). */
export const UNLOCK_LINK_TTL_HOURS = 24;

/**
 * Locked accounts (sign-in-checks.ts says when one is): its owner is mailed a single-use link
 * that unlocks it, and each lock and unlock is an event of the audit trail (`auth.accountLocked`,
 * written by the app as it locks; `auth.unlock`, the link's call).
 */
export function createAccountLocks(deps: {
  /** On the services' handle: a lock is written in its event's transaction. */
  repository: AccountLocksRepository;
  users: Pick<UsersService, 'findById'>;
  /** Ends the lock: the account's failures are cleared (sign-in-checks.ts). */
  clearFailures: (email: string) => Promise<void>;
  clock: Clock;
  settings: Pick<AuthSettings, 'publicUrl' | 'loginFailureWindowMinutes'>;
  mail: AuthMail;
  /** Records the lock as the app's own event (absent: not recorded, as in a test without the trail). */
  audit?: SystemRecorder;
}) {
  const { repository, clock, settings, mail } = deps;

  return {
    /**
     * The account reached its limit of failures: its owner is mailed an unlock link, and the
     * lock is recorded — once while a link mailed within the failure window stands unspent, so
     * that a guesser going on does not fill the owner's mailbox.
     */
    async lock(user: UserRow, address: string): Promise<void> {
      const link = newRefreshToken();
      const now = clock.now();
      const values = {
        userId: user.id,
        tokenHash: link.hash,
        at: now,
        expiresAt: new Date(now.getTime() + UNLOCK_LINK_TTL_HOURS * 3_600_000),
        mailedSince: new Date(now.getTime() - settings.loginFailureWindowMinutes * 60_000),
      };
      const made = deps.audit
        ? await deps.audit.system(
            'auth.accountLocked',
            () => repository.lock(values),
            (locked) =>
              locked
                ? {
                    target: { type: 'user', id: user.id },
                    clientId: user.clientId,
                    requestId: currentRequestId() ?? null,
                    ip: address,
                    changes: { locked: { before: false, after: true } },
                    outcome: 'success',
                  }
                : null,
          )
        : await repository.lock(values);
      if (made) mail.sendUnlockLink(user, `${settings.publicUrl}${unlockPagePath(link.token)}`, UNLOCK_LINK_TTL_HOURS);
    },

    /**
     * Unlocks an account with its emailed link (once, before it expires): the account's
     * failures are cleared, so its owner signs in as before from any address that has not
     * reached the address's own limit. Recorded as the owner's call.
     */
    async unlock(token: string): Promise<void> {
      const userId = await repository.spend(hashRefreshToken(token), clock.now());
      const user = userId ? await deps.users.findById(userId) : undefined;
      if (!user) throw new AppError('UNLOCK_LINK_INVALID');
      // Who held the link acted as the owner it was sent to.
      auditActor({ id: user.id, email: user.email, role: user.role, clientId: user.clientId });
      auditTarget('user', user.id);
      auditChanges({ locked: true }, { locked: false });
      await deps.clearFailures(user.email);
    },
  };
}

export type AccountLocks = ReturnType<typeof createAccountLocks>;
