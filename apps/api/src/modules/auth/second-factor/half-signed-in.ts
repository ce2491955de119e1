import { and, eq, gt, isNotNull, isNull, notExists } from 'drizzle-orm';
import { isStaffUserRole } from '@pss/contract';
import type { Db } from '../../../db/client.js';
import { passkeys, secondFactorChallenges, totpFactors, users } from '../../../db/schema/index.js';
import type { HalfSignedIn } from '../../../lib/access-control.js';
import { hashRefreshToken } from '../../../lib/tokens.js';
import { isHalfSignedInToken } from './second-factor-checks.js';

/**
 * The bearer check of the enrolment routes for a member half signed in: their token names a
 * live `enroll` step of their sign-in (the password was right, their role must have a second
 * factor) and they still have none. Any other kind of step, a spent or expired one, or one of
 * a member who has a factor by now (set up with another sign-in's step, say) opens nothing.
 */
export function createHalfSignedIn(db: Db): HalfSignedIn {
  return {
    async check(token, now) {
      if (!isHalfSignedInToken(token)) return null;
      const [row] = await db
        .select({
          challengeId: secondFactorChallenges.id,
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          role: users.role,
          clientId: users.clientId,
        })
        .from(secondFactorChallenges)
        .innerJoin(users, eq(users.id, secondFactorChallenges.userId))
        .where(
          and(
            eq(secondFactorChallenges.tokenHash, hashRefreshToken(token)),
            eq(secondFactorChallenges.purpose, 'enroll'),
            isNull(secondFactorChallenges.usedAt),
            gt(secondFactorChallenges.expiresAt, now),
            notExists(
              db
                .select({ userId: totpFactors.userId })
                .from(totpFactors)
                .where(and(eq(totpFactors.userId, users.id), isNotNull(totpFactors.confirmedAt))),
            ),
            notExists(db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, users.id))),
          ),
        );
      if (!row || !isStaffUserRole(row.role)) return null;
      const { challengeId, ...account } = row;
      return { account, challengeId };
    },
  };
}
