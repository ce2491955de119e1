import { randomUUID } from 'node:crypto';
import type { LoginResponse, ParticipantLoginResponse } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import { decoyPasswordHash, verifyPassword } from '../../lib/passwords.js';
import { hashRefreshToken, newRefreshToken, type TokenService } from '../../lib/tokens.js';
import type { Mailer } from '../../lib/mailer.js';
import {
  isParticipantRole,
  toCurrentUser,
  toParticipantUser,
  type UserRow,
  type UsersService,
} from '../users/users.service.js';
import type { SessionsRepository } from './sessions.repository.js';

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
  /** How long a dashboard link signs a participant in. */
  linkTtlDays: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlHours: number;
  loginMaxFailures: number;
  loginFailureWindowMinutes: number;
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

export function createAuthService(deps: {
  users: Pick<UsersService, 'findByEmail' | 'findById' | 'findFirstByRole'>;
  sessions: SessionsRepository;
  tokens: TokenService;
  clock: Clock;
  mailer: Mailer;
  settings: AuthSettings;
  log?: { error(obj: unknown, msg: string): void };
}) {
  const { users, sessions, tokens, clock, settings } = deps;

  async function startSession(user: UserRow, familyId: string) {
    const now = clock.now();
    const refresh = newRefreshToken();
    const refreshExpiresAt = new Date(now.getTime() + settings.refreshTokenTtlHours * 3600_000);
    await sessions.insert({ userId: user.id, tokenHash: refresh.hash, familyId, expiresAt: refreshExpiresAt });
    const accessToken = await tokens.signAccessToken(
      { userId: user.id, role: user.role, clientId: user.clientId },
      now,
    );
    return { accessToken, refresh, refreshExpiresAt };
  }

  async function issueSession(user: UserRow, familyId: string = randomUUID()): Promise<IssuedSession> {
    const { accessToken, refresh, refreshExpiresAt } = await startSession(user, familyId);
    return {
      body: { access_token: accessToken, expires_in: settings.accessTokenTtlSeconds, user: toCurrentUser(user) },
      refreshToken: refresh.token,
      refreshExpiresAt,
    };
  }

  async function issueParticipantSession(
    user: UserRow,
    familyId: string = randomUUID(),
  ): Promise<IssuedSession<ParticipantLoginResponse>> {
    const { accessToken, refresh, refreshExpiresAt } = await startSession(user, familyId);
    return {
      body: { access_token: accessToken, expires_in: settings.accessTokenTtlSeconds, user: toParticipantUser(user) },
      refreshToken: refresh.token,
      refreshExpiresAt,
    };
  }

  /** The user behind a live refresh token (rotated: the token is spent), of the given kind. */
  async function spendRefreshToken(refreshToken: string | undefined, kind: SessionKind) {
    if (!refreshToken) throw new AppError('NOT_AUTHORIZED');
    const now = clock.now();
    const session = await sessions.findByTokenHash(hashRefreshToken(refreshToken));
    if (!session) throw new AppError('NOT_AUTHORIZED');
    if (session.revokedAt || session.expiresAt <= now) {
      await sessions.revokeFamily(session.familyId, now);
      throw new AppError('NOT_AUTHORIZED');
    }
    // A token of the other kind of session is refused before it is spent: it stays usable where it belongs.
    const user = await users.findById(session.userId);
    const fits =
      user && (kind === 'staff' ? user.role === 'SUPERADMIN' || user.role === 'ADMIN' : isParticipantRole(user.role));
    if (!user || !fits) throw new AppError('NOT_AUTHORIZED');
    if (!(await sessions.revokeIfActive(session.id, now))) {
      await sessions.revokeFamily(session.familyId, now);
      throw new AppError('NOT_AUTHORIZED');
    }
    return { user, familyId: session.familyId };
  }

  async function refuseIfRateLimited(keys: { email: string; address: string }): Promise<void> {
    const now = clock.now();
    const since = new Date(now.getTime() - settings.loginFailureWindowMinutes * 60_000);
    const [byEmail, byAddress] = await Promise.all([
      sessions.countRecentFailures(keys.email, since),
      sessions.countRecentFailures(keys.address, since),
    ]);
    if (byEmail >= settings.loginMaxFailures || byAddress >= settings.loginMaxFailures * PER_ADDRESS_FACTOR) {
      throw new AppError('TOO_MANY_REQUESTS', {
        details: { retry_after_seconds: Math.ceil(settings.loginFailureWindowMinutes * 60) },
      });
    }
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
      const keys = { email: `email:${email.toLowerCase()}`, address: `ip:${address}` };
      await refuseIfRateLimited(keys);
      const user = await users.findByEmail(email);
      const passwordOk = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
      if (!user || !passwordOk || !user.passwordHash || !acceptedRoles[kind].includes(user.role)) {
        const now = clock.now();
        const purgeBefore = new Date(now.getTime() - settings.loginFailureWindowMinutes * 60_000);
        await sessions.recordFailures([keys.email, keys.address], now, purgeBefore);
        throw new AppError('INCORRECT_PASSWORD');
      }
      await sessions.clearFailures(keys.email);
      return issueSession(user);
    },

    /** Development only: signs in as the first superadmin without a password. */
    async loginSuperfake(): Promise<IssuedSession> {
      const user = await users.findFirstByRole('SUPERADMIN');
      if (!user) throw new AppError('USER_NOT_FOUND');
      return issueSession(user);
    },

    /**
     * Trades a refresh token for a new access token and a new refresh token. A token that
     * was already used (or revoked by logout) revokes its whole family.
     */
    async refresh(refreshToken: string | undefined): Promise<IssuedSession> {
      const { user, familyId } = await spendRefreshToken(refreshToken, 'staff');
      return issueSession(user, familyId);
    },

    async refreshParticipant(refreshToken: string | undefined): Promise<IssuedSession<ParticipantLoginResponse>> {
      const { user, familyId } = await spendRefreshToken(refreshToken, 'participant');
      return issueParticipantSession(user, familyId);
    },

    /** A participant with a password signs in; the same refusals and rate limit as staff. */
    async loginParticipant(
      email: string,
      password: string,
      address: string,
    ): Promise<IssuedSession<ParticipantLoginResponse>> {
      const keys = { email: `email:${email.toLowerCase()}`, address: `ip:${address}` };
      await refuseIfRateLimited(keys);
      const user = await users.findByEmail(email);
      const passwordOk = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
      if (!user || !passwordOk || !user.passwordHash || !isParticipantRole(user.role)) {
        const now = clock.now();
        const purgeBefore = new Date(now.getTime() - settings.loginFailureWindowMinutes * 60_000);
        await sessions.recordFailures([keys.email, keys.address], now, purgeBefore);
        throw new AppError('INCORRECT_PASSWORD');
      }
      await sessions.clearFailures(keys.email);
      return issueParticipantSession(user);
    },

    /** A participant comes in through their dashboard link (signed, expiring). */
    async loginByLink(token: string): Promise<IssuedSession<ParticipantLoginResponse>> {
      const userId = await tokens.verifyLinkToken(token, clock.now());
      const user = userId ? await users.findById(userId) : undefined;
      if (!user || !isParticipantRole(user.role)) throw new AppError('NOT_AUTHORIZED');
      return issueParticipantSession(user);
    },

    dashboardLink,

    /**
     * Emails a sign-in link to a participant's address. An unknown address gets the same
     * answer (nothing says whether an account exists), and no email.
     */
    async sendSignInLink(email: string): Promise<void> {
      const user = await users.findByEmail(email);
      if (!user || !isParticipantRole(user.role)) return;
      const link = await dashboardLink(user.id);
      // A mail failure is logged, not answered: the answer must not tell which addresses exist.
      await deps.mailer
        .send({
          to: user.email,
          subject: 'Your Patient Simulation Platform sign-in link',
          text:
            `Hello ${user.firstName},\n\nOpen your case dashboard with this link (it works for ` +
            `${settings.linkTtlDays} days):\n\n${link}\n\nIf you did not ask for it, you can ignore this email.`,
        })
        .catch((error: unknown) => deps.log?.error({ err: error }, 'sign-in link email failed'));
    },

    /** Ends the session the refresh token belongs to, on the server. */
    async logout(refreshToken: string | undefined): Promise<void> {
      if (!refreshToken) return;
      const session = await sessions.findByTokenHash(hashRefreshToken(refreshToken));
      if (session) await sessions.revokeFamily(session.familyId, clock.now());
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
