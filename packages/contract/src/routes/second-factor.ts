import { z } from 'zod';
import { loginResponse } from '../auth.js';
import { route } from '../route.js';
import {
  passkeyRegistered,
  passkeyRegistrationOptions,
  passkeySignInBody,
  passkeySignInOptions,
  passkeySignInOptionsBody,
  recoveryCodesReply,
  registerPasskeyBody,
  secondFactorCodeBody,
  secondFactorEnrolled,
  secondFactorStatus,
  secondFactorVerifyBody,
  totpEnrolment,
} from '../second-factor.js';

/**
 * A staff member's second factor. `enrolment` calls take a signed-in staff member, or one half
 * signed in whose role must have a factor (the `mfa_token` of a sign-in that answered
 * `mfa_enrollment_required`, as the bearer token); no other call takes that token.
 */
export const secondFactorRoutes = {
  mfaStatus: route({ method: 'GET', path: '/auth/mfa', access: 'admin', reply: secondFactorStatus }),
  mfaTotpEnroll: route({ method: 'POST', path: '/auth/mfa/totp/enroll', access: 'enrolment', reply: totpEnrolment }),
  mfaTotpConfirm: route({
    method: 'POST',
    path: '/auth/mfa/totp/confirm',
    access: 'enrolment',
    body: secondFactorCodeBody,
    reply: secondFactorEnrolled,
  }),
  mfaTotpRemove: route({
    method: 'DELETE',
    path: '/auth/mfa/totp',
    access: 'admin',
    body: secondFactorCodeBody,
    status: 204,
    reply: z.null(),
  }),
  mfaRecoveryCodes: route({
    method: 'POST',
    path: '/auth/mfa/recovery-codes',
    access: 'admin',
    body: secondFactorCodeBody,
    reply: recoveryCodesReply,
  }),
  mfaVerify: route({
    method: 'POST',
    path: '/auth/mfa/verify',
    access: 'public',
    body: secondFactorVerifyBody,
    reply: loginResponse,
  }),
  mfaPasskeyRegisterOptions: route({
    method: 'POST',
    path: '/auth/mfa/webauthn/register/options',
    access: 'enrolment',
    reply: passkeyRegistrationOptions,
  }),
  mfaPasskeyRegister: route({
    method: 'POST',
    path: '/auth/mfa/webauthn/register',
    access: 'enrolment',
    body: registerPasskeyBody,
    reply: passkeyRegistered,
  }),
  mfaPasskeyRemove: route({
    method: 'DELETE',
    path: '/auth/mfa/webauthn/:id',
    access: 'admin',
    params: z.object({ id: z.string().uuid() }),
    status: 204,
    reply: z.null(),
  }),
  mfaPasskeyOptions: route({
    method: 'POST',
    path: '/auth/mfa/webauthn/options',
    access: 'public',
    body: passkeySignInOptionsBody,
    reply: passkeySignInOptions,
  }),
  mfaPasskeyVerify: route({
    method: 'POST',
    path: '/auth/mfa/webauthn/verify',
    access: 'public',
    body: passkeySignInBody,
    reply: loginResponse,
  }),
};
