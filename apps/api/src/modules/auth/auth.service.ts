import { randomUUID } from 'node:crypto';
import { isParticipantRole, type LoginResponse, type ParticipantLoginResponse } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import { decoyPasswordHash, verifyPassword } from '../../lib/passwords.js';
import { hashRefreshToken, newRefreshToken, type AccessClaims, type TokenService } from '../../lib/tokens.js';
import type { Mailer, MailMessage } from '../../lib/mailer.js';
import { toCurrentUser, toParticipantUser, type UserRow, type UsersService } from '../users/users.service.js';
import type { CountedKey, SessionsRepository } from './sessions.repository.js';

/** Which staff accounts a sign-in call accepts. */
export type StaffLoginKind = 'superadmin' | 'admin' | 'staff';

const acceptedRoles: Record<StaffLoginKind, readonly UserRow['role'][]> = {
  superadmin: ['SUPERADMIN'],
  admin: ['ADMIN'],
  staff: ['SUPERADMIN', 'ADMIN'],
};

export interface AuthSettings {
  /** Where the web app is reached: dashboard links point there. */
  publicUrl: string;
  /** How long a dashboard link stays usable (it signs in once). */
  linkTtlDays: number;
  /** How long an emailed code to set a password stays usable (it works once). */
  passwordCodeTtlMinutes: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlHours: number;
  loginMaxFailures: number;
  loginFailureWindowMinutes: number;
  /** false: client administrators sign in only through their organisation's identity provider. */
  adminPasswordLogin: boolean;
}

/** A signed-in session: the answer body and the refresh token for the cookie. */
export interface IssuedSession<Body = LoginResponse> {
  body: Body;
  refreshToken: string;
  refreshExpiresAt: Date;
}

/** Staff and participants have separate sessions: a refresh of one kind never yields the other. */
export type SessionKind = 'staff' | 'participant';

// Guessing from one address across many emails is allowed more tries than on one email.
const PER_ADDRESS_FACTOR = 5;
/** Sign-in link emails to one address within the failure window. */
export const LINK_REQUESTS_PER_EMAIL = 3;
/**
 * A refresh token presented again this soon after its rotation, while its successor is
 * still live, continues the family instead of revoking it: two tabs refreshing at once.
 */
export const REFRESH_GRACE_SECONDS = 20;
// Signed for unknown addresses, so that they cost what a known one does.
const DECOY_USER_ID = '00000000-0000-4000-8000-000000000000';

export function createAuthService(deps: {
  users: Pick<UsersService, 'findByEmail' | 'findById' | 'findFirstByRole' | 'setParticipantPassword'>;
  sessions: SessionsRepository;
  tokens: TokenService;
  clock: Clock;
  mailer: Mailer;
  settings: AuthSettings;
  log?: { error(obj: unknown, msg: string): void };
}) {
  const { users, sessions, tokens, clock, settings } = deps;
  /** Mail being sent after its request was answered; `settle` waits for it. */
  const pendingMail = new Set<Promise<void>>();

  function sendLater(message: MailMessage, what: string): void {
    // A mail failure is logged, not answered: the answer must not tell which addresses exist.
    const sending: Promise<void> = deps.mailer
      .send(message)
      .catch((error: unknown) => deps.log?.error({ err: error }, `${what} email failed`))
      .finally(() => pendingMail.delete(sending));
    pendingMail.add(sending);
  }

  function nextRefresh(user: UserRow, familyId: string) {
    const refresh = newRefreshToken();
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + settings.refreshTokenTtlHours * 3600_000);
    // Stamped by the injected clock, like every time: the usage report shows when people signed in.
    return { refresh, row: { userId: user.id, tokenHash: refresh.hash, familyId, expiresAt, createdAt: now } };
  }

  async function sessionFor<U>(
    user: UserRow,
    next: ReturnType<typeof nextRefresh>,
    toUser: (user: UserRow) => U,
  ): Promise<IssuedSession<{ access_token: string; expires_in: number; user: U }>> {
    const accessToken = await tokens.signAccessToken(
      { userId: user.id, role: user.role, clientId: user.clientId, sessionId: next.row.familyId },
      clock.now(),
    );
    return {
      body: { access_token: accessToken, expires_in: settings.accessTokenTtlSeconds, user: toUser(user) },
      refreshToken: next.refresh.token,
      refreshExpiresAt: next.row.expiresAt,
    };
  }

  async function newSession(user: UserRow): Promise<IssuedSession> {
    const next = nextRefresh(user, randomUUID());
    await sessions.insert(next.row);
    return sessionFor(user, next, toCurrentUser);
  }

  async function newParticipantSession(user: UserRow): Promise<IssuedSession<ParticipantLoginResponse>> {
    const next = nextRefresh(user, randomUUID());
    await sessions.insert(next.row);
    return sessionFor(user, next, toParticipantUser);
  }

  /**
   * Spends a refresh token of the given kind and stores its successor. A token presented
   * again (used, or revoked) revokes its family — unless it was rotated less than
   * REFRESH_GRACE_SECONDS ago and its successor is still live, when the family goes on
   * with one more token (two tabs refreshing with the same cookie).
   */
  async function spendRefreshToken(refreshToken: string | undefined, kind: SessionKind) {
    if (!refreshToken) throw new AppError('NOT_AUTHORIZED');
    const now = clock.now();
    const session = await sessions.findByTokenHash(hashRefreshToken(refreshToken));
    if (!session) throw new AppError('NOT_AUTHORIZED');
    if (session.expiresAt <= now) {
      await sessions.revokeFamily(session.familyId, now);
      throw new AppError('NOT_AUTHORIZED');
    }
    // A token of the other kind of session is refused before it is spent: it stays usable where it belongs.
    const user = await users.findById(session.userId);
    const fits =
      user && (kind === 'staff' ? user.role === 'SUPERADMIN' || user.role === 'ADMIN' : isParticipantRole(user.role));
    if (!user || !fits) throw new AppError('NOT_AUTHORIZED');
    const next = nextRefresh(user, session.familyId);
    if (!session.revokedAt && (await sessions.rotate(session.id, next.row, now))) return { user, next };
    const graceSince = new Date(now.getTime() - REFRESH_GRACE_SECONDS * 1000);
    if (await sessions.continueWithinGrace(session.id, next.row, graceSince, now)) return { user, next };
    await sessions.revokeFamily(session.familyId, now);
    throw new AppError('NOT_AUTHORIZED');
  }

  const failureWindowStart = () => new Date(clock.now().getTime() - settings.loginFailureWindowMinutes * 60_000);

  /**
   * Counts an attempt before it is judged (see `countAttempt`): 429 once a key is at its
   * limit. Answers the entries to take back if the attempt turns out right.
   */
  async function countAttempt(keys: CountedKey[]): Promise<number[]> {
    const counted = await sessions.countAttempt(keys, clock.now(), failureWindowStart());
    if (!counted) {
      throw new AppError('TOO_MANY_REQUESTS', {
        details: { retry_after_seconds: Math.ceil(settings.loginFailureWindowMinutes * 60) },
      });
    }
    return counted;
  }

  const emailKey = (email: string): CountedKey => ({
    key: `email:${email.toLowerCase()}`,
    limit: settings.loginMaxFailures,
  });
  const signInKeys = (email: string, address: string): CountedKey[] => [
    emailKey(email),
    { key: `ip:${address}`, limit: settings.loginMaxFailures * PER_ADDRESS_FACTOR },
  ];

  /**
   * The password check of both sign-ins: counted first, so parallel guesses cannot all
   * pass the limit; a wrong password, an unknown email and an account of the wrong kind
   * get the same INCORRECT_PASSWORD after the same work, and their count stays.
   */
  async function checkPassword(
    email: string,
    password: string,
    address: string,
    accepts: (user: UserRow) => boolean,
  ): Promise<UserRow> {
    const counted = await countAttempt(signInKeys(email, address));
    const user = await users.findByEmail(email);
    const passwordOk = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
    if (!user || !passwordOk || !user.passwordHash || !accepts(user)) throw new AppError('INCORRECT_PASSWORD');
    await sessions.uncountAttempt(counted);
    await sessions.clearFailures(emailKey(email).key);
    return user;
  }

  /** The `{dashboard link}` of a participant: the web app's link page with a signed token. */
  async function dashboardLink(userId: string): Promise<string> {
    const token = await tokens.signLinkToken(userId, clock.now(), settings.linkTtlDays);
    return `${settings.publicUrl}/participant/link/${token}`;
  }

  return {
    /**
     * Signs a staff member in. A wrong password, an unknown email and an account of
     * another kind all get the same INCORRECT_PASSWORD, after the same amount of work.
     */
    async login(kind: StaffLoginKind, email: string, password: string, address: string): Promise<IssuedSession> {
      // The client administrators' call is closed to everyone alike; the staff call says so
      // only after the right password, so that it tells no stranger which accounts are administrators.
      if (kind === 'admin' && !settings.adminPasswordLogin) throw new AppError('PASSWORD_LOGIN_DISABLED');
      const user = await checkPassword(email, password, address, (u) => acceptedRoles[kind].includes(u.role));
      if (user.role === 'ADMIN' && !settings.adminPasswordLogin) throw new AppError('PASSWORD_LOGIN_DISABLED');
      return newSession(user);
    },

    /**
     * Signs in a staff member whom the identity provider vouched for (modules/auth/oidc):
     * the same session as a password sign-in gives.
     */
    async loginVouched(user: UserRow): Promise<IssuedSession> {
      if (user.role !== 'SUPERADMIN' && user.role !== 'ADMIN') throw new AppError('NOT_AUTHORIZED');
      return newSession(user);
    },

    /** Development only: signs in as the first superadmin without a password. */
    async loginSuperfake(): Promise<IssuedSession> {
      const user = await users.findFirstByRole('SUPERADMIN');
      if (!user) throw new AppError('USER_NOT_FOUND');
      return newSession(user);
    },

    /** Trades a refresh token for a new access token and a new refresh token (see spendRefreshToken). */
    async refresh(refreshToken: string | undefined): Promise<IssuedSession> {
      const { user, next } = await spendRefreshToken(refreshToken, 'staff');
      return sessionFor(user, next, toCurrentUser);
    },

    async refreshParticipant(refreshToken: string | undefined): Promise<IssuedSession<ParticipantLoginResponse>> {
      const { user, next } = await spendRefreshToken(refreshToken, 'participant');
      return sessionFor(user, next, toParticipantUser);
    },

    /** A participant with a password signs in; the same refusals and rate limit as staff. */
    async loginParticipant(
      email: string,
      password: string,
      address: string,
    ): Promise<IssuedSession<ParticipantLoginResponse>> {
      const user = await checkPassword(email, password, address, (u) => isParticipantRole(u.role));
      return newParticipantSession(user);
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
      return newParticipantSession(user);
    },

    dashboardLink,

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
        const counted = await countAttempt([emailKey(user.email)]);
        if (!(await verifyPassword(user.passwordHash, currentPassword))) {
          throw new AppError('CURRENT_PASSWORD_INCORRECT');
        }
        await sessions.uncountAttempt(counted);
      }
      await users.setParticipantPassword(user.id, password);
      await sessions.revokeUserSessions(user.id, clock.now(), caller.sessionId ?? null);
    },

    /**
     * After a password or email change made for a user: their sessions end, except the
     * caller's own when they changed their own account.
     */
    async endOtherSessions(userId: string, keepSessionId: string | null): Promise<void> {
      await sessions.revokeUserSessions(userId, clock.now(), keepSessionId);
    },

    /** Tells the old address that an account's email changed (sent after the answer). */
    notifyEmailChanged(user: { firstName: string }, oldEmail: string, newEmail: string): void {
      sendLater(
        {
          to: oldEmail,
          subject: 'Your Patient Simulation Platform email address was changed',
          text:
            `Hello ${user.firstName},\n\nThe email address of your Patient Simulation Platform account was changed ` +
            `from ${oldEmail} to ${newEmail}, and its sessions were ended.\n\nIf you did not expect this, ` +
            `please contact your programme administrator.`,
        },
        'email change notice',
      );
    },

    /**
     * Emails a sign-in link to a participant's address. Limited per address and per caller
     * (429). An unknown address gets the same answer after the same work (a link is signed
     * either way) and no email; the mail is sent after the answer, so SMTP's time does not
     * tell the two apart.
     */
    async sendSignInLink(email: string, address: string): Promise<void> {
      await countAttempt([
        { key: `link:email:${email.toLowerCase()}`, limit: LINK_REQUESTS_PER_EMAIL },
        { key: `link:ip:${address}`, limit: settings.loginMaxFailures * PER_ADDRESS_FACTOR },
      ]);
      const user = await users.findByEmail(email);
      const participant = user && isParticipantRole(user.role) ? user : undefined;
      const link = await dashboardLink(participant?.id ?? DECOY_USER_ID);
      if (!participant) return;
      sendLater(
        {
          to: participant.email,
          subject: 'Your Patient Simulation Platform sign-in link',
          text:
            `Hello ${participant.firstName},\n\nOpen your case dashboard with this link. It signs you in once, ` +
            `within ${settings.linkTtlDays} days:\n\n${link}\n\nIf you did not ask for it, you can ignore this email.`,
        },
        'sign-in link',
      );
    },

    /**
     * Emails a participant a single-use link to set or reset their password without a
     * session (`/create-password?code=`). Limited and answered as `sendSignInLink` is: an
     * unknown address gets the same answer and no email.
     */
    async sendPasswordCode(email: string, address: string): Promise<void> {
      await countAttempt([
        { key: `password-code:email:${email.toLowerCase()}`, limit: LINK_REQUESTS_PER_EMAIL },
        { key: `password-code:ip:${address}`, limit: settings.loginMaxFailures * PER_ADDRESS_FACTOR },
      ]);
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
      sendLater(
        {
          to: participant.email,
          subject: 'Set your Patient Simulation Platform password',
          text:
            `Hello ${participant.firstName},\n\nSet a new password for your Patient Simulation Platform account with ` +
            `this link. It works once, within ${settings.passwordCodeTtlMinutes} minutes:\n\n${link}\n\n` +
            `If you did not ask for it, you can ignore this email: your password stays as it is.`,
        },
        'password link',
      );
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
      await users.setParticipantPassword(user.id, password);
      await sessions.revokeUserSessions(user.id, clock.now(), null);
    },

    /** Waits for the mail still being sent (the app waits for it when it closes). */
    async settle(): Promise<void> {
      while (pendingMail.size > 0) await Promise.allSettled([...pendingMail]);
    },

    /** Ends the refresh token's session and the caller's (the same, unless no cookie came): its access token too. */
    async logout(refreshToken: string | undefined, callerSessionId: string | null | undefined): Promise<void> {
      const now = clock.now();
      if (callerSessionId) await sessions.revokeFamily(callerSessionId, now);
      if (!refreshToken) return;
      const session = await sessions.findByTokenHash(hashRefreshToken(refreshToken));
      if (session && session.familyId !== callerSessionId) await sessions.revokeFamily(session.familyId, now);
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
