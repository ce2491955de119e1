import type { FastifyInstance, FastifyReply } from 'fastify';
import { PRESENCE_COOKIE, authRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { caller, signedInUser } from '../../lib/access-control.js';
import type { AuthService, IssuedSession, StaffLoginKind } from './auth.service.js';
import { toCurrentUser, type UsersService } from '../users/users.service.js';

/** The httpOnly cookie holding the staff refresh token; sent only to the auth calls. */
export const STAFF_REFRESH_COOKIE = 'pss_admin_refresh';
/** A participant's refresh token: a separate cookie, so the two kinds of session never mix. */
export const PARTICIPANT_REFRESH_COOKIE = 'pss_user_refresh';
const REFRESH_COOKIE_PATH = '/api/auth';

export interface AuthRouteOptions {
  secureCookies: boolean;
  enableSuperfakeLogin: boolean;
}

/** Where the ID token of a session that came from the identity provider is kept (modules/auth/oidc). */
export const OIDC_COOKIE_PATH = '/api/auth/oidc';
export const OIDC_ID_TOKEN_COOKIE = 'pss_oidc_id';

/** Setting and clearing a staff session's cookies: every staff sign-in sets the same ones. */
export function staffSessionCookies(secureCookies: boolean) {
  return {
    set(reply: FastifyReply, session: IssuedSession): void {
      const maxAge = session.refreshMaxAgeSeconds;
      reply.setCookie(STAFF_REFRESH_COOKIE, session.refreshToken, {
        httpOnly: true,
        sameSite: 'strict',
        secure: secureCookies,
        path: REFRESH_COOKIE_PATH,
        maxAge,
      });
      // Readable by the web app: its presence tells every tab that a session exists.
      reply.setCookie(PRESENCE_COOKIE, '1', {
        httpOnly: false,
        sameSite: 'strict',
        secure: secureCookies,
        path: '/',
        maxAge,
      });
    },
    clear(reply: FastifyReply): void {
      reply.clearCookie(STAFF_REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH });
      reply.clearCookie(PRESENCE_COOKIE, { path: '/' });
    },
  };
}

export function registerAuthRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService; users: UsersService },
  options: AuthRouteOptions,
): void {
  const implement = contractRoutes(app);

  const cookies = staffSessionCookies(options.secureCookies);

  const loginCalls = [
    { route: authRoutes.loginSuperadmin, kind: 'superadmin', summary: 'Sign in as provider staff (superadmin)' },
    { route: authRoutes.loginAdmin, kind: 'admin', summary: 'Sign in as a client administrator' },
    { route: authRoutes.loginStaff, kind: 'staff', summary: 'Sign in as any staff member (superadmin or admin)' },
  ] as const satisfies readonly { route: unknown; kind: StaffLoginKind; summary: string }[];
  for (const call of loginCalls) {
    implement(
      call.route,
      {
        tags: ['Auth'],
        summary: call.summary,
        description:
          'Answers an access token for `Authorization: Bearer`, sets the httpOnly refresh cookie and the ' +
          'JS-readable presence cookie. A wrong password, an unknown email and an account of another kind ' +
          'all answer 401 INCORRECT_PASSWORD. An address with repeated failures answers 429 TOO_MANY_REQUESTS; an ' +
          'account with LOGIN_MAX_FAILURES failures is locked: every answer is then 429 ACCOUNT_LOCKED but a right ' +
          'password that goes on to the member’s second factor from an address that has not failed on it (its ' +
          'owner is mailed an unlock link: `/auth/unlock`). A member with a second factor gets `{ mfa_required, mfa_token, methods }` instead (no token, no cookie: complete it with ' +
          '`/auth/mfa/verify` or `/auth/mfa/webauthn/verify`); one whose role must have a factor and has none ' +
          'gets `{ mfa_enrollment_required, mfa_token }`, a bearer token only the enrolment calls take.',
      },
      async (request, reply) => {
        const step = await deps.auth.login(call.kind, request.body.email, request.body.password, request.ip);
        // Half signed in: no session (and no cookie) until the second factor.
        if ('halfway' in step) return step.halfway;
        cookies.set(reply, step.session);
        // A password session is not the provider's: sign-out must not send it to the provider's end-session page.
        reply.clearCookie(OIDC_ID_TOKEN_COOKIE, { path: OIDC_COOKIE_PATH });
        return step.session.body;
      },
    );
  }

  if (options.enableSuperfakeLogin) {
    implement(
      authRoutes.loginSuperfake,
      {
        tags: ['Auth'],
        summary: 'Development only: sign in as the first superadmin without a password',
        description: 'Exists only when ENABLE_SUPERFAKE_LOGIN is set; otherwise 404.',
      },
      async (_request, reply) => {
        const session = await deps.auth.loginSuperfake();
        cookies.set(reply, session);
        return session.body;
      },
    );
  }

  implement(
    authRoutes.refreshStaff,
    {
      tags: ['Auth'],
      summary: 'Trade the refresh cookie for a new access token (the cookie rotates)',
      description:
        'Public because it is how a client without a valid access token gets one; 401 without a live refresh cookie.',
    },
    async (request, reply) => {
      const sent = request.cookies[STAFF_REFRESH_COOKIE];
      try {
        const session = await deps.auth.refresh(sent);
        cookies.set(reply, session);
        return session.body;
      } catch (error) {
        // As for participants: only a refused cookie is cleared, never one that was not sent.
        if (sent) cookies.clear(reply);
        throw error;
      }
    },
  );

  implement(authRoutes.verifyStaff, { tags: ['Auth'], summary: 'Check the access token' }, async (request) => ({
    valid: true as const,
    user: toCurrentUser(signedInUser(request)),
  }));

  implement(
    authRoutes.logoutStaff,
    { tags: ['Auth'], summary: 'Sign out: revoke the refresh token on the server and clear the cookies' },
    async (request, reply) => {
      await deps.auth.logout(request.cookies[STAFF_REFRESH_COOKIE], caller(request).sessionId);
      cookies.clear(reply);
      return null;
    },
  );

  /* ---------- participants ---------- */

  function setParticipantCookie(
    reply: FastifyReply,
    session: { refreshToken: string; refreshMaxAgeSeconds: number },
  ): void {
    reply.setCookie(PARTICIPANT_REFRESH_COOKIE, session.refreshToken, {
      httpOnly: true,
      sameSite: 'strict',
      secure: options.secureCookies,
      path: REFRESH_COOKIE_PATH,
      maxAge: session.refreshMaxAgeSeconds,
    });
  }

  implement(
    authRoutes.loginParticipant,
    {
      tags: ['Auth'],
      summary: 'Sign in as a participant with a password',
      description:
        'Answers an access token and sets the participant refresh cookie. A wrong password, an unknown email ' +
        'and a staff account all answer 401 INCORRECT_PASSWORD. Repeated failures: 429 TOO_MANY_REQUESTS from one ' +
        'address, 429 ACCOUNT_LOCKED on one account (whatever the password, until the owner’s emailed unlock link, ' +
        '`/auth/unlock`, or the failures leave LOGIN_FAILURE_WINDOW_MINUTES).',
    },
    async (request, reply) => {
      const session = await deps.auth.loginParticipant(request.body.email, request.body.password, request.ip);
      setParticipantCookie(reply, session);
      return session.body;
    },
  );

  implement(
    authRoutes.loginByLink,
    {
      tags: ['Auth'],
      summary: 'Sign in through a dashboard link (the token of `/participant/link/{token}`)',
      description:
        'Works for any participant, once: the link is signed, expires, and is recorded when used. A bad, expired ' +
        'or already used token: 401.',
    },
    async (request, reply) => {
      const session = await deps.auth.loginByLink(request.body.token);
      setParticipantCookie(reply, session);
      return session.body;
    },
  );

  implement(
    authRoutes.refreshParticipant,
    { tags: ['Auth'], summary: 'Trade the participant refresh cookie for a new access token (the cookie rotates)' },
    async (request, reply) => {
      const sent = request.cookies[PARTICIPANT_REFRESH_COOKIE];
      try {
        const session = await deps.auth.refreshParticipant(sent);
        setParticipantCookie(reply, session);
        return session.body;
      } catch (error) {
        // Only a cookie that was sent (and refused) is cleared: clearing an absent one could
        // land after a sign-in in another request and remove the cookie it just set.
        if (sent) reply.clearCookie(PARTICIPANT_REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH });
        throw error;
      }
    },
  );

  implement(
    authRoutes.verifyParticipant,
    { tags: ['Auth'], summary: 'Check a participant access token' },
    async (request) => ({ valid: true as const, user: await deps.users.getParticipant(caller(request).userId) }),
  );

  implement(
    authRoutes.logoutParticipant,
    { tags: ['Auth'], summary: 'Sign a participant out on the server' },
    async (request, reply) => {
      await deps.auth.logout(request.cookies[PARTICIPANT_REFRESH_COOKIE], caller(request).sessionId);
      reply.clearCookie(PARTICIPANT_REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH });
      return null;
    },
  );

  implement(
    authRoutes.changeParticipantPassword,
    {
      tags: ['Auth'],
      summary: 'A signed-in participant creates (or changes) their password',
      description:
        'At least 6 characters (PASSWORD_TOO_SHORT). A participant who came in by link becomes a USER. An account ' +
        'that already has a password needs it in `current_password` (403 CURRENT_PASSWORD_INCORRECT; wrong guesses ' +
        'count against the sign-in limit, 429). The participant’s other sessions end.',
    },
    async (request) => {
      await deps.auth.changeParticipantPassword(caller(request), request.body.password, request.body.current_password);
      return null;
    },
  );

  implement(
    authRoutes.sendSignInLink,
    {
      tags: ['Auth'],
      summary: 'Email a sign-in link to a participant',
      description:
        'Answers the same, as fast, whether or not the address belongs to a participant; only a participant gets ' +
        'mail (sent after the answer). The link signs in once. At most 3 requests per address and a limit per ' +
        'caller within LOGIN_FAILURE_WINDOW_MINUTES: 429 TOO_MANY_REQUESTS with Retry-After.',
    },
    async (request) => {
      await deps.auth.sendSignInLink(request.body.email, request.ip);
      return { sent: true as const };
    },
  );

  implement(
    authRoutes.sendPasswordCode,
    {
      tags: ['Auth'],
      summary: 'Email a participant a link to set or reset their password',
      description:
        'For a participant without a session (`/create-password` without a code). The link, ' +
        '`/create-password?code=`, works once within PASSWORD_CODE_TTL_MINUTES; asking again replaces an unused ' +
        'one. Answers the same whether or not the address belongs to a participant, with the limits of ' +
        '`/auth/verify/email` (429 TOO_MANY_REQUESTS).',
    },
    async (request) => {
      await deps.auth.sendPasswordCode(request.body.email, request.ip);
      return { sent: true as const };
    },
  );

  implement(
    authRoutes.unlock,
    {
      tags: ['Auth'],
      summary: 'Unlock an account locked by failed sign-ins, with the link mailed to its owner',
      description:
        'No session needed. After LOGIN_MAX_FAILURES failed sign-ins (passwords, second-factor codes) within ' +
        'LOGIN_FAILURE_WINDOW_MINUTES an account is locked: addresses that failed on it are refused (429 ' +
        'ACCOUNT_LOCKED), and its owner is emailed a link, `/unlock-account?token=`, that works once within 24 ' +
        'hours. This call spends the token and clears the account’s failures; it is recorded in the audit trail. A ' +
        'token that is unknown, already used or expired: 400 UNLOCK_LINK_INVALID.',
    },
    async (request) => {
      await deps.auth.unlock(request.body.token);
      return null;
    },
  );

  implement(
    authRoutes.setPasswordWithCode,
    {
      tags: ['Auth'],
      summary: 'Set a participant’s password with the code of an emailed link',
      description:
        'No session needed. A code that is unknown, already used or expired: 400 PASSWORD_CODE_INVALID. The ' +
        'participant’s sessions end; they sign in with the new password.',
    },
    async (request) => {
      await deps.auth.setPasswordWithCode(request.body.code, request.body.password);
      return null;
    },
  );
}
