import { randomUUID } from 'node:crypto';
import type { LoginResponse } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import { decoyPasswordHash, verifyPassword } from '../../lib/passwords.js';
import { hashRefreshToken, newRefreshToken, type TokenService } from '../../lib/tokens.js';
import { toCurrentUser, type UserRow, type UsersService } from '../users/users.service.js';
import type { SessionsRepository } from './sessions.repository.js';

/** Which staff accounts a sign-in call accepts. */
export type StaffLoginKind = 'superadmin' | 'admin' | 'staff';

const acceptedRoles: Record<StaffLoginKind, readonly UserRow['role'][]> = {
  superadmin: ['SUPERADMIN'],
  admin: ['ADMIN'],
  staff: ['SUPERADMIN', 'ADMIN'],
};

export interface AuthSettings {
  accessTokenTtlSeconds: number;
  refreshTokenTtlHours: number;
  loginMaxFailures: number;
  loginFailureWindowMinutes: number;
}

/** A signed-in session: the answer body and the refresh token for the cookie. */
export interface IssuedSession {
  body: LoginResponse;
  refreshToken: string;
  refreshExpiresAt: Date;
}

// Guessing from one address across many emails is allowed more tries than on one email.
const PER_ADDRESS_FACTOR = 5;

export function createAuthService(deps: {
  users: Pick<UsersService, 'findByEmail' | 'findById' | 'findFirstByRole'>;
  sessions: SessionsRepository;
  tokens: TokenService;
  clock: Clock;
  settings: AuthSettings;
}) {
  const { users, sessions, tokens, clock, settings } = deps;

  async function issueSession(user: UserRow, familyId: string = randomUUID()): Promise<IssuedSession> {
    const now = clock.now();
    const refresh = newRefreshToken();
    const refreshExpiresAt = new Date(now.getTime() + settings.refreshTokenTtlHours * 3600_000);
    await sessions.insert({ userId: user.id, tokenHash: refresh.hash, familyId, expiresAt: refreshExpiresAt });
    const accessToken = await tokens.signAccessToken(
      { userId: user.id, role: user.role, clientId: user.clientId },
      now,
    );
    return {
      body: { access_token: accessToken, expires_in: settings.accessTokenTtlSeconds, user: toCurrentUser(user) },
      refreshToken: refresh.token,
      refreshExpiresAt,
    };
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
      if (!refreshToken) throw new AppError('NOT_AUTHORIZED');
      const now = clock.now();
      const session = await sessions.findByTokenHash(hashRefreshToken(refreshToken));
      if (!session) throw new AppError('NOT_AUTHORIZED');
      if (session.revokedAt || session.expiresAt <= now) {
        await sessions.revokeFamily(session.familyId, now);
        throw new AppError('NOT_AUTHORIZED');
      }
      if (!(await sessions.revokeIfActive(session.id, now))) {
        await sessions.revokeFamily(session.familyId, now);
        throw new AppError('NOT_AUTHORIZED');
      }
      const user = await users.findById(session.userId);
      if (!user || (user.role !== 'SUPERADMIN' && user.role !== 'ADMIN')) throw new AppError('NOT_AUTHORIZED');
      return issueSession(user, session.familyId);
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
