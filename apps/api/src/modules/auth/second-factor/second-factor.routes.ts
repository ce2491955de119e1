import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { secondFactorRoutes, userRoutes } from '@pss/contract';
import { contractRoutes } from '../../../lib/contract-routes.js';
import { caller, enrollingMember } from '../../../lib/access-control.js';
import type { AuthService, IssuedSession } from '../auth.service.js';
import { OIDC_COOKIE_PATH, OIDC_ID_TOKEN_COOKIE, staffSessionCookies } from '../auth.routes.js';

/**
 * A staff member's second factor: setting one up (signed in, or half signed in when their role
 * must have one), the sign-in's second step, and a superadmin's reset of someone's factors.
 */
export function registerSecondFactorRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService },
  options: { secureCookies: boolean },
): void {
  const implement = contractRoutes(app);
  const cookies = staffSessionCookies(options.secureCookies);
  const factors = deps.auth.secondFactors;
  const tags = ['Second factor'];

  /** Who calls an enrolment route, and their session when signed in (a change of factors keeps it). */
  const enrolling = (request: FastifyRequest) => ({
    ...enrollingMember(request),
    sessionId: request.auth?.sessionId ?? null,
  });
  const signedInMember = (request: FastifyRequest) => {
    const { userId, sessionId } = caller(request);
    return { userId, sessionId: sessionId ?? null };
  };

  /** A session a second factor completed: the same cookies as a password sign-in's. */
  function signedIn<B>(reply: FastifyReply, session: IssuedSession<B>): B {
    cookies.set(reply, session as IssuedSession<never>);
    reply.clearCookie(OIDC_ID_TOKEN_COOKIE, { path: OIDC_COOKIE_PATH });
    return session.body;
  }

  implement(
    secondFactorRoutes.mfaStatus,
    { tags, summary: 'The signed-in member’s own second factors' },
    async (request) => factors.status(caller(request).userId),
  );

  implement(
    secondFactorRoutes.mfaTotpEnroll,
    {
      tags,
      summary: 'Begin setting up an authenticator app: its secret, as a link and a QR code',
      description:
        'Signed in, or half signed in with the `mfa_token` of a sign-in that answered `mfa_enrollment_required` ' +
        '(as the bearer token). Asking again replaces a secret not yet confirmed; a confirmed app: 409 ' +
        'MFA_ALREADY_ENROLLED.',
    },
    async (request) => factors.enrolTotp(enrolling(request)),
  );

  implement(
    secondFactorRoutes.mfaTotpConfirm,
    {
      tags,
      summary: 'Confirm the authenticator app with its first code: ten recovery codes, shown once',
      description:
        'A wrong code: 401 MFA_CODE_INCORRECT, counted as a wrong password is (429 at the limit). Half signed in, ' +
        'the answer also holds the session the enrolment completes (and sets its cookies). A factor added ends the ' +
        'member’s other sessions and every half-finished sign-in of theirs.',
    },
    async (request, reply) => {
      const done = await factors.confirmTotp(enrolling(request), request.body.code);
      if (done.session) signedIn(reply, done.session);
      return done.body;
    },
  );

  implement(
    secondFactorRoutes.mfaTotpRemove,
    {
      tags,
      summary: 'Remove the authenticator app, with one of its current codes',
      description:
        'The last factor of a role that must have one cannot be removed: 409 MFA_FACTOR_REQUIRED. Ends the member’s ' +
        'other sessions and every half-finished sign-in of theirs.',
    },
    async (request) => {
      await factors.removeTotp(signedInMember(request), request.body.code);
      return null;
    },
  );

  implement(
    secondFactorRoutes.mfaRecoveryCodes,
    { tags, summary: 'Ten new recovery codes for the old ones, with a current code of the authenticator app' },
    async (request) => ({
      recovery_codes: await factors.renewRecoveryCodes(caller(request).userId, request.body.code),
    }),
  );

  implement(
    secondFactorRoutes.mfaVerify,
    {
      tags,
      summary: 'The sign-in’s second step: a code of the authenticator app, or a recovery code',
      description:
        'With the `mfa_token` of a sign-in that answered `mfa_required` (it lives five minutes and completes one ' +
        'sign-in). Answers as a sign-in does. A wrong code: 401 MFA_CODE_INCORRECT; a code already used: 401 ' +
        'MFA_CODE_USED; an expired or spent token: 401 MFA_SIGN_IN_EXPIRED; too many tries: 429.',
    },
    async (request, reply) =>
      signedIn(reply, await deps.auth.verifySecondFactor(request.body.mfa_token, request.body.code)),
  );

  implement(
    secondFactorRoutes.mfaPasskeyRegisterOptions,
    { tags, summary: 'Begin adding a passkey: the options for the browser’s navigator.credentials.create()' },
    async (request) => factors.passkeyRegistrationOptions(enrolling(request)),
  );

  implement(
    secondFactorRoutes.mfaPasskeyRegister,
    {
      tags,
      summary: 'Keep the passkey the browser made',
      description:
        'A response that does not verify: 401 PASSKEY_NOT_VERIFIED. The first factor also gives ten recovery codes; ' +
        'half signed in, the answer holds the session the enrolment completes. Ends the member’s other sessions and ' +
        'every half-finished sign-in of theirs.',
    },
    async (request, reply) => {
      const done = await factors.registerPasskey(enrolling(request), request.body.name, request.body.response);
      if (done.session) signedIn(reply, done.session);
      return done.body;
    },
  );

  implement(
    secondFactorRoutes.mfaPasskeyRemove,
    {
      tags,
      summary: 'Remove one of the member’s passkeys',
      description: 'Ends the member’s other sessions and every half-finished sign-in of theirs.',
    },
    async (request) => {
      await factors.removePasskey(signedInMember(request), request.params.id);
      return null;
    },
  );

  implement(
    secondFactorRoutes.mfaPasskeyOptions,
    {
      tags,
      summary: 'Begin a passkey sign-in: the options for navigator.credentials.get()',
      description:
        'With the `mfa_token` of a password sign-in, the member’s own passkeys complete it; without, any passkey of ' +
        'this site signs its member in alone (the answer’s `mfa_token` names the attempt).',
    },
    async (request) => deps.auth.passkeySignInOptions(request.body.mfa_token),
  );

  implement(
    secondFactorRoutes.mfaPasskeyVerify,
    { tags, summary: 'Complete a passkey sign-in: answers as a sign-in does' },
    async (request, reply) =>
      signedIn(reply, await deps.auth.passkeySignIn(request.body.mfa_token, request.body.response)),
  );

  implement(
    userRoutes.resetSecondFactor,
    {
      tags,
      summary: 'Clear a staff member’s second factors (superadmin)',
      description:
        'Removes their authenticator app, passkeys and recovery codes, and ends every session and half-finished ' +
        'sign-in of theirs; they are told by email. Recorded in the audit trail. A participant, or no one: 404 ' +
        'USER_NOT_FOUND.',
    },
    async (request) => {
      await deps.auth.resetSecondFactors(request.params.id);
      return null;
    },
  );
}
