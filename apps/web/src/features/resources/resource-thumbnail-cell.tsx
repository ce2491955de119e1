import { useQuery } from '@tanstack/react-query';
import type { Resource } from '@pss/contract';
import { ResourceThumbnail } from '../../components/resource-view';
import { thumbnailQueryOptions } from './resources-api';

/** A row's thumbnail: a signed link asked for once the thumbnail is made. */
export function ResourceThumbnailCell({ resource, size }: { resource: Resource; size?: number }) {
  const status = resource.file?.thumbnail_status;
  const link = useQuery({ ...thumbnailQueryOptions(resource.id, status), enabled: status === 'READY' });
  return (
    <ResourceThumbnail
      name={resource.name}
      type={resource.source_type}
      size={size}
      thumbnail={link.data ?? (resource.file ? { url: null, expires_at: null, thumbnail_status: status! } : null)}
    />
  );
}
