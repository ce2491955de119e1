import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

/**
 * What a sign-in through the identity provider must find again when the provider sends
 * the browser back: the `state` and `nonce` it was started with and the PKCE verifier.
 * It lives in the browser in a short-lived, httpOnly cookie, signed so that it cannot be
 * made up or changed: the server keeps nothing between the two steps, and a second app
 * process can finish what the first started.
 */
export interface OidcTransaction {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** How long the browser may take at the provider (signing in, maybe a second factor). */
export const OIDC_TRANSACTION_TTL_SECONDS = 600;

// Its own audience and a key derived for this use only: neither an access token nor a
// dashboard link (signed with SESSION_SECRET itself) passes for a transaction, or back.
const AUDIENCE = 'pss-oidc-transaction';

export function createOidcTransactions(sessionSecret: string) {
  const key = createHmac('sha256', sessionSecret).update('pss-oidc-transaction').digest();
  return {
    async seal(transaction: OidcTransaction, now: Date): Promise<string> {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ st: transaction.state, nn: transaction.nonce, cv: transaction.codeVerifier })
        .setProtectedHeader({ alg: 'HS256' })
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + OIDC_TRANSACTION_TTL_SECONDS)
        .sign(key);
    },

    /** The transaction, or null when the cookie is missing, forged, changed or expired. */
    async open(sealed: string | undefined, now: Date): Promise<OidcTransaction | null> {
      if (!sealed) return null;
      try {
        const { payload } = await jwtVerify(sealed, key, {
          audience: AUDIENCE,
          algorithms: ['HS256'],
          currentDate: now,
        });
        const { st, nn, cv } = payload;
        if (typeof st !== 'string' || typeof nn !== 'string' || typeof cv !== 'string') return null;
        return { state: st, nonce: nn, codeVerifier: cv };
      } catch {
        return null;
      }
    },
  };
}
export type OidcTransactions = ReturnType<typeof createOidcTransactions>;
