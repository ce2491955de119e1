import type { LoginResponse, SecondFactorChallenge, SecondFactorEnrolmentRequired } from '@pss/contract';
import { AppError } from '../../../lib/errors.js';
import type { UserRow } from '../../users/users.service.js';
import type { IssuedSession } from '../auth-sessions.js';
import { factorRequired, type SecondFactorDeps } from './second-factor-checks.js';
import type { ChallengeRow, SecondFactorRepository } from './second-factor.repository.js';

/** Where a staff member stands once their password was right: signed in, or one step from it. */
export type StaffSignInStep =
  { session: IssuedSession } | { halfway: SecondFactorChallenge | SecondFactorEnrolmentRequired };

/**
 * The sign-in's second step: a member with a factor gives it (an app's code, a recovery code,
 * a passkey) with the token of their first step; a passkey alone signs in too.
 */
export function createSecondFactorSignIn(
  deps: SecondFactorDeps & {
    /** false: client administrators sign in only through their organisation's provider (ADMIN_PASSWORD_LOGIN). */
    adminPasswordLogin: boolean;
  },
) {
  const { repository, checks, lock, passkeys, clock, requiredRoles } = deps;

  /**
   * The sign-in's last step, under the member's lock: its step is spent (once: a second use,
   * a late one, or one a change of factors ended is refused) and the session made. `alsoThere`:
   * what must still stand in the same transaction.
   */
  function completeSignIn(
    user: UserRow,
    challenge: ChallengeRow,
    alsoThere: (rows: SecondFactorRepository) => Promise<void> = async () => {},
  ): Promise<IssuedSession<LoginResponse>> {
    return lock.underLock(user.id, async ({ repository: rows, sessions }) => {
      if (!(await rows.spendChallenge(challenge.id, clock.now()))) throw new AppError('MFA_SIGN_IN_EXPIRED');
      await alsoThere(rows);
      return sessions.newSession(user);
    });
  }

  return {
    /**
     * After the password: a member with a factor is asked for it; one whose role must have a
     * factor and has none is taken to enrolment; anyone else is signed in. Under the member's
     * lock, so a factor added meanwhile is asked for, or ends the session this makes.
     */
    async afterPassword(user: UserRow): Promise<StaffSignInStep> {
      return lock.underLock(user.id, async ({ repository: rows, sessions }) => {
        const factors = await rows.factorsOf(user.id);
        if (factors.totp || factors.passkeys > 0) {
          const methods: SecondFactorChallenge['methods'] = [];
          if (factors.totp) methods.push('totp');
          if (factors.passkeys > 0) methods.push('webauthn');
          if (factors.recoveryCodes > 0) methods.push('recovery');
          const token = await checks.newChallenge(user.id, 'verify', null, rows);
          return { halfway: { mfa_required: true, mfa_token: token, methods } };
        }
        if (factorRequired(user.role, requiredRoles)) {
          const token = await checks.newChallenge(user.id, 'enroll', null, rows);
          return { halfway: { mfa_enrollment_required: true, mfa_token: token } };
        }
        return { session: await sessions.newSession(user) };
      });
    },

    /** The second step with a typed code: the app's (once a time step) or a recovery code (once). */
    async verifyCode(token: string, code: string): Promise<IssuedSession<LoginResponse>> {
      const challenge = await checks.liveChallenge(token, ['verify']);
      const user = await checks.staffMember(challenge.userId);
      await checks.counted(user.id, () => checks.spendTypedCode(user.id, code));
      return completeSignIn(user, challenge);
    },

    /**
     * Begins a passkey sign-in: as the second step (the token of the first; the member's own
     * passkeys are asked for), or alone (any passkey of this site; a new token names the ceremony).
     */
    async passkeyOptions(token: string | undefined) {
      if (!token) {
        const options = await passkeys.authenticationOptions(null);
        return { options, mfa_token: await checks.newChallenge(null, 'passkey', options.challenge) };
      }
      const challenge = await checks.liveChallenge(token, ['verify']);
      const keys = await repository.listPasskeys(challenge.userId ?? '');
      if (keys.length === 0) throw new AppError('PASSKEY_NOT_VERIFIED');
      const options = await passkeys.authenticationOptions(keys);
      await repository.setWebauthnChallenge(challenge.id, options.challenge);
      return { options, mfa_token: token };
    },

    /** Completes a passkey sign-in begun by `passkeyOptions`. */
    async passkeySignIn(token: string, response: Record<string, unknown>): Promise<IssuedSession<LoginResponse>> {
      const challenge = await checks.liveChallenge(token, ['verify', 'passkey']);
      if (!challenge.webauthnChallenge) throw new AppError('MFA_SIGN_IN_EXPIRED');
      const credentialId = typeof response.id === 'string' ? response.id : '';
      const key = credentialId ? await repository.findPasskey(credentialId) : undefined;
      // As the second step, only the member's own passkey completes their sign-in.
      if (!key || (challenge.userId && key.userId !== challenge.userId)) throw new AppError('PASSKEY_NOT_VERIFIED');
      const user = await checks.staffMember(key.userId);
      // A passkey alone stands in for the password: where administrators may not use one, nor this.
      if (challenge.purpose === 'passkey' && user.role === 'ADMIN' && !deps.adminPasswordLogin) {
        throw new AppError('PASSWORD_LOGIN_DISABLED');
      }
      const counter = await checks.counted(user.id, () =>
        passkeys.verifyAuthentication(response, challenge.webauthnChallenge!, key),
      );
      // A passkey removed meanwhile (or the member's factors reset) signs no one in.
      return completeSignIn(user, challenge, async (rows) => {
        if (!(await rows.passkeyUsed(key.id, counter, clock.now()))) throw new AppError('PASSKEY_NOT_VERIFIED');
      });
    },
  };
}

export type SecondFactorSignIn = ReturnType<typeof createSecondFactorSignIn>;
