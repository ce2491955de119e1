import { z } from 'zod';

/**
 * Client administrators' identity provider (OpenID Connect): where it is, the client this
 * platform is to it, and the scopes asked for. Kept beside config.ts, which takes these
 * variables into its environment's schema and decides, with the rest of the environment,
 * whether a provider is needed and whether plain http will do.
 */
export const oidcEnv = {
  OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().max(500).optional(),
  OIDC_CLIENT_SECRET: z.string().max(2000).optional(),
  OIDC_SCOPES: z.string().default('openid email profile'),
};

export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** Absent for a public client: PKCE alone protects the code exchange. */
  clientSecret: string | undefined;
  scopes: string;
}

/** The provider's settings; undefined when OIDC_ISSUER is not set. */
export function oidcConfig(
  e: { OIDC_ISSUER?: string; OIDC_CLIENT_ID?: string; OIDC_CLIENT_SECRET?: string; OIDC_SCOPES: string },
  invalid: (message: string) => Error,
): OidcConfig | undefined {
  if (Boolean(e.OIDC_ISSUER) !== Boolean(e.OIDC_CLIENT_ID)) {
    throw invalid('OIDC_ISSUER and OIDC_CLIENT_ID must be set together');
  }
  if (!e.OIDC_ISSUER || !e.OIDC_CLIENT_ID) return undefined;
  // Without `openid` the provider answers no ID token, and without `email` no address to match.
  const scopes = e.OIDC_SCOPES.split(/\s+/).filter(Boolean);
  for (const needed of ['openid', 'email']) {
    if (!scopes.includes(needed)) throw invalid(`OIDC_SCOPES must include ${needed}`);
  }
  return {
    issuer: e.OIDC_ISSUER,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    scopes: scopes.join(' '),
  };
}

/** A provider on this machine, the one place plain http may reach in production. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}
