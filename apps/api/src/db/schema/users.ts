import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { userRoles } from '@pss/contract';
import { clients } from './clients.js';

/**
 * Everyone who signs in: provider staff (SUPERADMIN), client administrators (ADMIN,
 * exactly one client) and participants (USER, HALFUSER, TESTUSER).
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased; unique across the platform. */
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    role: text('role', { enum: userRoles }).notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    clientId: uuid('client_id').references(() => clients.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    index('users_client_id_idx').on(t.clientId),
    check('users_role_check', sql`${t.role} in ('SUPERADMIN', 'ADMIN', 'USER', 'HALFUSER', 'TESTUSER')`),
    check('users_email_lowercase', sql`${t.email} = lower(${t.email})`),
    // A client administrator belongs to exactly one client; provider staff to none.
    check(
      'users_admin_has_client',
      sql`(${t.role} <> 'ADMIN' or ${t.clientId} is not null) and (${t.role} <> 'SUPERADMIN' or ${t.clientId} is null)`,
    ),
  ],
);
