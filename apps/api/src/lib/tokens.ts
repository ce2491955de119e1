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

/** Access tokens remembered once verified; past this many the oldest is forgotten. */
const VERIFIED_TOKENS = 10_000;

export function createTokenService(secret: string, ttlSeconds: number): TokenService {
  const key = new TextEncoder().encode(secret);
  /**
   * Access tokens whose signature and claims were checked, with their time limits. Checking
   * the HMAC through WebCrypto took about 0.4 ms of the event loop a call (a fifth of an
   * answer's time when participants answer at once), for the same token each time; a token
   * found here only has its time limits checked again, against the given `now`, exactly as
   * `jwtVerify` would (no leeway). Only tokens that verified are kept, so the map never
   * holds a forged one, and it is bounded.
   */
  const verified = new Map<string, { claims: AccessClaims; exp?: number; nbf?: number }>();
  const withinLimits = (entry: { exp?: number; nbf?: number }, now: Date) => {
    const seconds = Math.floor(now.getTime() / 1000);
    return (entry.exp === undefined || entry.exp > seconds) && (entry.nbf === undefined || entry.nbf <= seconds);
  };
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
      const known = verified.get(token);
      if (known) return withinLimits(known, now) ? { ...known.claims } : null;
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          currentDate: now,
        });
        if (typeof payload.sub !== 'string' || typeof payload.role !== 'string') return null;
        const claims: AccessClaims = {
          userId: payload.sub,
          role: payload.role as UserRole,
          clientId: typeof payload.cid === 'string' ? payload.cid : null,
          sessionId: typeof payload.sid === 'string' ? payload.sid : null,
        };
        verified.set(token, { claims, exp: payload.exp, nbf: payload.nbf });
        if (verified.size > VERIFIED_TOKENS) verified.delete(verified.keys().next().value!);
        return claims;
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
