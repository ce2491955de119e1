import { randomUUID } from 'node:crypto';
import { isParticipantRole, isStaffUserRole, type LoginResponse, type ParticipantLoginResponse } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import { hashRefreshToken, newRefreshToken, type TokenService } from '../../lib/tokens.js';
import { toCurrentUser, toParticipantUser, type UserRow, type UsersService } from '../users/users.service.js';
import type { AuthSettings } from './auth-settings.js';
import type { SessionsRepository } from './sessions.repository.js';

/** A signed-in session: the answer body and the refresh token for the cookie. */
export interface IssuedSession<Body = LoginResponse> {
  body: Body;
  refreshToken: string;
  /**
   * How long the refresh cookie lives, by the app's clock: the browser's own clock may not be
   * it (a test's, a simulation's), so the cookie is told an age, worked out here, not an end.
   */
  refreshMaxAgeSeconds: number;
}

/** Staff and participants have separate sessions: a refresh of one kind never yields the other. */
export type SessionKind = 'staff' | 'participant';

/**
 * A refresh token presented again this soon after its rotation, while its successor is
 * still live, continues the family instead of revoking it: two tabs refreshing at once.
 */
export const REFRESH_GRACE_SECONDS = 20;

/** Sessions from sign-in to sign-out: issuing them, rotating their refresh tokens, ending them. */
export function createAuthSessions(deps: {
  users: Pick<UsersService, 'findById'>;
  sessions: SessionsRepository;
  tokens: TokenService;
  clock: Clock;
  settings: Pick<AuthSettings, 'accessTokenTtlSeconds' | 'refreshTokenTtlHours'>;
}) {
  const { users, sessions, tokens, clock, settings } = deps;

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
      refreshMaxAgeSeconds: Math.max(
        1,
        Math.floor((next.row.expiresAt.getTime() - next.row.createdAt.getTime()) / 1000),
      ),
    };
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
    const fits = user && (kind === 'staff' ? isStaffUserRole(user.role) : isParticipantRole(user.role));
    if (!user || !fits) throw new AppError('NOT_AUTHORIZED');
    const next = nextRefresh(user, session.familyId);
    if (!session.revokedAt && (await sessions.rotate(session.id, next.row, now))) return { user, next };
    const graceSince = new Date(now.getTime() - REFRESH_GRACE_SECONDS * 1000);
    if (await sessions.continueWithinGrace(session.id, next.row, graceSince, now)) return { user, next };
    await sessions.revokeFamily(session.familyId, now);
    throw new AppError('NOT_AUTHORIZED');
  }

  return {
    async newSession(user: UserRow): Promise<IssuedSession> {
      const next = nextRefresh(user, randomUUID());
      await sessions.insert(next.row);
      return sessionFor(user, next, toCurrentUser);
    },

    async newParticipantSession(user: UserRow): Promise<IssuedSession<ParticipantLoginResponse>> {
      const next = nextRefresh(user, randomUUID());
      await sessions.insert(next.row);
      return sessionFor(user, next, toParticipantUser);
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

    /**
     * After a password or email change made for a user: their sessions end, except the
     * caller's own when they changed their own account.
     */
    async endOtherSessions(userId: string, keepSessionId: string | null): Promise<void> {
      await sessions.revokeUserSessions(userId, clock.now(), keepSessionId);
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

export type AuthSessions = ReturnType<typeof createAuthSessions>;
