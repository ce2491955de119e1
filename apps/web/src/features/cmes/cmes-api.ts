import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Cme, CreateCmeBody, Paged, UpdateCmeBody } from '@pss/contract';
import { apiRequest, buildPath } from '../../lib/api-client';

export const cmeKeys = {
  all: ['cmes'] as const,
  list: (projectId: string, params: object) => ['cmes', projectId, params] as const,
};

export function cmeListQueryOptions(
  projectId: string | undefined,
  params: { page: number; limit: number; sort?: string },
) {
  return queryOptions({
    queryKey: cmeKeys.list(projectId ?? '', params),
    queryFn: ({ signal }) =>
      apiRequest<Paged<Cme>>(buildPath('/cmes/{projectId}', { projectId }), { query: { ...params }, signal }),
    placeholderData: keepPreviousData,
    enabled: Boolean(projectId),
  });
}

export function useSaveCme() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; body: UpdateCmeBody } | { id?: undefined; body: CreateCmeBody }) =>
      input.id
        ? apiRequest<Cme>(buildPath('/cmes/{id}', { id: input.id }), { method: 'PUT', body: input.body })
        : apiRequest<Cme>('/cmes', { method: 'POST', body: input.body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cmeKeys.all }),
  });
}

export function useDeleteCme() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(buildPath('/cmes/{id}', { id }), { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cmeKeys.all }),
  });
}
