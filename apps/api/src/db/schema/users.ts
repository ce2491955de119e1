import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { professions, userRoles } from '@pss/contract';
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
    // Participant details (spec §3). `employeeId` is the client's own ID for the clinician
    // (the `user_id` column of import files), unique within the client.
    employeeId: text('employee_id'),
    salutation: text('salutation'),
    secondaryEmail: text('secondary_email'),
    mobileNumber: text('mobile_number'),
    displayName: text('display_name'),
    npi: text('npi'),
    practiceNumber: text('practice_number'),
    facility: text('facility'),
    specialty: text('specialty'),
    profession: text('profession', { enum: professions }),
    managerFirstName: text('manager_first_name'),
    managerLastName: text('manager_last_name'),
    managerEmail: text('manager_email'),
    userType: text('user_type'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    index('users_last_name_idx').on(sql`lower(${t.lastName})`, t.id),
    index('users_created_at_idx').on(t.createdAt, t.id),
    // Employee IDs are unique within a client (NULLs never clash); the same index finds a
    // client's users, so no second index on client_id is paid for on every import row.
    uniqueIndex('users_client_employee_unique').on(t.clientId, t.employeeId),
    check('users_role_check', sql`${t.role} in (${sql.raw(userRoles.map((r) => `'${r}'`).join(', '))})`),
    check('users_email_lowercase', sql`${t.email} = lower(${t.email})`),
    // A client administrator belongs to exactly one client; provider staff to none.
    check(
      'users_admin_has_client',
      sql`(${t.role} <> 'ADMIN' or ${t.clientId} is not null) and (${t.role} <> 'SUPERADMIN' or ${t.clientId} is null)`,
    ),
  ],
);
