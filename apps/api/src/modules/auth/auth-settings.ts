import type { UserRole } from '@pss/contract';
import type { PasskeySettings } from '../../config-second-factor.js';

export interface AuthSettings {
  /** Where the web app is reached: dashboard links point there. */
  publicUrl: string;
  /** How long a dashboard link stays usable (it signs in once). */
  linkTtlDays: number;
  /** How long an emailed code to set a password stays usable (it works once). */
  passwordCodeTtlMinutes: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlHours: number;
  loginMaxFailures: number;
  loginFailureWindowMinutes: number;
  /** false: client administrators sign in only through their organisation's identity provider. */
  adminPasswordLogin: boolean;
  /** The staff roles that must sign in with a second factor (MFA_REQUIRED_ROLES). */
  mfaRequiredRoles: readonly UserRole[];
  /** Where passkeys belong (WEBAUTHN_RP_ID, WEBAUTHN_ORIGINS; PUBLIC_URL's by default). */
  passkeys: PasskeySettings;
}
