import { resourceListQuery } from '@pss/contract';
import { validationError } from '../../lib/errors.js';
import type { Table } from '../../lib/table-writer.js';
import type { ResourceContext } from './resource-context.js';

const statusText = {
  NOT_ATTACHED: 'Not attached',
  ATTACHED_ACTIVE: 'Attached (active)',
  ATTACHED_INACTIVE: 'Attached (inactive)',
};

/** The library as a file: the list's search, filter and sort, every matching row. */
export function resourceLibraryTable(
  { repository, today }: ResourceContext,
  raw: { search?: string; filter?: string; sort?: string },
): Table {
  const parsed = resourceListQuery.safeParse({ search: raw.search, filter: raw.filter, sort: raw.sort });
  if (!parsed.success) {
    throw validationError(
      parsed.error.issues.map((issue) => ({
        field: `querystring.${issue.path.join('.') || 'filter'}`,
        message: issue.message,
      })),
    );
  }
  const { search, filter, sort } = parsed.data;
  const pages = repository.pages(search, filter, sort);
  return {
    title: 'Resource library',
    fileName: `resource-library-${today()}`,
    columns: [
      { header: 'Name', width: 40 },
      { header: 'Type', width: 10 },
      { header: 'Categories', width: 30 },
      { header: 'Link', width: 40 },
      { header: 'File name', width: 30 },
      { header: 'File type', width: 18 },
      { header: 'Size (bytes)', kind: 'number' },
      { header: 'Attachment status', width: 20 },
      { header: 'Attached cases', kind: 'number' },
      { header: 'Details', width: 60 },
      { header: 'Created', kind: 'datetime' },
      { header: 'Updated', kind: 'datetime' },
    ],
    rows: (async function* () {
      for await (const page of pages) {
        yield page.map((r) => [
          r.name,
          r.sourceType,
          r.categories.map((c) => c.name).join(', '),
          r.link,
          r.file?.name ?? null,
          r.file?.type ?? null,
          r.file?.bytes ?? null,
          statusText[r.attachmentStatus],
          r.attachedCaseCount,
          r.details,
          r.createdAt,
          r.updatedAt,
        ]);
      }
    })(),
  };
}
