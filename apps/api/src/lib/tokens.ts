import { createHash, randomBytes, randomUUID, webcrypto } from 'node:crypto';
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

/** A verified access token's claims and the times jose checked (seconds since the epoch). */
interface VerifiedToken {
  claims: AccessClaims;
  exp: number | undefined;
  nbf: number | undefined;
}

/** How many verified access tokens a token service keeps (a few MB at most). */
const VERIFIED_TOKENS_KEPT = 10_000;

/** jose's time checks, without clock tolerance: not before `nbf`, and before `exp`. */
function withinTimes(token: VerifiedToken, now: Date): boolean {
  const at = Math.floor(now.getTime() / 1000);
  if (token.nbf !== undefined && token.nbf > at) return false;
  return token.exp === undefined || token.exp > at;
}

export function createTokenService(secret: string, ttlSeconds: number): TokenService {
  const raw = new TextEncoder().encode(secret);
  // jose imports raw key bytes into a CryptoKey on every sign and verify; every signed-in
  // request verifies a token, so the key is imported once (on first use) and kept.
  let imported: Promise<webcrypto.CryptoKey> | undefined;
  const hmacKey = () =>
    (imported ??= webcrypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));
  /**
   * Access tokens this service has verified, by their exact text. A client sends the same
   * token with every call until it refreshes it, and everything jose checks but the time
   * (signature, algorithm, issuer, audience, claims) is fixed by that text; the time checks
   * (`nbf`, `exp`, as jose makes them) are made again on every use. Only successes are kept.
   */
  const verified = new Map<string, VerifiedToken>();
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
        .sign(await hmacKey());
    },
    async verifyAccessToken(token, now) {
      const known = verified.get(token);
      if (known) {
        if (withinTimes(known, now)) return { ...known.claims };
        // Expired (or, with a clock moved back, not valid yet): jose decides again.
        verified.delete(token);
      }
      try {
        const { payload } = await jwtVerify(token, await hmacKey(), {
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
        // Bounded: the oldest entry goes first (a Map keeps insertion order).
        if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
        verified.set(token, { claims, exp: payload.exp, nbf: payload.nbf });
        return { ...claims };
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
        .sign(await hmacKey());
    },
    async verifyLinkToken(token, now) {
      try {
        const { payload } = await jwtVerify(token, await hmacKey(), {
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
