import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import { decoyPasswordHash, verifyPassword } from '../../lib/passwords.js';
import { currentAddress } from '../../lib/request-context.js';
import type { UserRow, UsersService } from '../users/users.service.js';
import type { AccountLocks } from './account-locks.js';
import type { AuthSettings } from './auth-settings.js';
import type { CountedKey, SessionsRepository } from './sessions.repository.js';

// Guessing from one address across many emails is allowed more tries than on one email.
const PER_ADDRESS_FACTOR = 5;
/** Sign-in link emails to one address within the failure window. */
export const LINK_REQUESTS_PER_EMAIL = 3;

/** The emailed requests counted apart from sign-ins: a sign-in link, a code to set a password. */
export type EmailedRequest = 'link' | 'password-code';

/** What an account's failures are counted under: its email, whether or not an account has it. */
export const accountKey = (email: string): string => `email:${email.toLowerCase()}`;

/**
 * The rate limits of signing in and of emailed requests, the password check of both sign-ins,
 * and the lockout every guess at an account's secret (a password, a second factor's code, a
 * passkey) goes through: failures count per account, per address, and per account and address
 * together, within LOGIN_FAILURE_WINDOW_MINUTES.
 *
 * - An address with LOGIN_MAX_FAILURES × 5 failures is refused (TOO_MANY_REQUESTS), on every account.
 * - An account with LOGIN_MAX_FAILURES failures is locked: its owner is mailed a single-use
 *   unlock link (account-locks.ts), and an address that has failed on it is refused
 *   (ACCOUNT_LOCKED). An address that has not failed on it still gets its guess: a right
 *   password of a member with a second factor leads to the second step, whose right code or
 *   passkey signs in; any other answer is ACCOUNT_LOCKED (a right password alone does not sign
 *   in to a locked account, and a wrong one is told apart from it by nothing). So the guesser is
 *   stopped (one guess per address while the lock stands) and the owner is not.
 */
export function createSignInChecks(deps: {
  users: Pick<UsersService, 'findByEmail' | 'findById'>;
  sessions: SessionsRepository;
  clock: Clock;
  settings: Pick<AuthSettings, 'loginMaxFailures' | 'loginFailureWindowMinutes'>;
  /** Mails a locked account's owner its unlock link and records the lock (absent: neither). */
  locks?: Pick<AccountLocks, 'lock'>;
}) {
  const { users, sessions, clock, settings } = deps;

  const failureWindowStart = () => new Date(clock.now().getTime() - settings.loginFailureWindowMinutes * 60_000);
  const retryAfter = () => ({ details: { retry_after_seconds: Math.ceil(settings.loginFailureWindowMinutes * 60) } });

  /**
   * Counts an attempt before it is judged (see `countAttempt`): 429 once a key is at its
   * limit. Answers the entries to take back if the attempt turns out right.
   */
  async function countAttempt(keys: CountedKey[]): Promise<number[]> {
    const counted = await sessions.countAttempt(keys, clock.now(), failureWindowStart());
    if (!counted) throw new AppError('TOO_MANY_REQUESTS', retryAfter());
    return counted;
  }

  /**
   * A guess at an account's secret from an address, counted before it is judged (so that
   * parallel guesses cannot all pass), under the lockout's rule (above). Then `failed` (its
   * entries stay, and the account locks as it reaches its limit) or `passed` (taken back).
   */
  async function beginGuess(email: string, address: string) {
    const account = accountKey(email);
    const counted = await sessions.countGuess(
      { account, address: `ip:${address}`, pair: `${account} ip:${address}` },
      { account: settings.loginMaxFailures, address: settings.loginMaxFailures * PER_ADDRESS_FACTOR },
      clock.now(),
      failureWindowStart(),
    );
    if ('refused' in counted) {
      throw new AppError(counted.refused === 'locked' ? 'ACCOUNT_LOCKED' : 'TOO_MANY_REQUESTS', retryAfter());
    }
    return {
      locked: counted.locked,
      async failed(user: UserRow | undefined): Promise<void> {
        if (user && counted.accountFailures >= settings.loginMaxFailures) await deps.locks?.lock(user, address);
      },
      /**
       * Takes the guess back; one that signs in (`completes`) also clears the account's
       * failures, unless the account is locked (the guesser may still be at it: the lock
       * ends with its link, or as its failures leave the window).
       */
      async passed(completes: boolean): Promise<void> {
        await sessions.uncountAttempt(counted.ids);
        if (completes && !counted.locked) await sessions.clearFailures(account);
      },
    };
  }

  return {
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
     * get the same INCORRECT_PASSWORD after the same work, and their count stays. A locked
     * account answers ACCOUNT_LOCKED to all but a right password of a member who goes on to
     * a second factor (`hasFactor`).
     */
    async checkPassword(
      email: string,
      password: string,
      address: string,
      accepts: (user: UserRow) => boolean,
      signIn: { hasFactor?: (user: UserRow) => Promise<boolean> } = {},
    ): Promise<UserRow> {
      const guess = await beginGuess(email, address);
      const user = await users.findByEmail(email);
      const passwordOk = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
      if (!user || !passwordOk || !user.passwordHash || !accepts(user)) {
        await guess.failed(user);
        throw guess.locked ? new AppError('ACCOUNT_LOCKED', retryAfter()) : new AppError('INCORRECT_PASSWORD');
      }
      const viaFactor = (await signIn.hasFactor?.(user)) ?? false;
      await guess.passed(!viaFactor);
      if (guess.locked && !viaFactor) throw new AppError('ACCOUNT_LOCKED', retryAfter());
      return user;
    },

    /**
     * Runs the check of a secret given for a staff member or participant other than a sign-in's
     * password (a second factor's code or passkey, a current password), counted as a guess at
     * their account from the caller's address: refused as the lockout says, its count kept
     * when `check` throws and taken back when it passes.
     */
    async guarded<T>(userId: string, check: () => Promise<T>): Promise<T> {
      const user = await users.findById(userId);
      const guess = await beginGuess(user?.email ?? `user:${userId}`, currentAddress() ?? 'unknown');
      let result: T;
      try {
        result = await check();
      } catch (error) {
        await guess.failed(user);
        throw error;
      }
      await guess.passed(true);
      return result;
    },
  };
}

export type SignInChecks = ReturnType<typeof createSignInChecks>;
