import { z } from 'zod';
import { loginResponse } from './auth.js';
import { requiredText } from './text-fields.js';

/**
 * Staff sign in with a second factor: an authenticator app's codes (TOTP, RFC 6238) or a
 * passkey (WebAuthn), with ten single-use recovery codes. After the password, a member with
 * a factor is asked for it; a member whose role must have one and has none is taken to
 * enrolment. Between the two steps the member is half signed in: an `mfa_token` that lives
 * five minutes and opens no call but the next step's.
 */

/** How long the half-signed-in state lives. */
export const SECOND_FACTOR_CHALLENGE_SECONDS = 300;
/** How many recovery codes an enrolment gives. */
export const RECOVERY_CODE_COUNT = 10;
/** The ways a member with a factor may complete a sign-in. */
export const secondFactorMethods = ['totp', 'webauthn', 'recovery'] as const;
export type SecondFactorMethod = (typeof secondFactorMethods)[number];

const mfaToken = z.string().min(1).max(200);
/** A code as typed: six digits from the app, or a recovery code (`abcd-efgh-ijkl`). */
const typedCode = requiredText(64);

/** The password was right; a second factor is asked. */
export const secondFactorChallenge = z.object({
  mfa_required: z.literal(true),
  mfa_token: z.string(),
  methods: z.array(z.enum(secondFactorMethods)),
});
export type SecondFactorChallenge = z.infer<typeof secondFactorChallenge>;

/** The password was right; the member's role needs a factor they have not set up. */
export const secondFactorEnrolmentRequired = z.object({
  mfa_enrollment_required: z.literal(true),
  mfa_token: z.string(),
});
export type SecondFactorEnrolmentRequired = z.infer<typeof secondFactorEnrolmentRequired>;

/** What a staff password sign-in answers: signed in, or one step from it. */
export const staffSignInResponse = z.union([loginResponse, secondFactorChallenge, secondFactorEnrolmentRequired]);
export type StaffSignInResponse = z.infer<typeof staffSignInResponse>;

/** An authenticator app being set up: the secret, as a link and as a QR code of it (SVG). */
export const totpEnrolment = z.object({ secret: z.string(), otpauth_url: z.string(), qr_svg: z.string() });
export type TotpEnrolment = z.infer<typeof totpEnrolment>;

export const secondFactorCodeBody = z.strictObject({ code: typedCode });
export type SecondFactorCodeBody = z.infer<typeof secondFactorCodeBody>;

/**
 * A factor set up: the recovery codes, shown this once (none when the member had codes
 * already), and — when it was the sign-in's enrolment step — the session it completes.
 */
export const secondFactorEnrolled = z.object({
  recovery_codes: z.array(z.string()),
  session: loginResponse.optional(),
});
export type SecondFactorEnrolled = z.infer<typeof secondFactorEnrolled>;

export const secondFactorVerifyBody = z.strictObject({ mfa_token: mfaToken, code: typedCode });
export type SecondFactorVerifyBody = z.infer<typeof secondFactorVerifyBody>;

/** WebAuthn's options and responses as @simplewebauthn passes them (JSON); the library checks them. */
const webauthnJson = z.record(z.string(), z.unknown());

export const passkey = z.object({
  id: z.string().uuid(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkey>;

export const passkeyRegistrationOptions = webauthnJson;
export const registerPasskeyBody = z.strictObject({
  name: requiredText(60),
  response: webauthnJson,
});
export type RegisterPasskeyBody = z.infer<typeof registerPasskeyBody>;
export const passkeyRegistered = secondFactorEnrolled.extend({ passkey });
export type PasskeyRegistered = z.infer<typeof passkeyRegistered>;

/** A passkey sign-in begun: with the `mfa_token` of a password sign-in (second factor), or without (passkey alone). */
export const passkeySignInOptionsBody = z.strictObject({ mfa_token: mfaToken.optional() });
export const passkeySignInOptions = z.object({ options: webauthnJson, mfa_token: z.string() });
export type PasskeySignInOptions = z.infer<typeof passkeySignInOptions>;
export const passkeySignInBody = z.strictObject({ mfa_token: mfaToken, response: webauthnJson });
export type PasskeySignInBody = z.infer<typeof passkeySignInBody>;

/** A member's own factors, as the account's security screen shows them. */
export const secondFactorStatus = z.object({
  totp: z.boolean(),
  passkeys: z.array(passkey),
  recovery_codes_left: z.number().int(),
  /** The member's role must have a factor (MFA_REQUIRED_ROLES): the last one cannot be removed. */
  required: z.boolean(),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatus>;

export const recoveryCodesReply = z.object({ recovery_codes: z.array(z.string()) });
