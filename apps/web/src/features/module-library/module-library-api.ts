import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ModuleBody, moduleLibraryRoutes } from '@pss/contract';
import { call } from '../../lib/api-client';

export const moduleKeys = {
  all: ['module-library'] as const,
  list: (params: object) => ['module-library', 'list', params] as const,
  detail: (id: string) => ['module-library', 'detail', id] as const,
};

export function moduleListQueryOptions(params: { page: number; limit: number; search?: string; sort?: string }) {
  return queryOptions({
    queryKey: moduleKeys.list(params),
    queryFn: ({ signal }) => call(moduleLibraryRoutes.list, { query: params }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function moduleQueryOptions(id: string) {
  return queryOptions({
    queryKey: moduleKeys.detail(id),
    queryFn: ({ signal }) => call(moduleLibraryRoutes.get, { params: { id } }, { signal }),
  });
}

export function useSaveModule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id?: string; body: ModuleBody }) =>
      input.id
        ? call(moduleLibraryRoutes.update, { params: { id: input.id }, body: input.body })
        : call(moduleLibraryRoutes.create, { body: input.body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: moduleKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['catalogue'] });
    },
  });
}

export function useDeleteModule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(moduleLibraryRoutes.remove, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moduleKeys.all }),
  });
}
