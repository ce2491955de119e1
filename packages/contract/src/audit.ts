import { z } from 'zod';
import { ReportFormat } from './reports.js';
import { MAX_PAGE_SIZE } from './list-query.js';
import { requiredText } from './text-fields.js';

/**
 * The audit trail as outside tools read it (issue #33's wire shapes, kept stable): events
 * newest first, paged by an opaque cursor; the chain's check; the same events as a file.
 */

const id = z.string().uuid();

export const auditEvent = z.object({
  id,
  at: z.string(),
  actor: z.object({
    id: id.nullable(),
    email: z.string().nullable(),
    /** A user's role, or SYSTEM for the app's own work. */
    role: z.string(),
    client_id: id.nullable(),
  }),
  /** A contract route's name (`cases.update`) or a named system action (`scheduler.send`). */
  action: z.string(),
  target: z.object({ type: z.string(), id: z.string() }).nullable(),
  project_id: id.nullable(),
  client_id: id.nullable(),
  request_id: z.string().nullable(),
  ip: z.string().nullable(),
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
  /** `success`, or the catalogue code the call was refused with. */
  outcome: z.string(),
  /**
   * Whose account the event is of, as the account reads now (read beside the event, no part
   * of it, its chain or its export): the actor's; for a step taken before a session existed
   * (a sign-in's, an unlock's) that recorded no actor, the account it names — its user target,
   * or the account of the address given. Null for the app's own work and where no account is
   * known (an address no account has).
   */
  account: z.object({ id, name: z.string(), email: z.string(), role: z.string() }).nullable().optional(),
  /** Null until the event is sealed into the hash chain (within a few seconds of its commit; the verify call seals first). */
  hash: z.string().nullable(),
  prev_hash: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof auditEvent>;

/** A moment, with its offset: `2026-11-26T09:00:00Z`. */
const moment = z.iso.datetime({ offset: true });

/** The log's filters, as the list and the export take them. */
const auditFilters = z.object({
  actor_id: id.optional(),
  action: requiredText(120).optional(),
  target_type: requiredText(60).optional(),
  target_id: requiredText(200).optional(),
  project_id: id.optional(),
  /** From this moment on (inclusive). */
  from: moment.optional(),
  /** Up to this moment (exclusive). */
  to: moment.optional(),
});

export const auditEventsQuery = auditFilters.extend({
  /** The `next_cursor` of the page before; none for the newest page. */
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, 'a cursor this call answered')
    .optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
});
export type AuditEventsQuery = z.infer<typeof auditEventsQuery>;

export const auditEventsPage = z.object({
  items: z.array(auditEvent),
  /** The cursor of the next (older) page; null on the last. */
  next_cursor: z.string().nullable(),
});

export const auditExportQuery = auditFilters.extend({ format: ReportFormat.default('csv') });
export type AuditExportQuery = z.infer<typeof auditExportQuery>;

/**
 * What the chain's check can find (issue #46): an event or link changed (`ALTERED`), an event
 * or link gone (`MISSING`), an event never sealed into the chain (`NOT_ON_CHAIN`), an event
 * dated before the events chained ahead of it (`TIME_BACKWARDS`), the newest events gone past
 * what a checkpoint saw (`TAIL_MISSING`), a checkpoint whose signature does not hold
 * (`CHECKPOINT_FORGED`).
 */
export const AuditChainProblemKind = z.enum([
  'ALTERED',
  'MISSING',
  'NOT_ON_CHAIN',
  'TIME_BACKWARDS',
  'TAIL_MISSING',
  'CHECKPOINT_FORGED',
]);
export type AuditChainProblemKind = z.infer<typeof AuditChainProblemKind>;

export const auditChainProblem = z.object({
  kind: AuditChainProblemKind,
  /** The event it concerns, when one can be named. */
  id: id.nullable(),
  detail: z.string(),
});
export type AuditChainProblem = z.infer<typeof auditChainProblem>;

export const auditVerdict = z.object({
  ok: z.boolean(),
  /** The links that hold before the first problem (all of them when the chain holds). */
  checked: z.number().int(),
  /** The first event named by a problem (altered, removed, never sealed, out of time…). */
  first_broken_id: id.nullable(),
  /** Every problem found, in the chain's order (at most 100). */
  problems: z.array(auditChainProblem),
});
export type AuditVerdict = z.infer<typeof auditVerdict>;

/**
 * The chain's head as the app saw it at a moment, signed with its key and kept outside the
 * database (a file under DATA_DIR, and the log): what shows the newest events were removed.
 */
export const auditCheckpoint = z.object({
  /** The hash of the chain's first link: which chain it is. */
  chain: z.string(),
  place: z.number().int(),
  hash: z.string(),
  at: z.string(),
  signature: z.string(),
});
export type AuditCheckpoint = z.infer<typeof auditCheckpoint>;

export const auditCheckpointsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const auditCheckpointsPage = z.object({
  /** Newest first; only this chain's. */
  items: z.array(auditCheckpoint),
});
