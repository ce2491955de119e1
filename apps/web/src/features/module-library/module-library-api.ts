import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ModuleBody, ModuleLibrary, ModuleSummary, Paged } from '@pss/contract';
import { apiRequest, buildPath } from '../../lib/api-client';

export const moduleKeys = {
  all: ['module-library'] as const,
  list: (params: object) => ['module-library', 'list', params] as const,
  detail: (id: string) => ['module-library', 'detail', id] as const,
};

export function moduleListQueryOptions(params: { page: number; limit: number; search?: string; sort?: string }) {
  return queryOptions({
    queryKey: moduleKeys.list(params),
    queryFn: ({ signal }) => apiRequest<Paged<ModuleSummary>>('/module-library', { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

export function moduleQueryOptions(id: string) {
  return queryOptions({
    queryKey: moduleKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<ModuleLibrary>(buildPath('/module-library/{id}', { id }), { signal }),
  });
}

export function useSaveModule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id?: string; body: ModuleBody }) =>
      input.id
        ? apiRequest<ModuleLibrary>(buildPath('/module-library/{id}', { id: input.id }), {
            method: 'PUT',
            body: input.body,
          })
        : apiRequest<ModuleLibrary>('/module-library', { method: 'POST', body: input.body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: moduleKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['catalogue'] });
    },
  });
}

export function useDeleteModule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(buildPath('/module-library/{id}', { id }), { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moduleKeys.all }),
  });
}
