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
}
