import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * Anonymous calls counted per key and minute (modules/call-limits): one row per caller's
 * address and call (`auth.mfaVerify ip 203.0.113.7`), and one per call for every address
 * together, so that every process counts against the same limit. Kept a few minutes, then
 * swept.
 */
export const callCounts = pgTable(
  'call_counts',
  {
    key: text('key').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.minute] }), index('call_counts_minute_idx').on(t.minute)],
);

/**
 * The audit trail's anonymous events, counted per call, outcome, address and minute: the
 * first of a minute is written to the trail, the rest only counted here, and the count goes
 * to the trail in one summary event once the minute is over (modules/call-limits/anonymous-events.service.ts).
 * `summarized_at`: when that summary was written (null: not yet, or none needed).
 */
export const anonymousEventCounts = pgTable(
  'anonymous_event_counts',
  {
    action: text('action').notNull(),
    outcome: text('outcome').notNull(),
    ip: text('ip').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
    summarizedAt: timestamp('summarized_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.action, t.outcome, t.ip, t.minute] }),
    index('anonymous_event_counts_minute_idx').on(t.minute),
  ],
);

/**
 * Accounts locked by failed sign-ins (modules/auth/account-locks.ts): the single-use link that
 * unlocks one, mailed to its owner (only a SHA-256 of its token is kept). One row per account,
 * replaced by the next lock once its link is spent or old.
 */
export const accountLocks = pgTable(
  'account_locks',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    lockedAt: timestamp('locked_at', { withTimezone: true }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('account_locks_token_unique').on(t.tokenHash)],
);
