import type { Paged, Resource, ResourceCategory, ResourceModalQuery } from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { Table } from '../../lib/table-writer.js';
import type { AccessClaims } from '../../lib/tokens.js';
import { createResourceAttachments } from './resource-attachments.js';
import { createResourceContext, type ResourcesDeps } from './resource-context.js';
import { createResourceDeletion } from './resource-deletion.js';
import { resourceLibraryTable } from './resource-export.js';
import { toResource } from './resource-mappers.js';
import { createResourceSignedFiles } from './resource-signed-files.js';
import { createResourceWrites } from './resource-writes.js';

export { copyCaseResources } from './resource-attachments.js';
export { toResource } from './resource-mappers.js';
export { normaliseLink } from './resource-names.js';
export type { ResourceDownload } from './resource-signed-files.js';

/**
 * The Resource Library: the provider's PDFs, images, videos, links and texts (managed by
 * superadmins), attached to cases in Case Setup (by whoever may edit the case), and read by
 * the participants whose cases they are attached to — their files only through signed
 * links that expire. A client administrator sees the attachment of resources to their own
 * client's cases only.
 *
 * Reading the library and its categories is here; writing (`resource-writes.ts`), deleting
 * (`resource-deletion.ts`), the export (`resource-export.ts`), signed file links
 * (`resource-signed-files.ts`) and attachment to cases (`resource-attachments.ts`) are their
 * own modules, on the one context (`resource-context.ts`).
 */
export function createResourcesService(deps: ResourcesDeps) {
  const context = createResourceContext(deps);
  const { repository, require, scopeOf } = context;

  return {
    async list(query: Parameters<typeof repository.list>[0]): Promise<Paged<Resource>> {
      const page = await repository.list(query, { clientId: null });
      return { ...page, items: page.items.map(toResource) };
    },

    /** The picker of Case Setup: a client administrator's attachment facts are of their own client's cases. */
    async modal(caller: AccessClaims, query: ResourceModalQuery): Promise<Paged<Resource>> {
      const scope = scopeOf(caller);
      if (query.client && scope.clientId && query.client !== scope.clientId) {
        throw new AppError('NOT_FOUND', { message: 'The client could not be found.' });
      }
      const page = await repository.list(
        {
          page: query.page,
          limit: query.limit,
          search: query.search,
          sort: [{ field: 'name', direction: 'ASC' }],
          filter: {
            ...(query.type ? { source_type: [query.type] } : {}),
            ...(query.category ? { category_id: query.category } : {}),
            ...(query.client ? { client_id: query.client } : {}),
            ...(query.attachmentStatus ? { attachment_status: query.attachmentStatus } : {}),
          },
        },
        scope,
      );
      return { ...page, items: page.items.map(toResource) };
    },

    async get(id: string): Promise<Resource> {
      return toResource(await require(id));
    },

    ...createResourceWrites(context),
    ...createResourceDeletion(context),

    async categories(): Promise<{ items: ResourceCategory[] }> {
      return { items: await repository.categories() };
    },

    /** Finds the category of that name regardless of case, or makes it. */
    async createCategory(name: string): Promise<ResourceCategory> {
      const { id, name: kept } = await repository.ensureCategory(name);
      return { id, name: kept };
    },

    exportTable(raw: { search?: string; filter?: string; sort?: string }): Table {
      return resourceLibraryTable(context, raw);
    },

    ...createResourceSignedFiles(context),
    ...createResourceAttachments(context),
  };
}

export type ResourcesService = ReturnType<typeof createResourcesService>;
