import { AsyncLocalStorage } from 'node:async_hooks';
import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { rowsOf, type Db, type Executor, type Tx } from '../../db/client.js';
import type { AuditChanges } from '../../db/schema/index.js';
import type { FileStorage } from '../../lib/storage.js';
import { canonicalJson, type AuditEventInput } from './audit-chain.js';

/** What a service that writes its call's event itself needs (`takeCallEvent`). */
export { appendAuditEvents, eventRow, type AuditEventInput } from './audit-chain.js';

/**
 * The call being recorded: what its event will say, gathered as the call runs, and the
 * transaction the call's statements run in. Services add what only they know (the record
 * changed, its fields before and after, its project) through the `audit…` functions below,
 * which do nothing outside a recorded call (a background job, a test calling a service).
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
  /** The call's transaction while it is open; every statement of the call runs in it. */
  tx: Tx | null;
  /** Work to do once the call's transaction has committed (a worker's wake-up, a file's removal). */
  afterCommit: (() => void | Promise<void>)[];
  /** Files the call stored: its own to remove at once. */
  newFiles: Set<string>;
  /** Work to undo what is not the database's if the call rolls back (a file it stored). */
  onRollback: (() => Promise<void>)[];
  /** The call's event as it stands (set by the recorder): for a service that writes it itself. */
  eventNow: (() => AuditEventInput) | null;
  /** The service wrote the call's event itself, in its own statement (`takeCallEvent`). */
  recorded: boolean;
}

const storage = new AsyncLocalStorage<CallRecord>();

export function newCallRecord(action: string, actor: AuditActor | null): CallRecord {
  return {
    action,
    actor,
    target: null,
    projectId: null,
    clientId: null,
    changes: null,
    tx: null,
    afterCommit: [],
    newFiles: new Set(),
    onRollback: [],
    eventNow: null,
    recorded: false,
  };
}

/** Runs `work` as part of the call `record` (its statements in `record.tx` while one is set). */
export function runInCall<T>(record: CallRecord, work: () => Promise<T>): Promise<T> {
  return storage.run(record, work);
}

export function currentCall(): CallRecord | undefined {
  return storage.getStore();
}

/**
 * The app's database handle as services hold it: each property is the call's transaction's
 * while a recorded call runs, the database's otherwise. A service's own `db.transaction`
 * inside a call becomes a savepoint in the call's transaction. So every statement of a call,
 * whichever repository makes it, commits with the call's event or rolls back with it.
 */
export function callScopedDb(root: Db): Db {
  return new Proxy(root, {
    get(target, property) {
      const source = storage.getStore()?.tx ?? target;
      const value: unknown = Reflect.get(source, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(source) : value;
    },
  });
}

/**
 * Runs `work` once the current call has committed, and not at all if it rolls back (at once
 * outside a call): a worker woken while the call's transaction is open would look for the job
 * before it is there to see; a file removed before the commit would be gone from a record the
 * rollback keeps. The call answers once its `work` is done.
 */
export function afterCommit(work: () => void | Promise<void>): void {
  const record = storage.getStore();
  if (record?.tx) record.afterCommit.push(work);
  else void storage.exit(work);
}

/**
 * A file store that follows the recorded call's transaction. A file the call stored is its
 * own: removed at once when the call removes it (a refused upload), and removed if the call
 * rolls back (no record holds it). A file stored before the call is removed once the call has
 * committed (see `afterCommit`): the service goes on at once, the call answers once it is gone.
 */
export function removalsAfterCommit(files: FileStorage): FileStorage {
  const stored = (key: string) => {
    const record = storage.getStore();
    if (!record?.tx) return;
    record.newFiles.add(key);
    // Rolled back, no record holds it (already gone, when the call removed it itself).
    record.onRollback.push(() => files.remove(key).catch(() => undefined));
  };
  return {
    ...files,
    async put(key, content) {
      stored(key);
      await files.put(key, content);
    },
    async putStream(key, content) {
      stored(key);
      return files.putStream(key, content);
    },
    remove(key) {
      const record = storage.getStore();
      if (!record?.tx || record.newFiles.delete(key)) return files.remove(key);
      afterCommit(() => files.remove(key));
      return Promise.resolve();
    },
  };
}

/**
 * The current call's event, for a service that writes it in the very statement (or
 * transaction) of its change — a hot path that opens no call transaction (see
 * `statementRecordedCalls`). Taking it tells the recorder the event is written; null outside
 * such a call.
 */
export function takeCallEvent(): AuditEventInput | null {
  const record = storage.getStore();
  if (!record?.eventNow || record.tx || record.recorded) return null;
  record.recorded = true;
  return record.eventNow();
}

/** The record the call changed (the event's target). The last said wins. */
export function auditTarget(type: string, id: string): void {
  const record = storage.getStore();
  if (record) record.target = { type, id };
}

/**
 * The project (and its client) whose data the call touched: what a client administrator's
 * log and a project's History show. The first said wins: the access check that names it
 * runs before anything else the call reaches.
 */
export function auditProject(projectId: string, clientId: string): void {
  const record = storage.getStore();
  if (!record || record.projectId) return;
  record.projectId = projectId;
  record.clientId ??= clientId;
}

/** The client whose data the call touched, where no project says it. */
export function auditClient(clientId: string): void {
  const record = storage.getStore();
  if (record) record.clientId ??= clientId;
}

/** Who the call acted as, where the caller was not signed in before it (a sign-in). */
export function auditActor(actor: AuditActor): void {
  const record = storage.getStore();
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
  const record = storage.getStore();
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
  const record = storage.getStore();
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
  const record = storage.getStore();
  if (!record || ids.length === 0) return;
  const rows = rowsOf<{ row: Row }>(
    await db.execute(sql`
      select to_jsonb(t) as row from ${sql.identifier(getTableName(table))} t
      where t.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid) order by t.id`),
  );
  record.changes = { ...record.changes, ...removedChanges(rows.map((found) => found.row)) };
}
