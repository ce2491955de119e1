import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** What a change did to a record's fields: each field's value before and after. */
export type AuditChanges = Record<string, { before: unknown; after: unknown }>;

/**
 * The audit trail: one append-only row per event (a change, a sign-in, a download, a send),
 * chained by hash. `seq` is the event's place in the one chain (1, 2, …, without gaps), given
 * under an advisory lock by `modules/audit/audit-chain.ts`; `hash` is the SHA-256 of
 * `prev_hash` and the event's canonical content, so altering, removing or inserting a row
 * breaks the chain at that row. The database refuses UPDATE, DELETE and TRUNCATE on the table
 * (a trigger, migration 0032). No foreign keys: an event outlives the records it names.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    /** A UUID v7: its time order is the events' order. */
    id: uuid('id').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    /** A user's role, or `SYSTEM` for the app's own work (the scheduler, imports, thumbnails). */
    actorRole: text('actor_role').notNull(),
    actorClientId: uuid('actor_client_id'),
    /** The contract route's name (`cases.update`) or a named system action (`scheduler.send`). */
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    projectId: uuid('project_id'),
    /** The client whose data the event touched: what a client administrator may read. */
    clientId: uuid('client_id'),
    requestId: text('request_id'),
    ip: text('ip'),
    changes: jsonb('changes').$type<AuditChanges>().notNull(),
    /** `success`, or the catalogue error code the call was refused with. */
    outcome: text('outcome').notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('audit_events_id_unique').on(t.id),
    // The log's filters, each newest first by seq (keyset paging).
    index('audit_events_client_idx').on(t.clientId, t.seq),
    index('audit_events_actor_idx').on(t.actorId, t.seq),
    index('audit_events_target_idx').on(t.targetType, t.targetId, t.seq),
    index('audit_events_project_idx').on(t.projectId, t.seq),
    index('audit_events_action_idx').on(t.action, t.seq),
    index('audit_events_at_idx').on(t.at),
  ],
);
