import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { rowsOf, type Executor } from '../../db/client.js';
import type { AuditChanges } from '../../db/schema/index.js';
import { currentUnit, UnitKey } from '../../db/unit-of-work.js';
import { canonicalJson, type AuditEventInput } from './audit-chain.js';

/** What a service that writes its call's event itself needs (`takeCallEvent`). */
export { appendAuditEvents, eventRow, type AuditEventInput } from './audit-chain.js';

/**
 * The call being recorded: what its event will say, gathered as the call runs. It is kept with
 * the call's unit of work (db/unit-of-work.ts), which the call recorder follows. Services add
 * what only they know (the record changed, its fields before and after, its project) through
 * the `audit…` functions below, which do nothing outside a recorded call (a background job, a
 * test calling a service).
 */
export interface AuditActor {
  id: string | null;
  email: string | null;
  /** A user's role, or SYSTEM for the app's own work. */
  role: string;
  clientId: string | null;
}

export interface CallRecord {
  action: string;
  actor: AuditActor | null;
  target: { type: string; id: string } | null;
  projectId: string | null;
  clientId: string | null;
  /** The changed fields as the service said them; null: the call's body stands for them. */
  changes: AuditChanges | null;
  /** The call's event as it stands (set by the recorder): for a service that writes it itself. */
  eventNow: (() => AuditEventInput) | null;
  /** The service wrote the call's event itself, in its own statement (`takeCallEvent`). */
  recorded: boolean;
}

/** Where a unit keeps the record of its call. */
export const callRecordKey = new UnitKey<CallRecord>('audit: the call recorded');

export function newCallRecord(action: string, actor: AuditActor | null): CallRecord {
  return {
    action,
    actor,
    target: null,
    projectId: null,
    clientId: null,
    changes: null,
    eventNow: null,
    recorded: false,
  };
}

/** The record of the call the current code runs in, if it is recorded. */
function currentRecord(): CallRecord | undefined {
  return currentUnit()?.get(callRecordKey);
}

/**
 * The current call's event, for a service that writes it in the very statement (or
 * transaction) of its change — a hot path whose call opens no transaction (its route's
 * `eventInStatement`). Taking it tells the recorder the event is written; null outside such a
 * call.
 */
export function takeCallEvent(): AuditEventInput | null {
  const unit = currentUnit();
  const record = unit?.get(callRecordKey);
  if (!record?.eventNow || unit?.tx || record.recorded) return null;
  record.recorded = true;
  return record.eventNow();
}

/** The record the call changed (the event's target). The last said wins. */
export function auditTarget(type: string, id: string): void {
  const record = currentRecord();
  if (record) record.target = { type, id };
}

/**
 * The project (and its client) whose data the call touched: what a client administrator's
 * log and a project's History show. The first said wins: the access check that names it
 * runs before anything else the call reaches.
 */
export function auditProject(projectId: string, clientId: string): void {
  const record = currentRecord();
  if (!record || record.projectId) return;
  record.projectId = projectId;
  record.clientId ??= clientId;
}

/** The client whose data the call touched, where no project says it. */
export function auditClient(clientId: string): void {
  const record = currentRecord();
  if (record) record.clientId ??= clientId;
}

/** Who the call acted as, where the caller was not signed in before it (a sign-in). */
export function auditActor(actor: AuditActor): void {
  const record = currentRecord();
  if (record) record.actor = actor;
}

/** What a password set leaves in the trail: that it changed, and whether there was one before. */
export const PASSWORD_SET = '[set]';
export const PASSWORD_NONE = '[none]';
export const PASSWORD_CHANGED = '[changed]';

/**
 * The call set a password: the event says so as a changed field with fixed markers, never the
 * value nor its hash (the one field named for a credential an event holds).
 */
export function auditPasswordChanged(hadOne: boolean): void {
  const record = currentRecord();
  if (!record) return;
  record.changes = {
    ...record.changes,
    password: { before: hadOne ? PASSWORD_SET : PASSWORD_NONE, after: PASSWORD_CHANGED },
  };
}

type Fields = Record<string, unknown>;

/** Fields every save changes, which say nothing of what changed. */
const unrecordedFields = new Set(['updated_at', 'updatedAt', 'version']);

/**
 * The fields a call changed, each before and after. For an update, the fields of `after` whose
 * value differs from `before`'s; for a record created, `before` is null (every field from
 * nothing); for one removed, `after` is null. Credentials are never kept.
 */
export function auditChanges(before: Fields | null, after: Fields | null): void {
  const record = currentRecord();
  if (!record) return;
  record.changes = { ...record.changes, ...changedFields(before, after) };
}

export function changedFields(before: Fields | null, after: Fields | null): AuditChanges {
  const keys = after ? Object.keys(after) : Object.keys(before ?? {});
  const changes: AuditChanges = {};
  for (const key of keys) {
    if (isCredentialField(key) || unrecordedFields.has(key)) continue;
    const was = before?.[key] ?? null;
    const is = after?.[key] ?? null;
    // A field set or cleared changed, with no need to compare (a created record, an answer).
    if (was === null || is === null ? was !== is : canonicalJson(was) !== canonicalJson(is)) {
      changes[key] = { before: was, after: is };
    }
  }
  return changes;
}

/**
 * Fields that hold a credential, by name: never written into an event, whatever call sent
 * them (a password, a code, a token, a secret, a hash of one, a passkey's credential).
 */
const credentialName =
  /pass(word)?|token|secret|hash|otp|code$|^code|recovery|signature|cookie|credential|public_?key/i;

export function isCredentialField(name: string): boolean {
  return credentialName.test(name);
}

/** Credentials out, at every depth: a value kept in an event never holds one. */
export function withoutCredentials(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  // A value nested past any the contract's bodies hold is sent by no screen: it is named, not
  // kept (thousands of levels passed the database's stack depth and the call answered 500).
  if (depth >= MAX_RECORDED_DEPTH) return NESTED_TOO_DEEP;
  if (Array.isArray(value)) return value.map((inner) => withoutCredentials(inner, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key]) => !isCredentialField(key))
      .map(([key, inner]) => [key, withoutCredentials(inner, depth + 1)]),
  );
}

/** How deep a sent value is recorded, and what stands for what lies deeper. */
const MAX_RECORDED_DEPTH = 16;
const NESTED_TOO_DEEP = '(nested too deep to record)';

type Row = Record<string, unknown>;

/**
 * Rows removed, as an event keeps them: one row, each of its fields as `before` with `after`
 * null; several, each row whole under its id. Credentials are dropped at every depth.
 */
export function removedChanges(rows: Row[]): AuditChanges {
  const kept = rows.map((row) => withoutCredentials(row) as Row);
  if (kept.length === 1) return changedFields(kept[0]!, null);
  return Object.fromEntries(kept.map((row, place) => [String(row.id ?? place), { before: row, after: null }]));
}

/**
 * Said by a service before it deletes rows it picked (a selection, cases under the case rules):
 * they are read where the service deletes them (`db`, in the call's transaction) and kept as the
 * event's `before`. Nothing outside a recorded call, or for no rows.
 */
export async function auditRemovedRows(db: Executor, table: PgTable, ids: readonly string[]): Promise<void> {
  const record = currentRecord();
  if (!record || ids.length === 0) return;
  const rows = rowsOf<{ row: Row }>(
    await db.execute(sql`
      select to_jsonb(t) as row from ${sql.identifier(getTableName(table))} t
      where t.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid) order by t.id`),
  );
  record.changes = { ...record.changes, ...removedChanges(rows.map((found) => found.row)) };
}
