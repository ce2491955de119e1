import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** What a change did to a record's fields: each field's value before and after. */
export type AuditChanges = Record<string, { before: unknown; after: unknown }>;

/**
 * The one action the target and action indexes leave out: participants' answers, most of the
 * trail's events and the busiest statement's (see `ANSWERS_LEFT_OUT` in audit-events.repository.ts).
 */
export const UNINDEXED_ACTION = 'attempts.answer';

/**
 * The audit trail: one row per event (a change, a sign-in, a download, a send), never changed
 * once written. An event is inserted in its change's transaction with `seq` (the order of
 * insertion, from an identity), in a transaction that already has its id. The sealer
 * (`audit_seal`, migration 0037, called by `modules/audit/audit-chain.ts`) then gives it
 * its place in the one chain, a row of `audit_chain` (`chain_seq` 1, 2, … without gaps) holding
 * its `hash`, the SHA-256 of the previous link's hash and the event's canonical content
 * (`audit_event_hash`), so altering, removing or inserting an event breaks the chain there. The
 * database refuses UPDATE, DELETE and TRUNCATE on both tables (triggers, migrations 0032 to 0034).
 *
 * Why the chain is a table of its own: an event is written in the statement of the change it
 * records (a participant's answer), and every index on its table is written with it; sealing it
 * in place was an UPDATE of every one of them again. So the events keep only the log's filter
 * indexes, and the chain, written once per event by the sealer, keeps its two. No foreign keys:
 * an event outlives the records it names.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
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
  },
  (t) => [
    // The log's filters, each newest first by seq (keyset paging).
    index('audit_events_client_idx').on(t.clientId, t.seq),
    index('audit_events_actor_idx').on(t.actorId, t.seq),
    index('audit_events_project_idx').on(t.projectId, t.seq),
    // Without participants' answers: an answer's event writes two indexes fewer. An answer's
    // target is an attempt, which no screen asks for, and its action is the trail's commonest.
    index('audit_events_target_idx')
      .on(t.targetType, t.targetId, t.seq)
      .where(sql.raw(`action <> '${UNINDEXED_ACTION}'`)),
    index('audit_events_action_idx')
      .on(t.action, t.seq)
      .where(sql.raw(`action <> '${UNINDEXED_ACTION}'`)),
    // Time follows insertion: a block range index finds a date range for a fraction of a
    // B-tree's upkeep on every insert.
    index('audit_events_at_brin').using('brin', t.at),
  ],
);

/** The hash chain over the events: one link per event, in the order the sealer reached them. */
export const auditChain = pgTable(
  'audit_chain',
  {
    chainSeq: bigint('chain_seq', { mode: 'number' }).primaryKey(),
    eventSeq: bigint('event_seq', { mode: 'number' }).notNull(),
    /** The event's id, kept here too: a link whose event was removed still names it. */
    eventId: uuid('event_id').notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    /**
     * True for a link sealed with the app's key (HMAC-SHA256 of the previous hash and the
     * event's digest, migration 0045), which the database cannot recompute; false for the links
     * sealed before (plain SHA-256), which only come before the first keyed one.
     */
    keyed: boolean('keyed').notNull().default(false),
  },
  (t) => [uniqueIndex('audit_chain_event_seq_unique').on(t.eventSeq)],
);

/**
 * Where the sealer stands (one row, id 1): every event up to `examined_through` has been looked
 * for, and linked if it was there; `holes` are the places below it that were empty when looked
 * at — an event whose transaction was still open then (it is linked when it commits) or one
 * that rolled back (dropped once its `hole_horizons`, the first transaction id not yet running
 * when it was looked for, is older than every open transaction). See `audit_seal`, migration 0037.
 */
export const auditSealState = pgTable('audit_seal_state', {
  id: integer('id').primaryKey(),
  examinedThrough: bigint('examined_through', { mode: 'number' }).notNull(),
  holes: bigint('holes', { mode: 'number' }).array().notNull(),
  holeHorizons: bigint('hole_horizons', { mode: 'number' }).array().notNull(),
});
