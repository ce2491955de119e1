/** The test identity provider of `oidc-idp.mjs`. */
export interface TestIdp {
  issuer: string;
  /** The account every next sign-in comes in as without a form (null: show the sign-in page). */
  loginAs(email: string | null): void;
  close(): Promise<void>;
}

export function startTestIdp(options: {
  accounts: Record<string, { email_verified: boolean; given_name?: string; family_name?: string }>;
  client: { clientId: string; clientSecret: string; redirectUris: string[]; postLogoutRedirectUris: string[] };
}): Promise<TestIdp>;
