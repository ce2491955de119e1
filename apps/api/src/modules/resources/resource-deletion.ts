import { and, inArray, notInArray, type SQL } from 'drizzle-orm';
import type { ResourceSelection } from '@pss/contract';
import { resources as resourcesTable } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import type { ResourceContext } from './resource-context.js';
import { createResourcesRepository, resourceConditions } from './resources.repository.js';
import { auditRemovedRows } from '../audit/audit-scope.service.js';

/** The selection's condition: ids, or the list's search and filter minus exceptions. */
function selectionCondition(selection: ResourceSelection): SQL | undefined {
  if ('ids' in selection) return inArray(resourcesTable.id, selection.ids);
  const conditions = resourceConditions(selection.search, selection.filter ?? {}, { clientId: null });
  const except = selection.except ?? [];
  if (except.length) conditions.push(notInArray(resourcesTable.id, except));
  return and(...conditions);
}

/** Deleting from the library, and the files of what was deleted. */
export function createResourceDeletion(context: ResourceContext) {
  const { deps, storage, today } = context;

  return {
    /**
     * Deletes a selection, all or nothing: if any resource in it is attached to a case, none
     * is deleted and the answer names each attached resource and its cases. The rows are
     * locked first, so an attachment made meanwhile waits and then finds them gone.
     */
    async remove(selection: ResourceSelection): Promise<{ ids: string[] }> {
      const removed = await deps.db.transaction(async (tx) => {
        const repo = createResourcesRepository(tx);
        const rows = await repo.lockSelected(selectionCondition(selection));
        if ('ids' in selection) {
          const found = new Set(rows.map((r) => r.id));
          if (selection.ids.some((id) => !found.has(id))) {
            throw new AppError('NOT_FOUND', { message: 'A resource of the selection could not be found.' });
          }
        }
        const uses = await repo.usesOf(
          rows.map((r) => r.id),
          today(),
        );
        if (uses.length) {
          const attached = rows
            .filter((r) => uses.some((u) => u.resource_id === r.id))
            .map((r) => ({
              id: r.id,
              name: r.name,
              cases: uses
                .filter((u) => u.resource_id === r.id)
                .map((u) => ({
                  id: u.case_id,
                  name: u.case_name,
                  project_name: u.project_name,
                  module_name: u.module_name,
                })),
            }));
          const named = attached
            .slice(0, 5)
            .map(
              (a) =>
                `"${a.name}" (attached to ${a.cases
                  .slice(0, 5)
                  .map((c) => `"${c.name}"`)
                  .join(', ')}${a.cases.length > 5 ? ` and ${a.cases.length - 5} more` : ''})`,
            )
            .join('; ');
          throw new AppError('RESOURCE_ATTACHED_DELETE_FORBIDDEN', {
            message: `Attached resources cannot be deleted; remove them from their cases first: ${named}${attached.length > 5 ? ` and ${attached.length - 5} more resources` : ''}.`,
            details: { resources: attached },
          });
        }
        await auditRemovedRows(
          tx,
          resourcesTable,
          rows.map((r) => r.id),
        );
        await repo.deleteIds(rows.map((r) => r.id));
        return rows;
      });
      // Files are no part of the transaction: they go once the rows are gone.
      for (const row of removed) {
        if (row.file) await storage.remove(row.file.key);
        if (row.thumbnailKey) await storage.remove(row.thumbnailKey);
      }
      return { ids: removed.map((r) => r.id) };
    },
  };
}
