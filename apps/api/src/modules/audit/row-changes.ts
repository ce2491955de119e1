import { sql, type SQL } from 'drizzle-orm';
import type { RouteDefinition } from '@pss/contract';
import { rowsOf, type Tx } from '../../db/client.js';
import type { AuditChanges } from '../../db/schema/index.js';
import { changedFields } from './audit-scope.service.js';

/**
 * Before and after for an update whose service does not say them itself: the record's row is
 * read in the call's transaction before its handler runs and again after, and each field the
 * call sent that is a column of the row is kept if its value changed, with the value it had
 * and the one it has. A call that sends nothing (an archive, a restore) keeps every column it
 * changed. (Cases, projects and users saved whole say theirs: their services know the record as
 * the screens show it.)
 */

/** Where an updated row is: its table, and its key's columns, each from a path parameter. */
interface RowPlace {
  table: string;
  key: Record<string, string>;
}

/** The routes that update one row in place, by method and path. */
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
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The row a call updates: its table and the condition that finds it; null when it is no such update. */
export interface UpdatedRow {
  table: string;
  where: SQL;
}

export function updatedRow(definition: RouteDefinition, params: unknown): UpdatedRow | null {
  const place = updatedRows[`${definition.method} ${definition.path}`];
  if (!place) return null;
  const conditions: SQL[] = [];
  for (const [column, param] of Object.entries(place.key)) {
    const value = (params as Record<string, unknown> | null)?.[param];
    // Not a uuid: no row has it (the handler refuses it with its own error).
    if (typeof value !== 'string' || !uuidPattern.test(value)) return null;
    conditions.push(sql`t.${sql.identifier(column)} = ${value}`);
  }
  return { table: place.table, where: sql.join(conditions, sql` and `) };
}

/** The row as JSON (the column names as the database spells them), or null when there is none. */
export async function readRow(tx: Tx, row: UpdatedRow): Promise<Record<string, unknown> | null> {
  const [found] = rowsOf<{ row: Record<string, unknown> }>(
    await tx.execute(sql`select to_jsonb(t) as row from ${sql.identifier(row.table)} t where ${row.where}`),
  );
  return found?.row ?? null;
}

/**
 * What the call changed: each field it sent that is a column of the row, if its value changed
 * (before and after as the row held them); a sent field that is no column (a nested part) as
 * `sent` records it. A call that sent no fields: every column it changed.
 */
export function rowChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  body: unknown,
  sent: AuditChanges,
): AuditChanges {
  const fields = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
  if (fields.length === 0) return changedFields(before, after);
  const changes: AuditChanges = {};
  for (const field of fields) {
    if (field in after) Object.assign(changes, changedFields({ [field]: before[field] }, { [field]: after[field] }));
    else if (sent[field]) changes[field] = sent[field];
  }
  return changes;
}
