import type { FastifyInstance } from 'fastify';
import { authRoutes, type ErrorCode } from '@pss/contract';
import { contractRoutes } from '../../../lib/contract-routes.js';
import { caller } from '../../../lib/access-control.js';
import { AppError } from '../../../lib/errors.js';
import type { AuthService } from '../auth.service.js';
import { OIDC_COOKIE_PATH, OIDC_ID_TOKEN_COOKIE, STAFF_REFRESH_COOKIE, staffSessionCookies } from '../auth.routes.js';
import type { OidcSignIn } from './oidc-sign-in.js';
import { OIDC_TRANSACTION_TTL_SECONDS } from './oidc-transaction.js';

/** The sealed state, nonce and PKCE verifier of a sign-in under way (oidc-transaction.ts). */
export const OIDC_TRANSACTION_COOKIE = 'pss_oidc_tx';

export interface OidcRouteOptions {
  secureCookies: boolean;
  publicUrl: string;
  /** Spec §4: a provider session's sign-out ends on /unauthorized instead of the provider's page. */
  newLoginEnabled: boolean;
}

/** `/unauthorized`, with the catalogue code that says why: the web app shows its message. */
export const unauthorizedPath = (reason?: ErrorCode) =>
  reason ? `/unauthorized?reason=${encodeURIComponent(reason)}` : '/unauthorized';

/**
 * Client administrators' sign-in through their organisation's identity provider. Routes
 * exist whether or not OIDC_ISSUER is set (`oidc` undefined): without it, the start
 * redirects to /unauthorized and the callback answers OIDC_NOT_CONFIGURED.
 */
export function registerOidcRoutes(
  app: FastifyInstance,
  deps: { oidc: OidcSignIn | undefined; auth: Pick<AuthService, 'logout'> },
  options: OidcRouteOptions,
): void {
  const implement = contractRoutes(app);
  const cookies = staffSessionCookies(options.secureCookies);
  const clearTransaction = (reply: Parameters<typeof cookies.clear>[0]) =>
    reply.clearCookie(OIDC_TRANSACTION_COOKIE, { path: OIDC_COOKIE_PATH });

  implement(
    authRoutes.oidcStart,
    {
      tags: ['Auth'],
      summary: 'Start a client administrator’s sign-in through the identity provider (a browser navigation)',
      description:
        'Redirects to the provider’s authorization endpoint (code flow with PKCE, `state` and `nonce`), and keeps ' +
        'them in a signed, httpOnly cookie for ten minutes. Without a provider, or when it cannot be reached, ' +
        'redirects to `/unauthorized?reason=OIDC_NOT_CONFIGURED` or `…OIDC_PROVIDER_UNAVAILABLE`.',
    },
    async (_request, reply) => {
      if (!deps.oidc) return reply.redirect(unauthorizedPath('OIDC_NOT_CONFIGURED'), 302);
      let started: Awaited<ReturnType<OidcSignIn['start']>>;
      try {
        started = await deps.oidc.start();
      } catch (error) {
        if (error instanceof AppError) return reply.redirect(unauthorizedPath(error.code), 302);
        throw error;
      }
      // Lax: the cookie must come back on the provider's redirect to /keycloak-landing's call.
      reply.setCookie(OIDC_TRANSACTION_COOKIE, started.sealed, {
        httpOnly: true,
        sameSite: 'lax',
        secure: options.secureCookies,
        path: OIDC_COOKIE_PATH,
        maxAge: OIDC_TRANSACTION_TTL_SECONDS,
      });
      return reply.redirect(started.url, 302);
    },
  );

  implement(
    authRoutes.oidcCallback,
    {
      tags: ['Auth'],
      summary: 'Finish a sign-in through the identity provider with its answer',
      description:
        'The web app’s `/keycloak-landing` sends the query the provider redirected to. The state, the nonce and ' +
        'the PKCE verifier are checked against the transaction cookie, which works once. The person must be a ' +
        'client administrator of this platform with the email the provider verified. Answers as the password ' +
        'sign-ins do. Refusals: OIDC_SIGN_IN_EXPIRED, OIDC_SIGN_IN_INVALID, OIDC_EMAIL_UNVERIFIED, ' +
        'OIDC_ACCOUNT_UNKNOWN, OIDC_PROVIDER_UNAVAILABLE, OIDC_NOT_CONFIGURED.',
    },
    async (request, reply) => {
      if (!deps.oidc) throw new AppError('OIDC_NOT_CONFIGURED');
      const sealed = request.cookies[OIDC_TRANSACTION_COOKIE];
      // Used once, whatever the outcome: a replayed answer finds no transaction.
      if (sealed) clearTransaction(reply);
      const { session, idToken } = await deps.oidc.finish(request.body.query, sealed);
      cookies.set(reply, session);
      reply.setCookie(OIDC_ID_TOKEN_COOKIE, idToken, {
        httpOnly: true,
        sameSite: 'strict',
        secure: options.secureCookies,
        path: OIDC_COOKIE_PATH,
        maxAge: session.refreshMaxAgeSeconds,
      });
      return session.body;
    },
  );

  implement(
    authRoutes.oidcLogout,
    {
      tags: ['Auth'],
      summary: 'Sign out, and answer where the browser goes next',
      description:
        'Ends the session as `DELETE /auth/admin/logout` does. For a session that came from the identity ' +
        'provider, `redirect_url` is the provider’s end-session page (with `id_token_hint` and a ' +
        '`post_logout_redirect_uri` of `/logged-out`), or `/unauthorized` when NEW_LOGIN_ENABLED is set; ' +
        'otherwise null (the web app shows `/logged-out`).',
    },
    async (request, reply) => {
      await deps.auth.logout(request.cookies[STAFF_REFRESH_COOKIE], caller(request).sessionId);
      cookies.clear(reply);
      const idToken = request.cookies[OIDC_ID_TOKEN_COOKIE];
      if (idToken) reply.clearCookie(OIDC_ID_TOKEN_COOKIE, { path: OIDC_COOKIE_PATH });
      if (!idToken || !deps.oidc) return { redirect_url: null };
      if (options.newLoginEnabled) return { redirect_url: `${options.publicUrl}${unauthorizedPath()}` };
      try {
        return { redirect_url: await deps.oidc.endSessionUrl(idToken) };
      } catch {
        // The app's session is over either way; the provider's stays, and the person is told signed out here.
        return { redirect_url: null };
      }
    },
  );
}
