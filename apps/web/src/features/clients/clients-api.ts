import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { clientRoutes, type ClientBody } from '@pss/contract';
import { call } from '../../lib/api-client';
import { CLIENTS_FIRST_PAGE, takeStartedData } from '../../lib/session/early-start';
import type { ImportJobSource } from '../../lib/use-import-job';

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

function isFirstPage(params: ClientListParams): boolean {
  return (
    params.page === CLIENTS_FIRST_PAGE.page &&
    params.limit === CLIENTS_FIRST_PAGE.limit &&
    !params.search &&
    !params.sort
  );
}

export function clientListQueryOptions(params: ClientListParams) {
  return queryOptions({
    queryKey: clientKeys.list(params),
    queryFn: ({ signal }) => {
      const send = () => call(clientRoutes.list, { query: { ...params } }, { signal });
      // The first page, as the list opens on landing, takes the one sent as the page started
      // (lib/session/early-start.ts).
      return isFirstPage(params) ? takeStartedData('clients-first-page', send) : send();
    },
    placeholderData: keepPreviousData,
  });
}

export function clientQueryOptions(id: string | undefined) {
  return queryOptions({
    queryKey: clientKeys.detail(id ?? ''),
    queryFn: ({ signal }) => call(clientRoutes.get, { params: { id: id ?? '' } }, { signal }),
    enabled: Boolean(id),
  });
}

export function useSaveClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: ClientBody }) =>
      id ? call(clientRoutes.update, { params: { id }, body }) : call(clientRoutes.create, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.all }),
  });
}

export function useDeleteClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(clientRoutes.remove, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.all }),
  });
}

/** The CAP roster's imports, for the shared import panel; clients show their CAP status from it. */
export const capImports: ImportJobSource = {
  queryKey: ['clients', 'cap-import'],
  latest: (signal) => call(clientRoutes.latestCapImport, {}, { signal }),
  upload: (file) => call(clientRoutes.importCapRoster, { file }),
  refreshOnFinish: clientKeys.all,
};

export const lookUpCapId = (id: string) => call(clientRoutes.capStatus, { params: { id } });
