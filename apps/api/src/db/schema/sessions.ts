import { sql } from 'drizzle-orm';
import { bigserial, index, pgTable, text, timestamp, uuid, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * Refresh tokens. Only a SHA-256 of each token is stored. Every refresh revokes the
 * token it used and issues the next in the same family; presenting a revoked token
 * again revokes the whole family (a stolen token is then useless to both holders), except
 * within a few seconds of its rotation while its successor is still live (two tabs
 * refreshing at once): `replaced_by` names that successor.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    familyId: uuid('family_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The token this one was rotated into; null while live, or when revoked otherwise. */
    replacedBy: uuid('replaced_by'),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_unique').on(t.tokenHash),
    // Only a family's live tokens: every signed-in request looks its session up here
    // (modules/auth/live-sessions.ts), and a family keeps a revoked row for every rotation.
    index('sessions_live_family_idx')
      .on(t.familyId)
      .where(sql`${t.revokedAt} is null`),
    index('sessions_user_idx').on(t.userId),
  ],
);

/** Failed sign-ins, counted per email and per address to slow down password guessing. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('login_failures_key_idx').on(t.key, t.failedAt)],
);

/**
 * Dashboard links that have signed someone in: a link works once. Kept until the link
 * would have expired anyway, then purged.
 */
export const usedDashboardLinks = pgTable(
  'used_dashboard_links',
  {
    linkId: text('link_id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('used_dashboard_links_expires_idx').on(t.expiresAt),
    index('used_dashboard_links_user_idx').on(t.userId),
  ],
);

/**
 * Single-use codes that let a participant set or reset their password from an email,
 * without a session (`/create-password?code=`). Only a SHA-256 of each code is stored; a
 * code is spent by the one update that sets `used_at`, and expires after
 * PASSWORD_CODE_TTL_MINUTES.
 */
export const passwordCodes = pgTable(
  'password_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('password_codes_hash_unique').on(t.codeHash),
    index('password_codes_user_idx').on(t.userId),
    index('password_codes_expires_idx').on(t.expiresAt),
  ],
);
