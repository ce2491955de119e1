import { z } from 'zod';
import { StaffRole } from './enums.js';

export const PASSWORD_MIN_LENGTH = 6;

export const emailSchema = z.string().trim().toLowerCase().max(254).email();

export const loginBody = z.strictObject({
  email: z.string().trim().toLowerCase().min(1).max(254),
  // Length is not checked at sign-in: a wrong password of any length is just wrong.
  password: z.string().min(1).max(200),
});
export type LoginBody = z.infer<typeof loginBody>;

/** The token of an emailed link that unlocks an account locked by failed sign-ins. */
export const unlockBody = z.strictObject({ token: z.string().min(1).max(200) });
/** The web app's page an unlock link opens (the API mails it; the page hands the token to `POST /auth/unlock`). */
export const unlockPagePath = (token: string) => `/unlock-account?token=${encodeURIComponent(token)}`;

/** The signed-in staff member, as `GET /users/me` answers. */
export const currentUser = z.object({
  id: z.string().uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: StaffRole,
  client_id: z.string().uuid().nullable(),
});
export type CurrentUser = z.infer<typeof currentUser>;

export const loginResponse = z.object({
  access_token: z.string(),
  /** Seconds until the access token expires. */
  expires_in: z.number().int(),
  user: currentUser,
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const verifyResponse = z.object({ valid: z.literal(true), user: currentUser });

/** Public settings the web app needs before anyone signs in. */
export const clientSettings = z.object({
  inactivity_timeout_minutes: z.number(),
  token_refresh_interval_seconds: z.number(),
  presence_cookie_name: z.string(),
  /** Client administrators may sign in through their organisation's identity provider (OIDC_ISSUER is set). */
  oidc_enabled: z.boolean(),
  /** Client administrators may sign in with a password (ADMIN_PASSWORD_LOGIN is not false). */
  admin_password_login: z.boolean(),
});
export type ClientSettings = z.infer<typeof clientSettings>;

/**
 * The defaults of the public settings: the server's when its environment sets none, and
 * the web app's when `GET /settings` cannot be read (its timers must never silently stop).
 */
export const DEFAULT_INACTIVITY_TIMEOUT_MINUTES = 30;
export const DEFAULT_TOKEN_REFRESH_INTERVAL_SECONDS = 600;

/** Name of the JS-readable cookie that says a staff session exists (spec §4: polled every 5 s). */
export const PRESENCE_COOKIE = 'pss_session';

export const defaultClientSettings: ClientSettings = {
  inactivity_timeout_minutes: DEFAULT_INACTIVITY_TIMEOUT_MINUTES,
  token_refresh_interval_seconds: DEFAULT_TOKEN_REFRESH_INTERVAL_SECONDS,
  presence_cookie_name: PRESENCE_COOKIE,
  // Unread settings must not hide the only way in: the password form stays, the provider's button does not appear.
  oidc_enabled: false,
  admin_password_login: true,
};

/**
 * The web app hands the query the identity provider redirected to `/keycloak-landing` with
 * (`?code=…&state=…&iss=…`, or `?error=…`) to the API as it is: the API checks it whole.
 */
export const oidcCallbackBody = z.strictObject({ query: z.string().min(1).max(8192) });
export type OidcCallbackBody = z.infer<typeof oidcCallbackBody>;

/**
 * Where the browser goes after a staff sign-out: the identity provider's end-session page
 * (the session came from it), `/unauthorized` (it did, and NEW_LOGIN_ENABLED is set), or
 * null for the app's own `/logged-out`.
 */
export const staffLogoutResponse = z.object({ redirect_url: z.string().nullable() });
export type StaffLogoutResponse = z.infer<typeof staffLogoutResponse>;
