import { randomBytes } from 'node:crypto';
import { SECOND_FACTOR_CHALLENGE_SECONDS, isStaffUserRole, type UserRole } from '@pss/contract';
import { AppError } from '../../../lib/errors.js';
import type { Clock } from '../../../lib/clock.js';
import { verifyPassword } from '../../../lib/passwords.js';
import { hashRefreshToken } from '../../../lib/tokens.js';
import type { UserRow, UsersService } from '../../users/users.service.js';
import { auditActor, auditTarget } from '../../audit/audit-scope.service.js';
import type { SignInChecks } from '../sign-in-checks.js';
import type { ChallengeRow, SecondFactorRepository } from './second-factor.repository.js';
import type { SecondFactorChallengePurpose } from '../../../db/schema/index.js';
import { normalRecoveryCode, recoveryLookup } from './recovery-codes.js';
import { asAppCode, stepOfCode } from './totp.js';
import type { Passkeys } from './passkeys.js';
import type { MemberLock } from './member-lock.js';

/** What the half-signed-in state's tokens start with: told apart from access tokens before any check. */
export const HALF_SIGNED_IN_PREFIX = 'mfa_';

export function isHalfSignedInToken(token: string): boolean {
  return token.startsWith(HALF_SIGNED_IN_PREFIX);
}

/**
 * The checks every second-factor call shares: the half-signed-in state (made, found, spent),
 * a typed code (an app's or a recovery code, each accepted once), counted against the same
 * limits as passwords.
 */
export function createSecondFactorChecks(deps: {
  repository: SecondFactorRepository;
  users: Pick<UsersService, 'findById'>;
  checks: Pick<SignInChecks, 'guarded'>;
  clock: Clock;
}) {
  const { repository, users, checks, clock } = deps;

  /**
   * A staff member by id, named in the call's event as who acted and on whose account;
   * refused when they are gone or no longer staff.
   */
  async function staffMember(userId: string | null): Promise<UserRow> {
    const user = userId ? await users.findById(userId) : undefined;
    if (!user || !isStaffUserRole(user.role)) throw new AppError('MFA_SIGN_IN_EXPIRED');
    auditActor({ id: user.id, email: user.email, role: user.role, clientId: user.clientId });
    auditTarget('user', user.id);
    return user;
  }

  return {
    staffMember,

    /**
     * A new half-signed-in state (or passkey ceremony): its token, of which only a hash is kept.
     * `rows`: where it is written (a transaction's, under the member's lock).
     */
    async newChallenge(
      userId: string | null,
      purpose: SecondFactorChallengePurpose,
      webauthnChallenge: string | null = null,
      rows: SecondFactorRepository = repository,
    ): Promise<string> {
      const token = `${HALF_SIGNED_IN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const now = clock.now();
      await rows.insertChallenge({
        tokenHash: hashRefreshToken(token),
        userId,
        purpose,
        webauthnChallenge,
        now,
        expiresAt: new Date(now.getTime() + SECOND_FACTOR_CHALLENGE_SECONDS * 1000),
      });
      return token;
    },

    /** The live challenge a token names, of one of the purposes; MFA_SIGN_IN_EXPIRED otherwise. */
    async liveChallenge(token: string, purposes: readonly SecondFactorChallengePurpose[]): Promise<ChallengeRow> {
      const challenge = isHalfSignedInToken(token)
        ? await repository.liveChallenge(hashRefreshToken(token), clock.now())
        : undefined;
      if (!challenge || !purposes.includes(challenge.purpose)) throw new AppError('MFA_SIGN_IN_EXPIRED');
      return challenge;
    },

    /**
     * Runs a check of something typed or presented for a member, counted as a guess at their
     * account from the caller's address, as a password is (sign-in-checks.ts: refused from an
     * address that failed on a locked account, not from another), the count taken back when
     * the check passes.
     */
    async counted<T>(userId: string, check: () => Promise<T>): Promise<T> {
      return checks.guarded(userId, check);
    },

    spendAppCode,
    spendRecoveryCode,

    /** A code as typed at sign-in: six digits are the app's, anything else a recovery code. */
    async spendTypedCode(userId: string, typed: string): Promise<void> {
      if (asAppCode(typed)) await spendAppCode(userId, typed);
      else await spendRecoveryCode(userId, typed);
    },
  };

  /** Checks an app's code against the member's confirmed app, and spends its time step. */
  async function spendAppCode(userId: string, typed: string): Promise<void> {
    const code = asAppCode(typed);
    const totp = await repository.findTotp(userId);
    if (!code || !totp?.confirmedAt) throw new AppError('MFA_CODE_INCORRECT');
    const step = await stepOfCode(totp.secret, code, clock.now());
    if (step === null) throw new AppError('MFA_CODE_INCORRECT');
    if (!(await repository.spendStep(userId, step))) throw new AppError('MFA_CODE_USED');
  }

  /** Checks a recovery code and spends it; one used before is MFA_CODE_USED. */
  async function spendRecoveryCode(userId: string, typed: string): Promise<void> {
    const code = normalRecoveryCode(typed);
    if (!code) throw new AppError('MFA_CODE_INCORRECT');
    for (const candidate of await repository.recoveryCodes(userId, recoveryLookup(code))) {
      if (!(await verifyPassword(candidate.codeHash, code))) continue;
      if (candidate.usedAt || !(await repository.spendRecoveryCode(candidate.id, clock.now()))) {
        throw new AppError('MFA_CODE_USED');
      }
      return;
    }
    throw new AppError('MFA_CODE_INCORRECT');
  }
}

export type SecondFactorChecks = ReturnType<typeof createSecondFactorChecks>;

/** What the sign-in's second step and the enrolment are both made of. */
export interface SecondFactorDeps {
  repository: SecondFactorRepository;
  checks: SecondFactorChecks;
  /** A change of factors, and a sign-in's last step, under the member's lock (member-lock.ts). */
  lock: MemberLock;
  passkeys: Passkeys;
  clock: Clock;
  /** The roles that must have a factor (MFA_REQUIRED_ROLES). */
  requiredRoles: readonly UserRole[];
}

/** Whether a role must sign in with a second factor (MFA_REQUIRED_ROLES). */
export function factorRequired(role: UserRole, requiredRoles: readonly UserRole[]): boolean {
  return requiredRoles.includes(role);
}
