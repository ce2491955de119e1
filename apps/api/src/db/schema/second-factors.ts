import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * A staff member's authenticator app (TOTP, RFC 6238): its secret, kept from enrolment on.
 * Unconfirmed until a code made with it is entered; `last_step` is the time step of the last
 * code accepted, so that a code is accepted once (a replay within its window is refused).
 */
export const totpFactors = pgTable('totp_factors', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Base32, as authenticator apps take it. */
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A staff member's passkey (WebAuthn credential): its id and public key as the authenticator gave them. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential's id, base64url. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter: one that goes backwards is a cloned key. */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('passkeys_credential_unique').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/**
 * Single-use recovery codes, hashed as passwords are. `lookup` is the code's first four
 * characters, so that a code entered is checked against one hash, not ten.
 */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lookup: text('lookup').notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_user_lookup_idx').on(t.userId, t.lookup)],
);

export const secondFactorChallengePurposes = ['verify', 'enroll', 'passkey', 'register'] as const;
export type SecondFactorChallengePurpose = (typeof secondFactorChallengePurposes)[number];

/**
 * The half-signed-in state, and WebAuthn's challenges. `verify`: the password was right and a
 * second factor is asked; `enroll`: the password was right and the member's role needs a
 * factor they do not have; `passkey`: a sign-in with a passkey alone, begun; `register`: a
 * signed-in member adding a passkey. Only a SHA-256 of its token is kept; it lives
 * `expires_at` (five minutes at most) and is spent once.
 */
export const secondFactorChallenges = pgTable(
  'second_factor_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: secondFactorChallengePurposes }).notNull(),
    /** The WebAuthn challenge last given out under it, base64url. */
    webauthnChallenge: text('webauthn_challenge'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('second_factor_challenges_token_unique').on(t.tokenHash),
    index('second_factor_challenges_user_idx').on(t.userId),
    index('second_factor_challenges_expires_idx').on(t.expiresAt),
    check('second_factor_challenges_purpose_check', sql`${t.purpose} in ('verify', 'enroll', 'passkey', 'register')`),
  ],
);
