import { randomBytes } from 'node:crypto';
import { generate } from 'otplib';
import { SECOND_FACTOR_CHALLENGE_SECONDS } from '@pss/contract';
import type { Db } from '../src/db/client.js';
import type { SecondFactorChallengePurpose } from '../src/db/schema/index.js';
import { hashRefreshToken } from '../src/lib/tokens.js';
import { createSecondFactorRepository } from '../src/modules/auth/second-factor/second-factor.repository.js';
import { HALF_SIGNED_IN_PREFIX } from '../src/modules/auth/second-factor/second-factor-checks.js';
import { newTotpSecret } from '../src/modules/auth/second-factor/totp.js';

/**
 * Second-factor states made directly in the database, for tests that walk every route (the
 * route matrix, the fuzz): a sign-in's step, an app awaiting its first code, an app set up —
 * as the sign-in and enrolment calls would leave them, without the calls' limits.
 */

const STEP_SECONDS = 30;

/** A live half-signed-in step of the member's: its token, as a password sign-in would answer it. */
export async function halfSignedInToken(
  db: Db,
  userId: string,
  now: Date,
  purpose: SecondFactorChallengePurpose = 'enroll',
): Promise<string> {
  const token = `${HALF_SIGNED_IN_PREFIX}${randomBytes(32).toString('base64url')}`;
  await createSecondFactorRepository(db).insertChallenge({
    tokenHash: hashRefreshToken(token),
    userId,
    purpose,
    now,
    expiresAt: new Date(now.getTime() + SECOND_FACTOR_CHALLENGE_SECONDS * 1000),
  });
  return token;
}

const codeAt = (secret: string, now: Date, steps: number) =>
  generate({ secret, epoch: Math.floor(now.getTime() / 1000) + steps * STEP_SECONDS });

/** A new app awaiting its first code (any app the member had goes): the code that confirms it. */
export async function appAwaitingCode(db: Db, userId: string, now: Date): Promise<string> {
  const repository = createSecondFactorRepository(db);
  const secret = newTotpSecret();
  await repository.removeTotp(userId);
  await repository.startTotp(userId, secret, now);
  return codeAt(secret, now, 0);
}

/** A new app set up, its last code spent a step ago: a code the next call may spend. */
export async function appSetUp(db: Db, userId: string, now: Date): Promise<string> {
  const repository = createSecondFactorRepository(db);
  const secret = newTotpSecret();
  await repository.removeTotp(userId);
  await repository.startTotp(userId, secret, now);
  await repository.confirmTotp(userId, secret, Math.floor(now.getTime() / 1000 / STEP_SECONDS) - 1, now);
  return codeAt(secret, now, 0);
}
