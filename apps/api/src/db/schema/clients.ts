import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uuid, uniqueIndex, index } from 'drizzle-orm/pg-core';

/** A client of the provider: an organisation whose clinicians take the simulations. */
export const clients = pgTable(
  'clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** CAP member number; unique among clients when present. */
    capId: text('cap_id'),
    capStatus: text('cap_status'),
    /** Who participants write to or call ({email}, {phone}); null: SUPPORT_EMAIL / SUPPORT_PHONE. */
    supportEmail: text('support_email'),
    supportPhone: text('support_phone'),
    /** Whom the provider writes to at the client. */
    contactEmail: text('contact_email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('clients_cap_id_unique')
      .on(t.capId)
      .where(sql`${t.capId} is not null`),
    index('clients_name_idx').on(sql`lower(${t.name})`, t.id),
    index('clients_created_at_idx').on(t.createdAt, t.id),
    // Substring search (ILIKE '%…%') by index.
    index('clients_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('clients_cap_id_trgm_idx').using('gin', sql`${t.capId} gin_trgm_ops`),
  ],
);
