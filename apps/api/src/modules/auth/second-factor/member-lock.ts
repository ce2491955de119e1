import type { Executor } from '../../../db/client.js';
import type { Clock } from '../../../lib/clock.js';
import { AppError } from '../../../lib/errors.js';
import type { UserRow } from '../../users/users.service.js';
import type { AuthSessions, IssuedSession } from '../auth-sessions.js';
import { createSecondFactorRepository, type SecondFactorRepository } from './second-factor.repository.js';

/** What runs under a member's lock: their factors' rows and their sessions, in one transaction. */
export interface MemberScope {
  repository: SecondFactorRepository;
  sessions: Pick<AuthSessions, 'newSession' | 'endOtherSessions'>;
}

/** A change of a member's factors: whose, which session stays, and the enrolment it completes. */
export interface FactorChange {
  user: UserRow;
  /** The caller's own session, which the change leaves (a signed-in member's); null: every session ends. */
  keepSessionId: string | null;
  /** The half-signed-in `enroll` step the change completes (spent, and a session made), or null. */
  completesStep: string | null;
}

/**
 * A member's factors and the sign-ins they vouch for change under one lock: a change of
 * factors (added, removed, reset) and the last step of a sign-in (the session made) each run
 * in one transaction holding it, so a sign-in either finishes before a change, whose endings
 * then take its session, or after it, against the factors the change left. Nothing under the
 * lock may use a handle outside its transaction (PGlite has one connection: it would wait on
 * itself).
 */
export function createMemberLock(deps: {
  db: Executor;
  /** The sessions, written in the given transaction. */
  sessionsIn: (executor: Executor) => MemberScope['sessions'];
  clock: Clock;
}) {
  async function underLock<T>(userId: string, work: (scope: MemberScope) => Promise<T>): Promise<T> {
    return deps.db.transaction(async (tx) => {
      const repository = createSecondFactorRepository(tx);
      await repository.lockMember(userId);
      return work({ repository, sessions: deps.sessionsIn(tx) });
    });
  }

  return {
    underLock,

    /**
     * Changes a member's factors (`work`, given the rows in the change's transaction) and ends
     * what their old factors vouched for: every half-signed-in step of theirs (a token kept from
     * before opens nothing against the new factors) and every session but the caller's own.
     * An enrolment's step is spent first, and only while the member still has no factor at
     * all; its session is made after the others have ended.
     */
    async changeFactors<T>(
      change: FactorChange,
      work: (repository: SecondFactorRepository) => Promise<T>,
    ): Promise<{ result: T; session: IssuedSession | null }> {
      const { user, completesStep } = change;
      return underLock(user.id, async ({ repository, sessions }) => {
        const now = deps.clock.now();
        if (completesStep) {
          const step = await repository.challengeById(completesStep);
          const factors = await repository.factorsOf(user.id);
          const open = step?.purpose === 'enroll' && step.userId === user.id && !factors.totp && factors.passkeys === 0;
          if (!open || !(await repository.spendChallenge(step.id, now))) throw new AppError('MFA_SIGN_IN_EXPIRED');
        }
        const result = await work(repository);
        await repository.endHalfSignedIn(user.id, now);
        await sessions.endOtherSessions(user.id, change.keepSessionId);
        return { result, session: completesStep ? await sessions.newSession(user) : null };
      });
    },
  };
}

export type MemberLock = ReturnType<typeof createMemberLock>;
