import { randomUUID } from 'node:crypto';
import { requiredTextProblem, type CreateResourceBody, type Resource, type UpdateResourceBody } from '@pss/contract';
import { isUniqueViolation } from '../../db/constraint-violations.js';
import { AppError, validationError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { StoredUpload } from '../../lib/uploads.js';
import { checkResourceFile, sourceTypeOf } from './resource-content.js';
import type { ResourceContext } from './resource-context.js';
import { toResource } from './resource-mappers.js';
import { nameFromFile, normalLinkKey, normaliseLink, storedName } from './resource-names.js';
import { createResourcesRepository } from './resources.repository.js';

const urlTaken = (link: string) =>
  new AppError('URL_ALREADY_EXISTS', {
    message: `This URL already exists in the resource library: ${link}`,
    details: { fields: [{ field: 'body.link', errorCode: 'URL_ALREADY_EXISTS', message: 'This URL already exists.' }] },
  });

/**
 * Writing the library: a resource made from a form or from an uploaded file, saved, or
 * duplicated. The library holds each link once (URL_ALREADY_EXISTS).
 */
export function createResourceWrites(context: ResourceContext) {
  const { deps, storage, repository, require } = context;

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

  /**
   * Runs a write that gives a resource this link, refused as URL_ALREADY_EXISTS when the
   * library holds it already, however written (`normalLinkKey`); the unique index on the
   * normal form decides between two writes at once.
   */
  async function guardLink<T>(link: string | null, write: (linkKey: string | null) => Promise<T>): Promise<T> {
    const linkKey = link ? normalLinkKey(link) : null;
    const holder = linkKey ? await repository.findByLinkKey(linkKey) : undefined;
    if (holder) throw urlTaken(holder.link ?? link!);
    try {
      return await write(linkKey);
    } catch (error) {
      if (link && isUniqueViolation(error, 'resources_link_key_key')) throw urlTaken(link);
      throw error;
    }
  }

  return {
    async create(caller: AccessClaims, body: CreateResourceBody): Promise<Resource> {
      const link = body.source_type === 'URL' && body.link ? normaliseLink(body.link) : null;
      await checkCategories(body.category_ids ?? []);
      const id = await guardLink(link, (linkKey) =>
        deps.db.transaction(async (tx) => {
          const repo = createResourcesRepository(tx);
          const now = deps.clock.now();
          const row = await repo.insert({
            name: body.name,
            sourceType: body.source_type,
            details: body.details?.trim() ?? '',
            link,
            linkKey,
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
      const textProblem = current.sourceType === 'TEXT' ? requiredTextProblem(body.details) : null;
      if (textProblem) {
        throw validationError([
          { field: 'body.details', errorCode: textProblem, message: 'A text resource needs its text.' },
        ]);
      }
      await checkCategories(body.category_ids ?? []);
      const link = current.sourceType === 'URL' && body.link ? normaliseLink(body.link) : null;
      // Written another way (a slash, the host's case), the link is the same: its key stays.
      const changedLink = link && normalLinkKey(link) !== (current.link && normalLinkKey(current.link)) ? link : null;
      await guardLink(changedLink, (linkKey) =>
        deps.db.transaction(async (tx) => {
          const repo = createResourcesRepository(tx);
          const updated = await repo.update(id, {
            name: body.name,
            details: body.details?.trim() ?? '',
            link,
            ...(changedLink ? { linkKey } : {}),
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
        const newId = await guardLink(link, (linkKey) =>
          deps.db.transaction(async (tx) => {
            const repo = createResourcesRepository(tx);
            const now = deps.clock.now();
            const row = await repo.insert({
              name: body?.name ?? `Copy of ${source.name}`.slice(0, 200),
              sourceType: source.sourceType,
              details: source.details,
              link,
              linkKey,
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
  };
}
