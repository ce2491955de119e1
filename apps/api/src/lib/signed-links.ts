import { SignJWT, jwtVerify } from 'jose';

/**
 * Links that carry their own permission: a token signed with the server's secret (HS256,
 * an audience of their own, so no other token of the platform passes for one, nor one for
 * them) that names what it opens and until when. Whoever holds the link may fetch that one
 * thing until it expires; an altered or expired link is refused. Used for files that a
 * browser fetches by address (an `<img>`, a `<video>`, a PDF), which cannot send the
 * session's bearer token.
 */
export interface SignedLinks<P extends Record<string, string>> {
  sign(payload: P, now: Date, ttlSeconds: number): Promise<{ token: string; expiresAt: Date }>;
  /** The payload, or null when the token is altered, expired or not one of these links. */
  verify(token: string, now: Date): Promise<P | null>;
}

const ISSUER = 'patient-simulation-platform';

export function createSignedLinks<P extends Record<string, string>>(
  secret: string,
  audience: string,
  fields: readonly (keyof P & string)[],
): SignedLinks<P> {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(payload, now, ttlSeconds) {
      const iat = Math.floor(now.getTime() / 1000);
      const exp = iat + ttlSeconds;
      const token = await new SignJWT({ ...payload })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(ISSUER)
        .setAudience(audience)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
      return { token, expiresAt: new Date(exp * 1000) };
    },
    async verify(token, now) {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience,
          algorithms: ['HS256'],
          currentDate: now,
        });
        const out: Record<string, string> = {};
        for (const field of fields) {
          const value = payload[field];
          if (typeof value !== 'string') return null;
          out[field] = value;
        }
        return out as P;
      } catch {
        return null;
      }
    },
  };
}
