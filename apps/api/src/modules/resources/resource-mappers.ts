import type { Resource, ResourceFile } from '@pss/contract';
import type { ResourceRecord, ResourceRow } from './resources.repository.js';

export function thumbnailStatus(row: ResourceRecord): ResourceFile['thumbnail_status'] {
  if (!row.file || row.sourceType === 'VIDEO') return 'NONE';
  if (row.processing === 'READY') return row.thumbnailKey ? 'READY' : 'NONE';
  if (row.processing === 'FAILED') return 'FAILED';
  return 'PENDING';
}

export function describeFile(row: ResourceRecord): ResourceFile | null {
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
