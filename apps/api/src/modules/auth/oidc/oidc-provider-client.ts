import * as oidc from 'openid-client';
import { AppError } from '../../../lib/errors.js';
import type { OidcConfig } from '../../../config-oidc.js';
import type { OidcTransaction } from './oidc-transaction.js';

/** What the app needs to know of the person the provider signed in. */
export interface ProviderIdentity {
  email: string | undefined;
  emailVerified: boolean;
  /** The provider's ID token: the hint its end-session page wants at sign-out. */
  idToken: string;
}

export interface OidcLog {
  warn(obj: unknown, msg: string): void;
}

/**
 * The app's side of OpenID Connect (authorization code with PKCE), through openid-client.
 * The provider's metadata is read once, on first use: a provider that is down when the
 * app starts does not stop the app, and the next sign-in tries again.
 */
export function createOidcProviderClient(
  settings: OidcConfig,
  urls: { redirect: string; postLogout: string },
  log: OidcLog,
) {
  let discovered: Promise<oidc.Configuration> | undefined;

  function configuration(): Promise<oidc.Configuration> {
    discovered ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        settings.clientSecret,
        // Without a secret the app is a public client: PKCE alone binds the code to it.
        settings.clientSecret ? undefined : oidc.None(),
        // config.ts allows plain http only outside production or on this machine.
        settings.issuer.startsWith('http://') ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        discovered = undefined;
        logRefusal(error, log, 'the identity provider’s metadata could not be read');
        throw new AppError('OIDC_PROVIDER_UNAVAILABLE');
      });
    return discovered;
  }

  return {
    /** A new transaction and the provider's authorization URL that carries it. */
    async start(): Promise<{ url: string; transaction: OidcTransaction }> {
      const config = await configuration();
      const transaction: OidcTransaction = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: urls.redirect,
        scope: settings.scopes,
        state: transaction.state,
        nonce: transaction.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(transaction.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, transaction };
    },

    /**
     * Checks the provider's answer (`?code=…&state=…`) against the transaction and trades
     * the code for tokens: the state, the PKCE verifier, the ID token's signature, issuer,
     * audience and nonce are all verified by openid-client. The email comes from the ID
     * token, or from the userinfo endpoint when the provider keeps it there.
     */
    async finish(query: string, transaction: OidcTransaction): Promise<ProviderIdentity> {
      const config = await configuration();
      const answer = new URL(urls.redirect);
      answer.search = query.startsWith('?') ? query : `?${query}`;
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(config, answer, {
          pkceCodeVerifier: transaction.codeVerifier,
          expectedState: transaction.state,
          expectedNonce: transaction.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw refusal(error, log);
      }
      const claims = tokens.claims();
      const idToken = tokens.id_token;
      if (!claims || !idToken) throw new AppError('OIDC_SIGN_IN_INVALID');
      let source: Record<string, unknown> = claims;
      if (claims.email === undefined) {
        try {
          source = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        } catch (error) {
          throw refusal(error, log);
        }
      }
      return {
        email: typeof source.email === 'string' ? source.email.trim().toLowerCase() : undefined,
        // Only a literal true counts: some providers send "true", or nothing at all.
        emailVerified: source.email_verified === true,
        idToken,
      };
    },

    /** The provider's end-session URL, which comes back to `/logged-out`. */
    async endSessionUrl(idToken: string): Promise<string> {
      const config = await configuration();
      return oidc.buildEndSessionUrl(config, {
        id_token_hint: idToken,
        post_logout_redirect_uri: urls.postLogout,
      }).href;
    },
  };
}
export type OidcProviderClient = ReturnType<typeof createOidcProviderClient>;

/**
 * Why the provider's answer was refused, as the catalogue says it. A provider that cannot
 * be reached is told apart from an answer that does not verify (a wrong state or nonce, a
 * used code). Only the error's name, code and message are logged: its `cause` may hold
 * the token response or the ID token's claims.
 */
function refusal(error: unknown, log: OidcLog): AppError {
  if (error instanceof AppError) return error;
  const unreachable = error instanceof TypeError && /fetch failed/i.test(error.message);
  logRefusal(error, log, 'sign-in through the identity provider refused');
  return new AppError(unreachable ? 'OIDC_PROVIDER_UNAVAILABLE' : 'OIDC_SIGN_IN_INVALID');
}

function logRefusal(error: unknown, log: OidcLog, msg: string): void {
  const { name, message, code } = (error ?? {}) as { name?: string; message?: string; code?: string };
  log.warn({ oidcError: { name, code, message, claim: claimOf(error) } }, msg);
}

/**
 * The name of the claim that did not match (`nonce`, `iss`, `aud`), found along the error's
 * causes (openid-client wraps oauth4webapi's error): it says what failed. Its value is left out.
 */
function claimOf(error: unknown): string | undefined {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const claim = (e as { claim?: unknown }).claim;
    if (typeof claim === 'string') return claim;
  }
  return undefined;
}
