import { queryOptions, keepPreviousData } from '@tanstack/react-query';
import type { Client, Paged } from '@pss/contract';
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
