import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type CreateProjectBody, type UpdateProjectBody, projectRoutes } from '@pss/contract';
import { call } from '../../lib/api-client';

export interface ProjectListParams {
  page: number;
  limit: number;
  search?: string;
  sort?: string;
  filter?: string;
}

export const projectKeys = {
  all: ['projects'] as const,
  forClient: (clientId: string, params: ProjectListParams) => ['projects', 'client', clientId, params] as const,
  detail: (id: string) => ['projects', 'detail', id] as const,
};

export function clientProjectsQueryOptions(clientId: string | undefined, params: ProjectListParams) {
  return queryOptions({
    queryKey: projectKeys.forClient(clientId ?? '', params),
    queryFn: ({ signal }) =>
      call(projectRoutes.listForClient, { params: { id: clientId }, query: { ...params } }, { signal }),
    placeholderData: keepPreviousData,
    enabled: Boolean(clientId),
  });
}

export function projectQueryOptions(id: string | undefined) {
  return queryOptions({
    queryKey: projectKeys.detail(id ?? ''),
    queryFn: ({ signal }) => call(projectRoutes.get, { params: { id } }, { signal }),
    enabled: Boolean(id),
  });
}

/** Existing catalogue entries for the pickers (found by name, or created on save). */
export function useSaveProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; body: UpdateProjectBody } | { id?: undefined; body: CreateProjectBody }) =>
      input.id === undefined
        ? call(projectRoutes.create, { body: input.body })
        : call(projectRoutes.update, { params: { id: input.id }, body: input.body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['catalogue'] });
      void queryClient.invalidateQueries({ queryKey: ['clients'] });
    },
  });
}

export function useProjectStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'archive' | 'restore' }) =>
      call(projectRoutes[action], { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.all }),
  });
}

export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(projectRoutes.remove, { params: { id } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['clients'] });
    },
  });
}
