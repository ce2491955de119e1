import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportJob, Paged, Participant, ParticipantFilter } from '@pss/contract';
import { apiRequest, apiUpload, buildPath } from '../../lib/api-client';
import type { ImportJobSource } from '../../lib/use-import-job';

export interface ParticipantListParams {
  page: number;
  limit: number;
  search?: string;
  sort?: string;
  filter: ParticipantFilter;
}

export const participantKeys = {
  all: ['participants'] as const,
  list: (projectId: string, params: ParticipantListParams) => ['participants', projectId, 'list', params] as const,
  latestImport: (projectId: string) => ['participants', projectId, 'import'] as const,
};

export function participantListQueryOptions(projectId: string | undefined, params: ParticipantListParams) {
  return queryOptions({
    queryKey: participantKeys.list(projectId ?? '', params),
    queryFn: ({ signal }) =>
      apiRequest<Paged<Participant>>(buildPath('/projects/{id}/users', { id: projectId }), {
        query: { ...params, filter: JSON.stringify(params.filter) },
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled: Boolean(projectId),
  });
}

/** A project's participant imports, for the shared import panel; a finished one refreshes the list. */
export function participantImports(projectId: string): ImportJobSource {
  return {
    queryKey: participantKeys.latestImport(projectId),
    latest: (signal) => apiRequest<ImportJob | null>(buildPath('/projects/{id}/import', { id: projectId }), { signal }),
    upload: (file) => apiUpload<ImportJob>(buildPath('/projects/{id}/upload', { id: projectId }), file),
    refreshOnFinish: participantKeys.all,
  };
}

export function useSetArchived(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: {
      archived: boolean;
      selection: { ids: string[] } | { all: true; except: string[]; search?: string; filter: ParticipantFilter };
    }) => {
      const action = input.archived ? 'archive' : 'unarchive';
      const usersIds = 'ids' in input.selection ? input.selection.ids.join(',') : 'all';
      const body =
        'ids' in input.selection
          ? undefined
          : { except: input.selection.except, search: input.selection.search, filter: input.selection.filter };
      return apiRequest<{ updated: number }>(
        buildPath(`/users/{usersIds}/{projectId}/${action}`, { usersIds, projectId }),
        {
          method: 'PUT',
          body,
        },
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: participantKeys.all }),
  });
}

export function useSaveNotes(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, notes }: { userId: string; notes: string | null }) =>
      apiRequest<void>(buildPath('/users/{userId}/{projectId}/notes', { userId, projectId }), {
        method: 'PUT',
        body: { notes },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: participantKeys.all }),
  });
}
