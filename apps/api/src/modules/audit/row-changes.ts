import { sql } from 'drizzle-orm';
import type { RouteDefinition } from '@pss/contract';
import { rowsOf, type Tx } from '../../db/client.js';
import type { AuditChanges } from '../../db/schema/index.js';
import { changedFields } from './audit-scope.service.js';

/**
 * Before and after for an update whose service does not say them itself: the record's row is
 * read in the call's transaction before its handler runs and again after, and each field the
 * call sent that is a column of the row is kept if its value changed, with the value it had
 * and the one it has. (Cases, projects and users say theirs: their services know the record
 * as the screens show it.)
 */

/** The tables of records updated in place by `PUT /<records>/:id`, by the path's first segment. */
const updatedRowTables: Record<string, string> = {
  clients: 'clients',
  cmes: 'cmes',
  'module-library': 'modules',
  'resource-library': 'resources',
  'survey-templates': 'survey_templates',
};

/** Each route's table of rows updated in place (null: none), worked out once a route. */
const routeTables = new WeakMap<RouteDefinition, string | null>();

function tableOf(definition: RouteDefinition): string | null {
  let table = routeTables.get(definition);
  if (table === undefined) {
    const match = definition.method === 'PUT' ? /^\/([\w-]+)\/:id$/.exec(definition.path) : null;
    table = (match && updatedRowTables[match[1]!]) ?? null;
    routeTables.set(definition, table);
  }
  return table;
}

/** The table and id of the row a call updates, or null when the call is not such an update. */
export function updatedRow(definition: RouteDefinition, params: unknown): { table: string; id: string } | null {
  const table = tableOf(definition);
  const id = (params as { id?: unknown } | null)?.id;
  // Not a uuid: no row has it (the handler refuses it with its own error).
  if (!table || typeof id !== 'string' || !/^[0-9a-f-]{36}$/i.test(id)) return null;
  return { table, id };
}

/** The row as JSON (the column names as the database spells them), or null when there is none. */
export async function readRow(tx: Tx, row: { table: string; id: string }): Promise<Record<string, unknown> | null> {
  const [found] = rowsOf<{ row: Record<string, unknown> }>(
    await tx.execute(sql`select to_jsonb(t) as row from ${sql.identifier(row.table)} t where t.id = ${row.id}`),
  );
  return found?.row ?? null;
}

/**
 * What the call changed: each field it sent that is a column of the row, if its value changed
 * (before and after as the row held them); a sent field that is no column (a nested part) as
 * `sent` records it.
 */
export function rowChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  body: unknown,
  sent: AuditChanges,
): AuditChanges {
  const changes: AuditChanges = {};
  const fields = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
  for (const field of fields) {
    if (field in after) Object.assign(changes, changedFields({ [field]: before[field] }, { [field]: after[field] }));
    else if (sent[field]) changes[field] = sent[field];
  }
  return changes;
}
