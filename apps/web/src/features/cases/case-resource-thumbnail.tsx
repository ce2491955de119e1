import { useQuery } from '@tanstack/react-query';
import { resourceRoutes, type Resource } from '@pss/contract';
import { ResourceThumbnail } from '../../components/resource-view';
import { call } from '../../lib/api-client';

/** A resource's thumbnail, once the server has made it; the file kind's mark until then. */
export function Thumbnail({ resource }: { resource: Resource }) {
  const status = resource.file?.thumbnail_status;
  const link = useQuery({
    queryKey: ['cases', 'resource-thumbnail', resource.id, status],
    queryFn: ({ signal }) => call(resourceRoutes.thumbnailLink, { params: { id: resource.id } }, { signal }),
    enabled: status === 'READY',
    staleTime: 5 * 60 * 1000,
  });
  return (
    <ResourceThumbnail
      name={resource.name}
      type={resource.source_type}
      size={40}
      thumbnail={link.data ?? (resource.file ? { url: null, expires_at: null, thumbnail_status: status! } : null)}
    />
  );
}

/**
 * The Resources part of Case Setup: the case's resources from the library, in order, added
 * from a picker (filters: client, category, type, search, attachment) and removed one by
 * one. Saved at once; a published or active case shows them read-only.
 */
