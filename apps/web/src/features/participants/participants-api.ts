import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ParticipantFilter, participantRoutes } from '@pss/contract';
import { call } from '../../lib/api-client';
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
      call(
        participantRoutes.list,
        { params: { id: projectId }, query: { ...params, filter: JSON.stringify(params.filter) } },
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled: Boolean(projectId),
  });
}

/** A project's participant imports, for the shared import panel; a finished one refreshes the list. */
export function participantImports(projectId: string): ImportJobSource {
  return {
    queryKey: participantKeys.latestImport(projectId),
    latest: (signal) => call(participantRoutes.latestImport, { params: { id: projectId } }, { signal }),
    upload: (file) => call(participantRoutes.upload, { params: { id: projectId }, file }),
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
      return call(participantRoutes[action], { params: { usersIds, projectId }, body });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: participantKeys.all }),
  });
}

export function useSaveNotes(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, notes }: { userId: string; notes: string | null }) =>
      call(participantRoutes.setNotes, { params: { userId, projectId }, body: { notes } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: participantKeys.all }),
  });
}
