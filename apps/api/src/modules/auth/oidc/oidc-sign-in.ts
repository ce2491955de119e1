import { AppError } from '../../../lib/errors.js';
import type { Clock } from '../../../lib/clock.js';
import type { UserRow } from '../../users/users.service.js';
import type { AuthService, IssuedSession } from '../auth.service.js';
import type { OidcProviderClient } from './oidc-provider-client.js';
import type { OidcTransactions } from './oidc-transaction.js';

/**
 * Client administrators signing in through their organisation's identity provider. The
 * provider's person is matched to an existing client administrator by email, and only
 * by an email the provider says it verified: anyone can type an address into a provider's
 * self-service profile, so an unverified one would let them take over the account that has it.
 */
export function createOidcSignIn(deps: {
  provider: OidcProviderClient;
  transactions: OidcTransactions;
  auth: Pick<AuthService, 'loginVouched'>;
  users: { findByEmail(email: string): Promise<UserRow | undefined> };
  clock: Clock;
}) {
  const { provider, transactions, clock } = deps;
  return {
    /** The provider's URL to send the browser to, and the sealed transaction for its cookie. */
    async start(): Promise<{ url: string; sealed: string }> {
      const { url, transaction } = await provider.start();
      return { url, sealed: await transactions.seal(transaction, clock.now()) };
    },

    /**
     * Finishes a sign-in from the provider's answer and the transaction cookie: a session
     * as a password sign-in gives, and the ID token to end the provider's session later.
     */
    async finish(query: string, sealed: string | undefined): Promise<{ session: IssuedSession; idToken: string }> {
      const transaction = await transactions.open(sealed, clock.now());
      if (!transaction) throw new AppError('OIDC_SIGN_IN_EXPIRED');
      const identity = await provider.finish(query, transaction);
      if (!identity.email || !identity.emailVerified) throw new AppError('OIDC_EMAIL_UNVERIFIED');
      const user = await deps.users.findByEmail(identity.email);
      // Only client administrators come in this way: provider staff keep their own sign-in.
      if (!user || user.role !== 'ADMIN') throw new AppError('OIDC_ACCOUNT_UNKNOWN');
      return { session: await deps.auth.loginVouched(user), idToken: identity.idToken };
    },

    endSessionUrl: (idToken: string) => provider.endSessionUrl(idToken),
  };
}
export type OidcSignIn = ReturnType<typeof createOidcSignIn>;
