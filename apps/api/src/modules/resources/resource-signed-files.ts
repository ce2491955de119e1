import type { Readable } from 'node:stream';
import {
  API_PREFIX,
  fillPath,
  resourceRoutes,
  type ParticipantResource,
  type ResourceFileDetails,
  type SignedLink,
  type ThumbnailLink,
} from '@pss/contract';
import { AppError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ResourceContext } from './resource-context.js';
import { describeFile, thumbnailStatus } from './resource-mappers.js';
import type { ResourceRecord } from './resources.repository.js';

/** A stored file, ready to be sent: its bytes as a stream (or a range of them), with what it is. */
export interface ResourceDownload {
  key: string;
  type: string;
  name: string;
  bytes: number;
  disposition: 'inline' | 'attachment';
  open(range?: { start: number; end: number }): Readable;
}

function requireFile(row: ResourceRecord): void {
  if (!row.file) throw new AppError('NOT_FOUND', { message: 'This resource has no file: it is a link or a text.' });
}

/**
 * A resource's file and thumbnail behind signed links that expire: the links handed out (to
 * staff, and to participants for their own cases' resources) and what a link opens.
 */
export function createResourceSignedFiles(context: ResourceContext) {
  const { deps, storage, repository, require } = context;

  async function sign(row: ResourceRecord, kind: 'file' | 'thumbnail', disposition: 'inline' | 'attachment') {
    const { token, expiresAt } = deps.links.sign(
      { r: row.id, k: kind, d: disposition },
      deps.clock.now(),
      deps.linkTtlSeconds,
    );
    return { url: API_PREFIX + fillPath(resourceRoutes.signedFile, { token }), expires_at: expiresAt.toISOString() };
  }

  async function thumbnailLinkOf(row: ResourceRecord): Promise<ThumbnailLink> {
    const status = thumbnailStatus(row);
    if (status !== 'READY') return { url: null, expires_at: null, thumbnail_status: status };
    return { ...(await sign(row, 'thumbnail', 'inline')), thumbnail_status: status };
  }

  return {
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
