import { sql, type SQL } from 'drizzle-orm';
import type { RouteDefinition } from '@pss/contract';
import { rowsOf, type Executor } from '../../db/client.js';
import type { AuditChanges } from '../../db/schema/index.js';
import { changedFields, removedChanges, type AuditEventInput, type CallRecord } from './audit-scope.service.js';
import { sentFields } from './sent-fields.js';

/**
 * Before and after for an update whose service does not say them itself: the record's row is
 * read in the call's transaction before its handler runs and again after, and each field the
 * call sent that is a column of the row is kept if its value changed, with the value it had
 * and the one it has. A call that sends nothing (an archive, a restore) keeps every column it
 * changed. (Cases, projects and users saved whole say theirs: their services know the record as
 * the screens show it.)
 *
 * A delete is read the same way: its row gone after the handler, the event keeps the row's
 * fields as `before`, with `after` null (credentials out, at every depth). A call that removes
 * rows it picks (a selection) says them itself, before it deletes them (`auditRemovedRows`).
 */

/** A key's value that stands for the caller's own id (their second factor is theirs alone). */
const CALLER = ':caller';

/** Where an updated row is: its table, and its key's columns, each from a path parameter (or the caller). */
interface RowPlace {
  table: string;
  key: Record<string, string>;
}

/** The routes that update or remove one row in place, by method and path. */
const updatedRows: Record<string, RowPlace> = {
  'PUT /clients/:id': { table: 'clients', key: { id: 'id' } },
  'PUT /cmes/:id': { table: 'cmes', key: { id: 'id' } },
  'PUT /module-library/:id': { table: 'modules', key: { id: 'id' } },
  'PUT /resource-library/:id': { table: 'resources', key: { id: 'id' } },
  'PUT /survey-templates/:id': { table: 'survey_templates', key: { id: 'id' } },
  'POST /cases/:id/status': { table: 'cases', key: { id: 'id' } },
  'POST /projects/:id/archive': { table: 'projects', key: { id: 'id' } },
  'POST /projects/:id/restore': { table: 'projects', key: { id: 'id' } },
  'PUT /projects/:id/survey': { table: 'project_surveys', key: { project_id: 'id' } },
  'PUT /users/:userId/display-name': { table: 'users', key: { id: 'userId' } },
  'PUT /users/:userId/mobile-number': { table: 'users', key: { id: 'userId' } },
  'PUT /users/:userId/:projectId/notes': {
    table: 'project_participants',
    key: { user_id: 'userId', project_id: 'projectId' },
  },
  // Deletes of the row the path names (a file taken off a case or a summary: the columns it cleared).
  'DELETE /clients/:id': { table: 'clients', key: { id: 'id' } },
  'DELETE /cmes/:id': { table: 'cmes', key: { id: 'id' } },
  'DELETE /disease-types/:id': { table: 'disease_types', key: { id: 'id' } },
  'DELETE /question-categories/:id': { table: 'question_categories', key: { id: 'id' } },
  'DELETE /module-library/:id': { table: 'modules', key: { id: 'id' } },
  'DELETE /projects/:id': { table: 'projects', key: { id: 'id' } },
  'DELETE /previews/:id': { table: 'case_previews', key: { id: 'id' } },
  'DELETE /cases/:id/image': { table: 'cases', key: { id: 'id' } },
  'DELETE /season-summaries/:id/sheet': { table: 'season_summaries', key: { id: 'id' } },
  'DELETE /season-summaries/:id/video': { table: 'season_summaries', key: { id: 'id' } },
  'DELETE /auth/mfa/webauthn/:id': { table: 'passkeys', key: { id: 'id' } },
  'DELETE /auth/mfa/totp': { table: 'totp_factors', key: { user_id: CALLER } },
};

/**
 * Calls that remove rows their service names (`auditRemovedRows`): a selection, or a case
 * deleted under the case rules. With the places above, every delete the trail records.
 */
export const serviceNamedRemovals = new Set([
  'cases.remove',
  'cases.removeFromProject',
  // An address taken off the suppression list: the suppressions service says the row it removed.
  'emailSuppressions.lift',
  'moduleLibrary.removeCases',
  'resources.remove',
  'surveys.remove',
]);

/** Calls that remove no row: a sign-out ends its sessions, which are kept (revoked). */
export const removalsOfNoRow = new Set(['auth.logoutStaff', 'auth.logoutParticipant']);

/** Whether the trail keeps a before state for a call that removes rows named by its path (or caller). */
export function removesNamedRow(definition: RouteDefinition): boolean {
  return `${definition.method} ${definition.path}` in updatedRows;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The row a call updates: its table and the condition that finds it; null when it is no such update. */
export interface UpdatedRow {
  table: string;
  where: SQL;
}

export function updatedRow(definition: RouteDefinition, params: unknown, callerId?: string | null): UpdatedRow | null {
  const place = updatedRows[`${definition.method} ${definition.path}`];
  if (!place) return null;
  const conditions: SQL[] = [];
  for (const [column, param] of Object.entries(place.key)) {
    const value = param === CALLER ? callerId : (params as Record<string, unknown> | null)?.[param];
    // Not a uuid: no row has it (the handler refuses it with its own error).
    if (typeof value !== 'string' || !uuidPattern.test(value)) return null;
    conditions.push(sql`t.${sql.identifier(column)} = ${value}`);
  }
  return { table: place.table, where: sql.join(conditions, sql` and `) };
}

/** The row as JSON (the column names as the database spells them), or null when there is none. */
export async function readRow(tx: Executor, row: UpdatedRow): Promise<Record<string, unknown> | null> {
  const [found] = rowsOf<{ row: Record<string, unknown> }>(
    await tx.execute(sql`select to_jsonb(t) as row from ${sql.identifier(row.table)} t where ${row.where}`),
  );
  return found?.row ?? null;
}

/**
 * What the call changed: each field it sent that is a column of the row, if its value changed
 * (before and after as the row held them); a sent field that is no column (a nested part) as
 * `sent` records it. A call that sent no fields: every column it changed. A row gone: each of
 * its fields, as it was.
 */
export function rowChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown> | null,
  body: unknown,
  sent: AuditChanges,
): AuditChanges {
  if (!after) return removedChanges([before]);
  const fields = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
  if (fields.length === 0) return changedFields(before, after);
  const changes: AuditChanges = {};
  for (const field of fields) {
    if (field in after) Object.assign(changes, changedFields({ [field]: before[field] }, { [field]: after[field] }));
    else if (sent[field]) changes[field] = sent[field];
  }
  return changes;
}

/** The row a call updates or removes in place (the list above), as it was before its handler ran. */
export interface RowBefore {
  place: UpdatedRow;
  row: Record<string, unknown>;
}

/**
 * Read before a call's handler runs, in `db` (the call's transaction, or the database for a call
 * whose statements stand on their own): null when the call is no such update, or the row is not there.
 */
export async function rowBefore(
  db: Executor,
  definition: RouteDefinition,
  params: unknown,
  callerId: string | null | undefined,
): Promise<RowBefore | null> {
  const place = updatedRow(definition, params, callerId);
  const row = place ? await readRow(db, place) : null;
  return place && row ? { place, row } : null;
}

/**
 * Read again after the handler: when its service said no before and after, the row's are the
 * call's changes.
 */
export async function keepRowChanges(
  db: Executor,
  record: CallRecord,
  before: RowBefore,
  body: unknown,
): Promise<void> {
  if (record.changes) return;
  const after = await readRow(db, before.place);
  record.changes = rowChanges(before.row, after, body, sentFields(record.action, body));
}

/**
 * An event about a client's member (its target a user of a client) that no check gave a client
 * is that client's, whoever acted (a superadmin creating their account or resetting their
 * second factor; a participant signing in, whose answer names no client): the client's
 * administrators read it.
 */
export async function ofMembersClient(db: Executor, event: AuditEventInput): Promise<AuditEventInput> {
  if (event.clientId || event.target?.type !== 'user' || !uuidPattern.test(event.target.id)) return event;
  const [found] = rowsOf<{ client_id: string | null }>(
    await db.execute(sql`select client_id from users where id = ${event.target.id}`),
  );
  return found?.client_id ? { ...event, clientId: found.client_id } : event;
}
