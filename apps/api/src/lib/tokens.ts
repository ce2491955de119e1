import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { UserRole } from '@pss/contract';

/** What an access token says about its bearer. */
export interface AccessClaims {
  userId: string;
  role: UserRole;
  clientId: string | null;
  /** The refresh-token family the token was issued from (the session), when known. */
  sessionId?: string | null;
}

/** A verified dashboard link: whose it is, its own id (a link works once) and its end. */
export interface LinkClaims {
  userId: string;
  linkId: string;
  expiresAt: Date;
}

const ISSUER = 'patient-simulation-platform';
const AUDIENCE = 'pss-api';

export interface TokenService {
  signAccessToken(claims: AccessClaims, now: Date): Promise<string>;
  verifyAccessToken(token: string, now: Date): Promise<AccessClaims | null>;
  /** A dashboard link's token: signs a participant in, for `ttlDays`; never an access token. */
  signLinkToken(userId: string, now: Date, ttlDays: number): Promise<string>;
  verifyLinkToken(token: string, now: Date): Promise<LinkClaims | null>;
}

/** Link tokens have their own audience, so neither kind of token passes for the other. */
const LINK_AUDIENCE = 'pss-dashboard-link';

export function createTokenService(secret: string, ttlSeconds: number): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    async signAccessToken(claims, now) {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({
        role: claims.role,
        cid: claims.clientId,
        ...(claims.sessionId ? { sid: claims.sessionId } : {}),
      })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .sign(key);
    },
    async verifyAccessToken(token, now) {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          currentDate: now,
        });
        if (typeof payload.sub !== 'string' || typeof payload.role !== 'string') return null;
        return {
          userId: payload.sub,
          role: payload.role as UserRole,
          clientId: typeof payload.cid === 'string' ? payload.cid : null,
          sessionId: typeof payload.sid === 'string' ? payload.sid : null,
        };
      } catch {
        return null;
      }
    },
    async signLinkToken(userId, now, ttlDays) {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(LINK_AUDIENCE)
        .setJti(randomUUID())
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlDays * 86_400)
        .sign(key);
    },
    async verifyLinkToken(token, now) {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: LINK_AUDIENCE,
          algorithms: ['HS256'],
          currentDate: now,
        });
        if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
        // Links signed before they carried an id are known by their user and moment of signing.
        const linkId = typeof payload.jti === 'string' ? payload.jti : `${payload.sub}:${payload.iat ?? 0}`;
        return { userId: payload.sub, linkId, expiresAt: new Date(payload.exp * 1000) };
      } catch {
        return null;
      }
    },
  };
}

/** A new opaque refresh token and the hash under which it is stored. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
