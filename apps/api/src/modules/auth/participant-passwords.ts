import { isParticipantRole } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import { verifyPassword } from '../../lib/passwords.js';
import { hashRefreshToken, newRefreshToken, type AccessClaims } from '../../lib/tokens.js';
import type { UsersService } from '../users/users.service.js';
import type { AuthMail } from './auth-mail.js';
import type { AuthSettings } from './auth-settings.js';
import type { SignInChecks } from './sign-in-checks.js';
import type { SessionsRepository } from './sessions.repository.js';
import { auditActor, auditPasswordChanged } from '../audit/audit-scope.service.js';

/** A participant's own password: changed while signed in, or set with an emailed code. */
export function createParticipantPasswords(deps: {
  users: Pick<UsersService, 'findByEmail' | 'findById' | 'setParticipantPassword'>;
  sessions: SessionsRepository;
  clock: Clock;
  settings: Pick<AuthSettings, 'publicUrl' | 'passwordCodeTtlMinutes'>;
  checks: SignInChecks;
  mail: AuthMail;
}) {
  const { users, sessions, clock, settings, checks, mail } = deps;

  return {
    /**
     * A signed-in participant sets their password. One who already has a password must give
     * it (counted against the sign-in limit of their email): a session from a dashboard
     * link does not take over an account. The participant's other sessions end.
     */
    async changeParticipantPassword(
      caller: Pick<AccessClaims, 'userId' | 'sessionId'>,
      password: string,
      currentPassword: string | undefined,
    ): Promise<void> {
      const user = await users.findById(caller.userId);
      if (!user || !isParticipantRole(user.role)) throw new AppError('USER_NOT_FOUND');
      if (user.passwordHash) {
        if (currentPassword === undefined) throw new AppError('CURRENT_PASSWORD_INCORRECT');
        const hash = user.passwordHash;
        await checks.guarded(user.id, async () => {
          if (!(await verifyPassword(hash, currentPassword))) throw new AppError('CURRENT_PASSWORD_INCORRECT');
        });
      }
      await users.setParticipantPassword(user.id, password);
      auditPasswordChanged(Boolean(user.passwordHash));
      await sessions.revokeUserSessions(user.id, clock.now(), caller.sessionId ?? null);
    },

    /**
     * Emails a participant a single-use link to set or reset their password without a
     * session (`/create-password?code=`). Limited and answered as `sendSignInLink` is: an
     * unknown address gets the same answer and no email.
     */
    async sendPasswordCode(email: string, address: string): Promise<void> {
      await checks.countEmailedRequest('password-code', email, address);
      const user = await users.findByEmail(email);
      const participant = user && isParticipantRole(user.role) ? user : undefined;
      const code = newRefreshToken();
      if (!participant) return;
      const now = clock.now();
      await sessions.insertPasswordCode(
        participant.id,
        code.hash,
        now,
        new Date(now.getTime() + settings.passwordCodeTtlMinutes * 60_000),
      );
      const link = `${settings.publicUrl}/create-password?code=${code.token}`;
      mail.sendPasswordLink(participant, link, settings.passwordCodeTtlMinutes);
    },

    /**
     * Sets a participant's password with an emailed code, without a session. The code is
     * spent first (once, before it expires); the participant's sessions end, as after any
     * password change.
     */
    async setPasswordWithCode(code: string, password: string): Promise<void> {
      const userId = await sessions.spendPasswordCode(hashRefreshToken(code), clock.now());
      if (!userId) throw new AppError('PASSWORD_CODE_INVALID');
      const user = await users.findById(userId);
      if (!user || !isParticipantRole(user.role)) throw new AppError('PASSWORD_CODE_INVALID');
      // Who held the code acted as the participant it was sent to.
      auditActor({ id: user.id, email: user.email, role: user.role, clientId: user.clientId });
      await users.setParticipantPassword(user.id, password);
      auditPasswordChanged(Boolean(user.passwordHash));
      await sessions.revokeUserSessions(user.id, clock.now(), null);
    },
  };
}
