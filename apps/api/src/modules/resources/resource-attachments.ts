import type { CaseResources, ResourceCaseUse } from '@pss/contract';
import type { Executor } from '../../db/client.js';
import { isForeignKeyViolation } from '../../db/constraint-violations.js';
import { AppError, validationError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ResourceContext } from './resource-context.js';
import { toResource } from './resource-mappers.js';
import { createResourcesRepository } from './resources.repository.js';

/**
 * Copies of cases (duplicates, copies to a project or module) carry their original's
 * resources; run by the case transfers service inside the transaction that writes the copies.
 */
export function copyCaseResources(tx: Executor, pairs: { from: string; to: string }[]): Promise<void> {
  return createResourcesRepository(tx).copyAttachments(pairs);
}

/**
 * Resources attached to cases: where a resource is used (its cases and their clients), and a
 * case's resources as Case Setup reads and replaces them.
 */
export function createResourceAttachments(context: ResourceContext) {
  const { deps, repository, require, today, scopeOf } = context;

  return {
    async cases(id: string): Promise<{ items: ResourceCaseUse[] }> {
      await require(id);
      const uses = await repository.usesOf([id], today());
      return { items: uses.map(({ resource_id: _resource, ...use }) => use) };
    },

    async clients(id: string): Promise<{ items: { id: string; name: string }[] }> {
      await require(id);
      return { items: await repository.clientsOf(id) };
    },

    /** A case's resources, for whoever may see the case. */
    async ofCase(caller: AccessClaims, caseId: string): Promise<CaseResources> {
      await deps.cases.requireCase(caller, caseId);
      return { items: (await repository.ofCase(caseId, scopeOf(caller))).map(toResource) };
    },

    /**
     * Replaces a draft case's resources, in the order given. Published and active cases are
     * read-only (CHANGES_FORBIDDEN), as for every other part of a case.
     */
    async setOfCase(caller: AccessClaims, caseId: string, resourceIds: string[]): Promise<CaseResources> {
      const row = await deps.cases.requireCase(caller, caseId);
      if (row.effectiveStatus !== 'DRAFT') {
        throw new AppError('CHANGES_FORBIDDEN', { message: 'Published and active cases cannot be edited.' });
      }
      try {
        await deps.db.transaction(async (tx) => {
          const repo = createResourcesRepository(tx);
          // A share lock on each: a delete of one of them waits, or has happened.
          const found = await repo.existingIds(resourceIds);
          const missing = resourceIds.filter((id) => !found.includes(id));
          if (missing.length) {
            throw validationError([
              { field: 'body.resource_ids', message: `${missing.length} of the resources could not be found.` },
            ]);
          }
          await repo.setOfCase(caseId, resourceIds);
        });
      } catch (error) {
        if (isForeignKeyViolation(error)) throw new AppError('CASE_NOT_FOUND');
        throw error;
      }
      return { items: (await repository.ofCase(caseId, scopeOf(caller))).map(toResource) };
    },
  };
}
