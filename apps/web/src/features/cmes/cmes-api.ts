import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { cmeRoutes, type CreateCmeBody, type UpdateCmeBody } from '@pss/contract';
import { call } from '../../lib/api-client';

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
    queryFn: ({ signal }) => call(cmeRoutes.list, { params: { id: projectId }, query: { ...params } }, { signal }),
    placeholderData: keepPreviousData,
    enabled: Boolean(projectId),
  });
}

export function useSaveCme() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; body: UpdateCmeBody } | { id?: undefined; body: CreateCmeBody }) =>
      input.id === undefined
        ? call(cmeRoutes.create, { body: input.body })
        : call(cmeRoutes.update, { params: { id: input.id }, body: input.body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cmeKeys.all }),
  });
}

export function useDeleteCme() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(cmeRoutes.remove, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cmeKeys.all }),
  });
}
