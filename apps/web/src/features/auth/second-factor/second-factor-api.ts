import { queryOptions } from '@tanstack/react-query';
import { secondFactorRoutes, type LoginResponse } from '@pss/contract';
import { call } from '../../../lib/api-client';

/**
 * The second factor's calls. Passkeys go through @simplewebauthn/browser, fetched when a
 * passkey is first used: the sign-in screen does not carry it.
 */

const webauthn = () => import('@simplewebauthn/browser');

/** WebAuthn's answer as the contract passes it on: a plain JSON object (the server's library reads it). */
function asJson(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value));
}

/** Calls made half signed in carry that step's token, and a 401 there is a refusal, not a lost session. */
const halfway = (token: string | undefined) => (token ? { bearer: token, isLogin: true } : {});

/** The sign-in's second step with a typed code (the app's, or a recovery code). */
export function verifyCode(token: string, code: string): Promise<LoginResponse> {
  return call(secondFactorRoutes.mfaVerify, { body: { mfa_token: token, code } }, { isLogin: true });
}

/** A sign-in with a passkey: as the second step (with its token), or alone. */
export async function signInWithPasskey(token?: string): Promise<LoginResponse> {
  const [{ startAuthentication }, begun] = await Promise.all([
    webauthn(),
    call(secondFactorRoutes.mfaPasskeyOptions, { body: token ? { mfa_token: token } : {} }, { isLogin: true }),
  ]);
  const response = await startAuthentication({ optionsJSON: begun.options as never });
  return call(
    secondFactorRoutes.mfaPasskeyVerify,
    { body: { mfa_token: begun.mfa_token, response: asJson(response) } },
    { isLogin: true },
  );
}

/** Begins setting up an authenticator app: signed in, or half signed in with `token`. */
export function startAppSetUp(token?: string) {
  return call(secondFactorRoutes.mfaTotpEnroll, {}, halfway(token));
}

export function confirmApp(code: string, token?: string) {
  return call(secondFactorRoutes.mfaTotpConfirm, { body: { code } }, halfway(token));
}

/** Adds a passkey made by the browser's authenticator. */
export async function addPasskey(name: string, token?: string) {
  const [{ startRegistration }, options] = await Promise.all([
    webauthn(),
    call(secondFactorRoutes.mfaPasskeyRegisterOptions, {}, halfway(token)),
  ]);
  const response = await startRegistration({ optionsJSON: options as never });
  return call(secondFactorRoutes.mfaPasskeyRegister, { body: { name, response: asJson(response) } }, halfway(token));
}

export const secondFactorKeys = { status: ['second-factor', 'status'] as const };

export function secondFactorStatusQueryOptions() {
  return queryOptions({
    queryKey: secondFactorKeys.status,
    queryFn: ({ signal }) => call(secondFactorRoutes.mfaStatus, {}, { signal }),
  });
}

export function removeApp(code: string) {
  return call(secondFactorRoutes.mfaTotpRemove, { body: { code } });
}

export function removePasskey(id: string) {
  return call(secondFactorRoutes.mfaPasskeyRemove, { params: { id } });
}

export function renewRecoveryCodes(code: string) {
  return call(secondFactorRoutes.mfaRecoveryCodes, { body: { code } });
}

/** Whether the browser can make and use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}
