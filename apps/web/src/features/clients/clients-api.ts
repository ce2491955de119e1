import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Client, ClientBody, Paged } from '@pss/contract';
import { apiRequest, buildPath } from '../../lib/api-client';

export interface ClientListParams {
  page: number;
  limit: number;
  search?: string;
  sort?: string;
}

export const clientKeys = {
  all: ['clients'] as const,
  list: (params: ClientListParams) => ['clients', 'list', params] as const,
  detail: (id: string) => ['clients', 'detail', id] as const,
};

export function clientListQueryOptions(params: ClientListParams) {
  return queryOptions({
    queryKey: clientKeys.list(params),
    queryFn: ({ signal }) => apiRequest<Paged<Client>>('/clients', { query: { ...params }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function clientQueryOptions(id: string | undefined) {
  return queryOptions({
    queryKey: clientKeys.detail(id ?? ''),
    queryFn: ({ signal }) => apiRequest<Client>(buildPath('/clients/{id}', { id }), { signal }),
    enabled: Boolean(id),
  });
}

export function useSaveClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: ClientBody }) =>
      id
        ? apiRequest<Client>(buildPath('/clients/{id}', { id }), { method: 'PUT', body })
        : apiRequest<Client>('/clients', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.all }),
  });
}

export function useDeleteClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(buildPath('/clients/{id}', { id }), { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.all }),
  });
}
