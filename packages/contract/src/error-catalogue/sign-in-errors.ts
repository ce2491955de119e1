import type { ErrorDefinition } from './error-definition.js';

/** Errors of signing in, with a password or through the organisation's identity provider, and of setting a password. */
export const signInErrors = {
  NOT_AUTHORIZED: { status: 401, message: 'You are not authorized. Please log in.', showServerMessage: false },
  INCORRECT_PASSWORD: { status: 401, message: 'The password is incorrect.', showServerMessage: false },
  PASSWORD_CODE_INVALID: {
    status: 400,
    message: 'This link to set a password has expired or was already used. Ask for a new one.',
    showServerMessage: false,
  },
  CURRENT_PASSWORD_INCORRECT: {
    status: 403,
    message: 'Enter your current password correctly to change it.',
    showServerMessage: false,
  },
  PASSWORD_TOO_SHORT: {
    status: 400,
    message: 'The password must be at least 6 characters long.',
    showServerMessage: false,
  },
  TOO_MANY_REQUESTS: {
    status: 429,
    message: 'Too many attempts. Please wait a few minutes and try again.',
    showServerMessage: false,
  },
  ACCOUNT_LOCKED: {
    status: 429,
    message: 'This account is locked: use the unlock link we emailed.',
    showServerMessage: false,
  },
  UNLOCK_LINK_INVALID: {
    status: 400,
    message: 'This unlock link has expired or was already used.',
    showServerMessage: false,
  },
  // Signing in through the organisation's identity provider (OpenID Connect). The web app
  // shows each on /unauthorized?reason=<code>, so each says why and what to do.
  OIDC_NOT_CONFIGURED: {
    status: 404,
    message: 'Sign-in through your organisation is not set up on this platform.',
    showServerMessage: false,
  },
  OIDC_SIGN_IN_EXPIRED: {
    status: 400,
    message: 'This sign-in through your organisation was not started here or took too long. Please try again.',
    showServerMessage: false,
  },
  OIDC_SIGN_IN_INVALID: {
    status: 400,
    message: 'The answer of your organisation’s sign-in could not be verified. Please try again.',
    showServerMessage: false,
  },
  OIDC_PROVIDER_UNAVAILABLE: {
    status: 502,
    message: 'Your organisation’s sign-in service could not be reached. Please try again later.',
    showServerMessage: false,
  },
  OIDC_EMAIL_UNVERIFIED: {
    status: 403,
    message: 'Your organisation has not verified your email address, so it cannot sign you in here.',
    showServerMessage: false,
  },
  OIDC_ACCOUNT_UNKNOWN: {
    status: 403,
    message: 'No client administrator account on this platform has your email address.',
    showServerMessage: false,
  },
  PASSWORD_LOGIN_DISABLED: {
    status: 403,
    message: 'Client administrators sign in through their organisation. Use “Sign in with your organisation”.',
    showServerMessage: false,
  },
  // A staff member's second factor (authenticator codes, passkeys, recovery codes).
  MFA_CODE_INCORRECT: {
    status: 401,
    message: 'The code is incorrect.',
    showServerMessage: false,
  },
  MFA_CODE_USED: {
    status: 401,
    message: 'This code was already used. Wait for the next one.',
    showServerMessage: false,
  },
  MFA_SIGN_IN_EXPIRED: {
    status: 401,
    message: 'This sign-in has expired. Please sign in again.',
    showServerMessage: false,
  },
  MFA_ALREADY_ENROLLED: {
    status: 409,
    message: 'An authenticator app is already set up.',
    showServerMessage: false,
  },
  MFA_NOT_ENROLLED: {
    status: 404,
    message: 'No authenticator app is set up.',
    showServerMessage: false,
  },
  MFA_FACTOR_REQUIRED: {
    status: 409,
    message: 'Your role needs a second factor: keep at least one.',
    showServerMessage: false,
  },
  PASSKEY_NOT_VERIFIED: {
    status: 401,
    message: 'The passkey could not be verified.',
    showServerMessage: false,
  },
} as const satisfies Record<string, ErrorDefinition>;
