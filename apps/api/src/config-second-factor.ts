import { z } from 'zod';
import type { UserRole } from '@pss/contract';

/**
 * The second factor's settings: which staff roles must have one, and where passkeys belong.
 * Kept beside config.ts, which takes these variables into its environment's schema.
 */
const roleNames: Record<string, UserRole> = { superadmin: 'SUPERADMIN', admin: 'ADMIN' };

/** Variables whose empty value says something (no role), not "unset" (the default). */
export const emptyIsAValue = new Set(['MFA_REQUIRED_ROLES']);

export const secondFactorEnv = {
  // Comma-separated roles (superadmin, admin); empty: no role must.
  MFA_REQUIRED_ROLES: z
    .string()
    .default('superadmin')
    .transform((v) =>
      v
        .split(',')
        .map((role) => role.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((roles) => roles.every((role) => role in roleNames), 'MFA_REQUIRED_ROLES takes superadmin and admin')
    .transform((roles) => [...new Set(roles.map((role) => roleNames[role]!))]),
  // The passkeys' domain and the origins a browser may sign in from: PUBLIC_URL's unless set.
  WEBAUTHN_RP_ID: z.string().min(1).max(253).optional(),
  WEBAUTHN_ORIGINS: z.string().optional(),
};

/** Where passkeys belong: the site's domain (the relying party) and the origins the browser may show. */
export interface PasskeySettings {
  rpId: string;
  rpName: string;
  origins: string[];
}

export interface SecondFactorConfig {
  mfaRequiredRoles: UserRole[];
  passkeys: PasskeySettings;
}

export function secondFactorConfig(
  e: { MFA_REQUIRED_ROLES: UserRole[]; WEBAUTHN_RP_ID?: string | undefined; WEBAUTHN_ORIGINS?: string | undefined },
  publicUrl: string,
): SecondFactorConfig {
  const origins = e.WEBAUTHN_ORIGINS?.split(',')
    .map((origin) => origin.trim().replace(/\/$/, ''))
    .filter(Boolean);
  return {
    mfaRequiredRoles: e.MFA_REQUIRED_ROLES,
    passkeys: {
      rpId: e.WEBAUTHN_RP_ID ?? new URL(publicUrl).hostname,
      rpName: 'Patient Simulation Platform',
      origins: origins?.length ? origins : [new URL(publicUrl).origin],
    },
  };
}
