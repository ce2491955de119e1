import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, inArray, notInArray, type SQL } from 'drizzle-orm';
import {
  resourceListQuery,
  type CaseResources,
  type CreateResourceBody,
  type Paged,
  type ParticipantResource,
  type Resource,
  type ResourceCaseUse,
  type ResourceCategory,
  type ResourceFile,
  type ResourceFileDetails,
  type ResourceModalQuery,
  type ResourceSelection,
  type SignedLink,
  type ThumbnailLink,
  type UpdateResourceBody,
} from '@pss/contract';
import type { Db, Executor } from '../../db/client.js';
import { resources as resourcesTable } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, validationError } from '../../lib/errors.js';
import type { SignedLinks } from '../../lib/signed-links.js';
import type { FileStorage } from '../../lib/storage.js';
import type { Table } from '../../lib/table-writer.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { StoredUpload } from '../../lib/uploads.js';
import type { AttemptsService } from '../attempts/attempts.service.js';
import type { CasesService } from '../cases/cases.service.js';
import { visibleClientId } from '../clients/clients.service.js';
import { checkResourceFile, extensionOf, sourceTypeOf } from './resource-content.js';
import type { ResourceProcessing } from './resource-processing.js';
import {
  createResourcesRepository,
  resourceConditions,
  type AttachmentScope,
  type ResourceRecord,
  type ResourceRow,
} from './resources.repository.js';

/** A stored file, ready to be sent: its bytes as a stream (or a range of them), with what it is. */
export interface ResourceDownload {
  key: string;
  type: string;
  name: string;
  bytes: number;
  disposition: 'inline' | 'attachment';
  open(range?: { start: number; end: number }): Readable;
}

function thumbnailStatus(row: ResourceRecord): ResourceFile['thumbnail_status'] {
  if (!row.file || row.sourceType === 'VIDEO') return 'NONE';
  if (row.processing === 'READY') return row.thumbnailKey ? 'READY' : 'NONE';
  if (row.processing === 'FAILED') return 'FAILED';
  return 'PENDING';
}

function describeFile(row: ResourceRecord): ResourceFile | null {
  if (!row.file) return null;
  const media = row.media ?? {};
  return {
    file_name: row.file.name,
    content_type: row.file.type,
    bytes: row.file.bytes,
    page_count: media.pageCount ?? null,
    width: media.width ?? null,
    height: media.height ?? null,
    duration_seconds: media.durationSeconds ?? null,
    thumbnail_status: thumbnailStatus(row),
  };
}

export function toResource(row: ResourceRow): Resource {
  return {
    id: row.id,
    name: row.name,
    source_type: row.sourceType,
    details: row.details,
    link: row.link,
    file: describeFile(row),
    categories: row.categories,
    attachment_status: row.attachmentStatus,
    attached_case_count: row.attachedCaseCount,
    duplicate_of: row.duplicateOf,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A link as it is kept: the address parsed and written back (`HTTP://Example.org` → `http://example.org/`). */
export function normaliseLink(link: string): string {
  return new URL(link.trim()).href;
}

/**
 * The name a file is kept and served under: the uploader's, without folders or control
 * characters, ending in the extension of what the file really is.
 */
function storedName(uploaded: string, type: keyof typeof extensionOf): string {
  const base =
    uploaded
      .split(/[\\/]/)
      .pop()!
      // eslint-disable-next-line no-control-regex -- control characters are what is removed
      .replace(/[\u0000-\u001f\u007f"]/g, '')
      .trim()
      .slice(0, 200) || 'resource';
  const extension = extensionOf[type];
  const stem = base.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  return base.toLowerCase().endsWith(extension) ? base : `${stem}${extension}`;
}

/** A resource's name from its file's: the name without its extension. */
const nameFromFile = (fileName: string) => fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '').slice(0, 200) || 'Resource';

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  return (e.code ?? e.cause?.code) === '23505' && (e.constraint ?? e.cause?.constraint ?? '') === constraint;
}
function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return (e.code ?? e.cause?.code) === '23503';
}

const urlTaken = (link: string) =>
  new AppError('URL_ALREADY_EXISTS', {
    message: `This URL already exists in the resource library: ${link}`,
    details: { fields: [{ field: 'body.link', errorCode: 'URL_ALREADY_EXISTS', message: 'This URL already exists.' }] },
  });

/**
 * Copies of cases (duplicates, copies to a project or module) carry their original's
 * resources; run by the case transfers service inside the transaction that writes the copies.
 */
export function copyCaseResources(tx: Executor, pairs: { from: string; to: string }[]): Promise<void> {
  return createResourcesRepository(tx).copyAttachments(pairs);
}

/**
 * The Resource Library: the provider's PDFs, images, videos, links and texts (managed by
 * superadmins), attached to cases in Case Setup (by whoever may edit the case), and read by
 * the participants whose cases they are attached to — their files only through signed
 * links that expire. A client administrator sees the attachment of resources to their own
 * client's cases only.
 */
export function createResourcesService(deps: {
  db: Db;
  storage: FileStorage;
  clock: Clock;
  links: SignedLinks;
  linkTtlSeconds: number;
  processing: Pick<ResourceProcessing, 'wake'>;
  cases: Pick<CasesService, 'requireCase'>;
  attempts: Pick<AttemptsService, 'caseOfOwn'>;
}) {
  const { storage } = deps;
  const repository = createResourcesRepository(deps.db);
  const today = () => deps.clock.now().toISOString().slice(0, 10);
  const scopeOf = (caller: AccessClaims): AttachmentScope => ({ clientId: visibleClientId(caller) });

  async function require(id: string, scope: AttachmentScope = { clientId: null }): Promise<ResourceRow> {
    const row = await repository.findById(id, scope);
    if (!row) throw new AppError('NOT_FOUND', { message: 'The resource could not be found.' });
    return row;
  }

  async function checkCategories(ids: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    const found = await repository.existingCategoryIds(unique);
    const missing = unique.filter((id) => !found.includes(id));
    if (missing.length) {
      throw validationError(
        missing.map(() => ({ field: 'body.category_ids', message: 'This category does not exist.' })).slice(0, 1),
      );
    }
  }

  /** Runs a write that may hit the link's unique index as URL_ALREADY_EXISTS. */
  async function guardLink<T>(link: string | null, write: () => Promise<T>): Promise<T> {
    if (link && (await repository.findByLink(link))) throw urlTaken(link);
    try {
      return await write();
    } catch (error) {
      if (link && isUniqueViolation(error, 'resources_link_key')) throw urlTaken(link);
      throw error;
    }
  }

  async function sign(row: ResourceRecord, kind: 'file' | 'thumbnail', disposition: 'inline' | 'attachment') {
    const { token, expiresAt } = deps.links.sign(
      { r: row.id, k: kind, d: disposition },
      deps.clock.now(),
      deps.linkTtlSeconds,
    );
    return { url: `/api/resource-files/${token}`, expires_at: expiresAt.toISOString() };
  }

  function requireFile(row: ResourceRecord): void {
    if (!row.file) throw new AppError('NOT_FOUND', { message: 'This resource has no file: it is a link or a text.' });
  }

  async function thumbnailLinkOf(row: ResourceRecord): Promise<ThumbnailLink> {
    const status = thumbnailStatus(row);
    if (status !== 'READY') return { url: null, expires_at: null, thumbnail_status: status };
    return { ...(await sign(row, 'thumbnail', 'inline')), thumbnail_status: status };
  }

  /** The selection's condition: ids, or the list's search and filter minus exceptions. */
  function selectionCondition(selection: ResourceSelection): SQL | undefined {
    if ('ids' in selection) return inArray(resourcesTable.id, selection.ids);
    const conditions = resourceConditions(selection.search, selection.filter ?? {}, { clientId: null });
    const except = selection.except ?? [];
    if (except.length) conditions.push(notInArray(resourcesTable.id, except));
    return and(...conditions);
  }

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

    async create(caller: AccessClaims, body: CreateResourceBody): Promise<Resource> {
      const link = body.source_type === 'URL' && body.link ? normaliseLink(body.link) : null;
      await checkCategories(body.category_ids ?? []);
      const id = await guardLink(link, () =>
        deps.db.transaction(async (tx) => {
          const repo = createResourcesRepository(tx);
          const now = deps.clock.now();
          const row = await repo.insert({
            name: body.name,
            sourceType: body.source_type,
            details: body.details ?? '',
            link,
            createdBy: caller.userId,
            createdAt: now,
            updatedAt: now,
          });
          await repo.setCategories(row.id, [...new Set(body.category_ids ?? [])]);
          return row.id;
        }),
      );
      return toResource(await require(id));
    },

    /** A stored upload checked by content and made a resource; its thumbnail follows in the background. */
    async upload(caller: AccessClaims, upload: StoredUpload): Promise<Resource> {
      const checked = await checkResourceFile(storage, upload);
      if (!checked.ok) {
        if ('tooLarge' in checked) throw new AppError('PAYLOAD_TOO_LARGE', { message: checked.message });
        throw validationError([{ field: 'body.file', message: checked.message }]);
      }
      const now = deps.clock.now();
      const row = await repository.insert({
        name: nameFromFile(upload.fileName.split(/[\\/]/).pop() ?? ''),
        sourceType: sourceTypeOf[checked.type],
        file: {
          key: upload.key,
          name: storedName(upload.fileName, checked.type),
          type: checked.type,
          bytes: upload.bytes,
        },
        processing: 'PENDING',
        createdBy: caller.userId,
        createdAt: now,
        updatedAt: now,
      });
      deps.processing.wake();
      return toResource(await require(row.id));
    },

    async update(id: string, body: UpdateResourceBody): Promise<Resource> {
      const current = await require(id);
      if (current.sourceType !== 'URL' && body.link) {
        throw validationError([{ field: 'body.link', message: 'Only a URL resource has a link.' }]);
      }
      if (current.sourceType === 'URL' && !body.link) {
        throw validationError([
          { field: 'body.link', errorCode: 'FIELD_REQUIRED', message: 'A URL resource needs its link.' },
        ]);
      }
      if (current.sourceType === 'TEXT' && !body.details) {
        throw validationError([
          { field: 'body.details', errorCode: 'FIELD_REQUIRED', message: 'A text resource needs its text.' },
        ]);
      }
      await checkCategories(body.category_ids ?? []);
      const link = current.sourceType === 'URL' && body.link ? normaliseLink(body.link) : null;
      const changedLink = link && link !== current.link ? link : null;
      await guardLink(changedLink, () =>
        deps.db.transaction(async (tx) => {
          const repo = createResourcesRepository(tx);
          const updated = await repo.update(id, {
            name: body.name,
            details: body.details ?? '',
            link,
            updatedAt: deps.clock.now(),
          });
          if (!updated) throw new AppError('NOT_FOUND', { message: 'The resource could not be found.' });
          await repo.setCategories(id, [...new Set(body.category_ids ?? [])]);
        }),
      );
      return toResource(await require(id));
    },

    /**
     * A copy under a new name (its file and thumbnail copied too, its categories kept). A URL
     * resource's copy needs a link of its own, since the library holds each address once.
     */
    async duplicate(
      caller: AccessClaims,
      id: string,
      body: { name?: string; link?: string } | null | undefined,
    ): Promise<Resource> {
      const source = await require(id);
      let link: string | null = null;
      if (source.sourceType === 'URL') link = normaliseLink(body?.link ?? source.link!);
      else if (body?.link) throw validationError([{ field: 'body.link', message: 'Only a URL resource has a link.' }]);
      const copied: string[] = [];
      const copyFile = async (key: string, suffix: string) => {
        const copy = `resources/${randomUUID()}${suffix}`;
        await storage.putStream(copy, storage.stream(key));
        copied.push(copy);
        return copy;
      };
      try {
        const file = source.file ? { ...source.file, key: await copyFile(source.file.key, '') } : null;
        const thumbnailKey = source.thumbnailKey ? await copyFile(source.thumbnailKey, '.webp') : null;
        const newId = await guardLink(link, () =>
          deps.db.transaction(async (tx) => {
            const repo = createResourcesRepository(tx);
            const now = deps.clock.now();
            const row = await repo.insert({
              name: body?.name ?? `Copy of ${source.name}`.slice(0, 200),
              sourceType: source.sourceType,
              details: source.details,
              link,
              file,
              media: source.media,
              thumbnailKey,
              // A copy made while the original still waited is processed on its own.
              processing: source.processing === 'RUNNING' ? 'PENDING' : source.processing,
              duplicateOf: source.id,
              createdBy: caller.userId,
              createdAt: now,
              updatedAt: now,
            });
            await repo.setCategories(
              row.id,
              source.categories.map((c) => c.id),
            );
            return row.id;
          }),
        );
        if (source.processing === 'PENDING' || source.processing === 'RUNNING') deps.processing.wake();
        return toResource(await require(newId));
      } catch (error) {
        for (const key of copied) await storage.remove(key);
        throw error;
      }
    },

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

    async categories(): Promise<{ items: ResourceCategory[] }> {
      return { items: await repository.categories() };
    },

    /** Finds the category of that name regardless of case, or makes it. */
    async createCategory(name: string): Promise<ResourceCategory> {
      const { id, name: kept } = await repository.ensureCategory(name);
      return { id, name: kept };
    },

    /** The library as a file: the list's search, filter and sort, every matching row. */
    exportTable(raw: { search?: string; filter?: string; sort?: string }): Table {
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
      const statusText = {
        NOT_ATTACHED: 'Not attached',
        ATTACHED_ACTIVE: 'Attached (active)',
        ATTACHED_INACTIVE: 'Attached (inactive)',
      };
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
    },

    async fileDetails(id: string): Promise<ResourceFileDetails> {
      const row = await require(id);
      requireFile(row);
      return {
        ...describeFile(row)!,
        resource_id: row.id,
        view: await sign(row, 'file', 'inline'),
        download: await sign(row, 'file', 'attachment'),
        thumbnail: await thumbnailLinkOf(row),
      };
    },

    async fileLink(id: string): Promise<SignedLink> {
      const row = await require(id);
      requireFile(row);
      return sign(row, 'file', 'inline');
    },

    async thumbnailLink(id: string): Promise<ThumbnailLink> {
      const row = await require(id);
      requireFile(row);
      return thumbnailLinkOf(row);
    },

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

    /** A participant's own case's resources, files behind signed links; another's case: NOT_FOUND. */
    async ofAttempt(caller: AccessClaims, attemptId: string): Promise<{ items: ParticipantResource[] }> {
      const caseId = await deps.attempts.caseOfOwn(caller, attemptId);
      const rows = await repository.ofCase(caseId, { clientId: null });
      const items: ParticipantResource[] = [];
      for (const row of rows) {
        items.push({
          id: row.id,
          name: row.name,
          source_type: row.sourceType,
          details: row.details,
          link: row.link,
          file: describeFile(row),
          view: row.file ? await sign(row, 'file', 'inline') : null,
          download: row.file ? await sign(row, 'file', 'attachment') : null,
          thumbnail: row.file ? await thumbnailLinkOf(row) : null,
        });
      }
      return { items };
    },

    /** What a signed link opens; an altered, expired or dangling link is refused. */
    async signedFile(token: string): Promise<ResourceDownload> {
      const payload = deps.links.verify(token, deps.clock.now());
      if (!payload || (payload.k !== 'file' && payload.k !== 'thumbnail')) throw new AppError('SIGNED_LINK_INVALID');
      const row = await repository.findById(payload.r);
      if (!row?.file) throw new AppError('NOT_FOUND', { message: 'The resource could not be found.' });
      if (payload.k === 'thumbnail') {
        const key = row.thumbnailKey;
        if (!key) throw new AppError('NOT_FOUND', { message: 'This resource has no thumbnail.' });
        const bytes = (await storage.get(key)).length;
        return {
          key,
          type: 'image/webp',
          name: `${row.file.name.replace(/\.[^.]+$/, '')}-thumbnail.webp`,
          bytes,
          disposition: 'inline',
          open: (range) => storage.stream(key, range),
        };
      }
      const file = row.file;
      return {
        key: file.key,
        type: file.type,
        name: file.name,
        bytes: file.bytes,
        disposition: payload.d === 'attachment' ? 'attachment' : 'inline',
        open: (range) => storage.stream(file.key, range),
      };
    },
  };
}

export type ResourcesService = ReturnType<typeof createResourcesService>;
