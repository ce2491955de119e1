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
  mfaTotpEnroll: route({
    method: 'POST',
    path: '/auth/mfa/totp/enroll',
    access: 'enrolment',
    audit: { kind: 'account', name: 'auth.mfaTotpEnroll' },
    reply: totpEnrolment,
  }),
  mfaTotpConfirm: route({
    method: 'POST',
    path: '/auth/mfa/totp/confirm',
    access: 'enrolment',
    audit: { kind: 'account', name: 'auth.mfaTotpConfirm' },
    body: secondFactorCodeBody,
    reply: secondFactorEnrolled,
  }),
  mfaTotpRemove: route({
    method: 'DELETE',
    path: '/auth/mfa/totp',
    access: 'admin',
    audit: { kind: 'account', name: 'auth.mfaTotpRemove' },
    body: secondFactorCodeBody,
    status: 204,
    reply: z.null(),
  }),
  mfaRecoveryCodes: route({
    method: 'POST',
    path: '/auth/mfa/recovery-codes',
    access: 'admin',
    audit: { kind: 'account', name: 'auth.mfaRecoveryCodes' },
    body: secondFactorCodeBody,
    reply: recoveryCodesReply,
  }),
  mfaVerify: route({
    method: 'POST',
    path: '/auth/mfa/verify',
    access: 'public',
    audit: { kind: 'sign-in', name: 'auth.mfaVerify' },
    body: secondFactorVerifyBody,
    reply: loginResponse,
  }),
  mfaPasskeyRegisterOptions: route({
    method: 'POST',
    path: '/auth/mfa/webauthn/register/options',
    access: 'enrolment',
    audit: { kind: 'account', name: 'auth.mfaPasskeyRegisterOptions' },
    reply: passkeyRegistrationOptions,
  }),
  mfaPasskeyRegister: route({
    method: 'POST',
    path: '/auth/mfa/webauthn/register',
    access: 'enrolment',
    audit: { kind: 'account', name: 'auth.mfaPasskeyRegister' },
    body: registerPasskeyBody,
    reply: passkeyRegistered,
  }),
  mfaPasskeyRemove: route({
    method: 'DELETE',
    path: '/auth/mfa/webauthn/:id',
    access: 'admin',
    audit: { kind: 'account', name: 'auth.mfaPasskeyRemove' },
    params: z.object({ id: z.string().uuid() }),
    status: 204,
    reply: z.null(),
  }),
  mfaPasskeyOptions: route({
    method: 'POST',
    path: '/auth/mfa/webauthn/options',
    access: 'public',
    audit: { kind: 'account', name: 'auth.mfaPasskeyOptions' },
    body: passkeySignInOptionsBody,
    reply: passkeySignInOptions,
  }),
  mfaPasskeyVerify: route({
    method: 'POST',
    path: '/auth/mfa/webauthn/verify',
    access: 'public',
    audit: { kind: 'sign-in', name: 'auth.mfaPasskeyVerify' },
    body: passkeySignInBody,
    reply: loginResponse,
  }),
};
