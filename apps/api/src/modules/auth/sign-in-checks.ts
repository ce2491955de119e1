import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import { decoyPasswordHash, verifyPassword } from '../../lib/passwords.js';
import type { UserRow, UsersService } from '../users/users.service.js';
import type { AuthSettings } from './auth-settings.js';
import type { CountedKey, SessionsRepository } from './sessions.repository.js';

// Guessing from one address across many emails is allowed more tries than on one email.
const PER_ADDRESS_FACTOR = 5;
/** Sign-in link emails to one address within the failure window. */
export const LINK_REQUESTS_PER_EMAIL = 3;

/** The emailed requests counted apart from sign-ins: a sign-in link, a code to set a password. */
export type EmailedRequest = 'link' | 'password-code';

/** The rate limits of signing in and of emailed requests, and the password check of both sign-ins. */
export function createSignInChecks(deps: {
  users: Pick<UsersService, 'findByEmail'>;
  sessions: SessionsRepository;
  clock: Clock;
  settings: Pick<AuthSettings, 'loginMaxFailures' | 'loginFailureWindowMinutes'>;
}) {
  const { users, sessions, clock, settings } = deps;

  const failureWindowStart = () => new Date(clock.now().getTime() - settings.loginFailureWindowMinutes * 60_000);

  /**
   * Counts an attempt before it is judged (see `countAttempt`): 429 once a key is at its
   * limit. Answers the entries to take back if the attempt turns out right.
   */
  async function countAttempt(keys: CountedKey[]): Promise<number[]> {
    const counted = await sessions.countAttempt(keys, clock.now(), failureWindowStart());
    if (!counted) {
      throw new AppError('TOO_MANY_REQUESTS', {
        details: { retry_after_seconds: Math.ceil(settings.loginFailureWindowMinutes * 60) },
      });
    }
    return counted;
  }

  const emailKey = (email: string): CountedKey => ({
    key: `email:${email.toLowerCase()}`,
    limit: settings.loginMaxFailures,
  });
  const signInKeys = (email: string, address: string): CountedKey[] => [
    emailKey(email),
    { key: `ip:${address}`, limit: settings.loginMaxFailures * PER_ADDRESS_FACTOR },
  ];

  return {
    countAttempt,
    /** Takes back the entries of an attempt that turned out right. */
    uncount: (counted: number[]) => sessions.uncountAttempt(counted),
    emailKey,

    /** Counts an emailed request, limited per address and per caller (429). */
    async countEmailedRequest(request: EmailedRequest, email: string, address: string): Promise<void> {
      await countAttempt([
        { key: `${request}:email:${email.toLowerCase()}`, limit: LINK_REQUESTS_PER_EMAIL },
        { key: `${request}:ip:${address}`, limit: settings.loginMaxFailures * PER_ADDRESS_FACTOR },
      ]);
    },

    /**
     * The password check of both sign-ins: counted first, so parallel guesses cannot all
     * pass the limit; a wrong password, an unknown email and an account of the wrong kind
     * get the same INCORRECT_PASSWORD after the same work, and their count stays.
     */
    async checkPassword(
      email: string,
      password: string,
      address: string,
      accepts: (user: UserRow) => boolean,
    ): Promise<UserRow> {
      const counted = await countAttempt(signInKeys(email, address));
      const user = await users.findByEmail(email);
      const passwordOk = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
      if (!user || !passwordOk || !user.passwordHash || !accepts(user)) throw new AppError('INCORRECT_PASSWORD');
      await sessions.uncountAttempt(counted);
      await sessions.clearFailures(emailKey(email).key);
      return user;
    },
  };
}

export type SignInChecks = ReturnType<typeof createSignInChecks>;
