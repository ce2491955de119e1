import { isParticipantRole, type ParticipantLoginResponse } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import type { TokenService } from '../../lib/tokens.js';
import type { UsersService } from '../users/users.service.js';
import type { AuthMail } from './auth-mail.js';
import type { AuthSessions, IssuedSession } from './auth-sessions.js';
import type { AuthSettings } from './auth-settings.js';
import type { SignInChecks } from './sign-in-checks.js';
import type { SessionsRepository } from './sessions.repository.js';

// Signed for unknown addresses, so that they cost what a known one does.
const DECOY_USER_ID = '00000000-0000-4000-8000-000000000000';

/** How participants sign in: with a password, or with their dashboard link (signed, or emailed on request). */
export function createParticipantSignIn(deps: {
  users: Pick<UsersService, 'findByEmail' | 'findById'>;
  sessions: SessionsRepository;
  tokens: TokenService;
  clock: Clock;
  settings: Pick<AuthSettings, 'publicUrl' | 'linkTtlDays'>;
  authSessions: AuthSessions;
  checks: SignInChecks;
  mail: AuthMail;
}) {
  const { users, sessions, tokens, clock, settings, authSessions, checks, mail } = deps;

  /** The `{dashboard link}` of a participant: the web app's link page with a signed token. */
  async function dashboardLink(userId: string): Promise<string> {
    const token = await tokens.signLinkToken(userId, clock.now(), settings.linkTtlDays);
    return `${settings.publicUrl}/participant/link/${token}`;
  }

  return {
    /** A participant with a password signs in; the same refusals and rate limit as staff. */
    async loginParticipant(
      email: string,
      password: string,
      address: string,
    ): Promise<IssuedSession<ParticipantLoginResponse>> {
      const user = await checks.checkPassword(email, password, address, (u) => isParticipantRole(u.role));
      return authSessions.newParticipantSession(user);
    },

    /**
     * A participant comes in through their dashboard link (signed, expiring). A link signs
     * in once: its id is recorded, and a second use is refused like a bad link.
     */
    async loginByLink(token: string): Promise<IssuedSession<ParticipantLoginResponse>> {
      const now = clock.now();
      const link = await tokens.verifyLinkToken(token, now);
      const user = link ? await users.findById(link.userId) : undefined;
      if (!link || !user || !isParticipantRole(user.role)) throw new AppError('NOT_AUTHORIZED');
      if (!(await sessions.useDashboardLink(link.linkId, user.id, now, link.expiresAt))) {
        throw new AppError('NOT_AUTHORIZED');
      }
      return authSessions.newParticipantSession(user);
    },

    dashboardLink,

    /**
     * Emails a sign-in link to a participant's address. Limited per address and per caller
     * (429). An unknown address gets the same answer after the same work (a link is signed
     * either way) and no email; the mail is sent after the answer, so SMTP's time does not
     * tell the two apart.
     */
    async sendSignInLink(email: string, address: string): Promise<void> {
      await checks.countEmailedRequest('link', email, address);
      const user = await users.findByEmail(email);
      const participant = user && isParticipantRole(user.role) ? user : undefined;
      const link = await dashboardLink(participant?.id ?? DECOY_USER_ID);
      if (!participant) return;
      mail.sendSignInLink(participant, link, settings.linkTtlDays);
    },
  };
}
