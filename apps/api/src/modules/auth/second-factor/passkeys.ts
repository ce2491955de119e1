import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { PasskeySettings } from '../../../config-second-factor.js';
import { AppError } from '../../../lib/errors.js';
import type { PasskeyRow } from './second-factor.repository.js';

/** A passkey made, as it is kept. */
export interface NewPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

const TIMEOUT_MS = 120_000;

/** Options for the browser, as JSON: the contract passes them through as they are. */
export type WebauthnOptions = Record<string, unknown> & { challenge: string };

/**
 * WebAuthn through @simplewebauthn/server: the options a browser's `navigator.credentials`
 * call takes, and the check of what it answers. A response the library cannot read or does not
 * verify is PASSKEY_NOT_VERIFIED (401), never a server error.
 */
export function createPasskeys(settings: PasskeySettings) {
  async function verified<T>(check: () => Promise<T>): Promise<T> {
    try {
      return await check();
    } catch (error) {
      throw new AppError('PASSKEY_NOT_VERIFIED', { cause: error });
    }
  }

  return {
    async registrationOptions(
      member: { id: string; email: string; name: string },
      existing: PasskeyRow[],
    ): Promise<WebauthnOptions> {
      return {
        ...(await generateRegistrationOptions({
          rpName: settings.rpName,
          rpID: settings.rpId,
          userName: member.email,
          userDisplayName: member.name,
          userID: new TextEncoder().encode(member.id),
          attestationType: 'none',
          timeout: TIMEOUT_MS,
          excludeCredentials: existing.map((key) => ({ id: key.credentialId, transports: key.transports })),
          // A discoverable credential can sign in without the password (the sign-in screen's passkey button).
          authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        })),
      };
    },

    async verifyRegistration(response: unknown, expectedChallenge: string): Promise<NewPasskey> {
      const result = await verified(() =>
        verifyRegistrationResponse({
          response: response as RegistrationResponseJSON,
          expectedChallenge,
          expectedOrigin: settings.origins,
          expectedRPID: settings.rpId,
          requireUserVerification: false,
        }),
      );
      if (!result.verified) throw new AppError('PASSKEY_NOT_VERIFIED');
      const { credential } = result.registrationInfo;
      return {
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
      };
    },

    /** Options for a sign-in: with the member's passkeys named (second factor), or any of this site's (passkey alone). */
    async authenticationOptions(allowed: PasskeyRow[] | null): Promise<WebauthnOptions> {
      return {
        ...(await generateAuthenticationOptions({
          rpID: settings.rpId,
          timeout: TIMEOUT_MS,
          userVerification: 'preferred',
          allowCredentials: allowed?.map((key) => ({ id: key.credentialId, transports: key.transports })),
        })),
      };
    },

    /** Checks a sign-in's response against the passkey it names; answers the passkey's new counter. */
    async verifyAuthentication(response: unknown, expectedChallenge: string, key: PasskeyRow): Promise<number> {
      const result = await verified(() =>
        verifyAuthenticationResponse({
          response: response as AuthenticationResponseJSON,
          expectedChallenge,
          expectedOrigin: settings.origins,
          expectedRPID: settings.rpId,
          requireUserVerification: false,
          credential: {
            id: key.credentialId,
            publicKey: Buffer.from(key.publicKey, 'base64url'),
            counter: key.counter,
            transports: key.transports as AuthenticatorTransportFuture[],
          },
        }),
      );
      if (!result.verified) throw new AppError('PASSKEY_NOT_VERIFIED');
      return result.authenticationInfo.newCounter;
    },
  };
}

type AuthenticatorTransportFuture = NonNullable<
  Parameters<typeof verifyAuthenticationResponse>[0]['credential']['transports']
>[number];

export type Passkeys = ReturnType<typeof createPasskeys>;
