import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  resourceRoutes,
  type CreateResourceBody,
  type ResourceFilter,
  type ResourceSelection,
  type UpdateResourceBody,
} from '@pss/contract';
import { call, callRaw, uploadWithProgress } from '../../lib/api-client';
import { saveDownload } from '../../lib/download';

export const resourceKeys = {
  all: ['resources'] as const,
  list: (params: object) => ['resources', 'list', params] as const,
  detail: (id: string) => ['resources', 'detail', id] as const,
  file: (id: string) => ['resources', 'file', id] as const,
  uses: (id: string) => ['resources', 'uses', id] as const,
  categories: ['resources', 'categories'] as const,
  clients: ['resources', 'clients'] as const,
};

export interface ResourceListParams {
  page: number;
  limit: number;
  search?: string;
  sort?: string;
  filter: ResourceFilter;
}

const filterParam = (filter: ResourceFilter) => (Object.keys(filter).length ? JSON.stringify(filter) : undefined);

export function resourceListQueryOptions(params: ResourceListParams) {
  return queryOptions({
    queryKey: resourceKeys.list(params),
    queryFn: ({ signal }) =>
      call(resourceRoutes.list, { query: { ...params, filter: filterParam(params.filter) } }, { signal }),
    placeholderData: keepPreviousData,
    // Thumbnails are made in the background: look again while some are still being made.
    refetchInterval: (query) =>
      query.state.data?.items.some((r) => r.file?.thumbnail_status === 'PENDING') ? 2000 : false,
  });
}

export function resourceQueryOptions(id: string) {
  return queryOptions({
    queryKey: resourceKeys.detail(id),
    queryFn: ({ signal }) => call(resourceRoutes.get, { params: { id } }, { signal }),
    refetchInterval: (query) => (query.state.data?.file?.thumbnail_status === 'PENDING' ? 2000 : false),
  });
}

/** A file's details with fresh signed links (they expire: asked again when the page is shown again). */
export function resourceFileQueryOptions(id: string, thumbnailStatus: string | undefined) {
  return queryOptions({
    queryKey: [...resourceKeys.file(id), thumbnailStatus],
    queryFn: ({ signal }) => call(resourceRoutes.fileDetails, { params: { id } }, { signal }),
    staleTime: 5 * 60 * 1000,
  });
}

export function thumbnailQueryOptions(id: string, thumbnailStatus: string | undefined) {
  return queryOptions({
    queryKey: ['resources', 'thumbnail', id, thumbnailStatus],
    queryFn: ({ signal }) => call(resourceRoutes.thumbnailLink, { params: { id } }, { signal }),
    staleTime: 5 * 60 * 1000,
  });
}

export function resourceUsesQueryOptions(id: string) {
  return queryOptions({
    queryKey: resourceKeys.uses(id),
    queryFn: async ({ signal }) => {
      const [cases, clients] = await Promise.all([
        call(resourceRoutes.cases, { params: { id } }, { signal }),
        call(resourceRoutes.clients, { params: { id } }, { signal }),
      ]);
      return { cases: cases.items, clients: clients.items };
    },
  });
}

export const categoriesQueryOptions = () =>
  queryOptions({
    queryKey: resourceKeys.categories,
    queryFn: ({ signal }) => call(resourceRoutes.categories, {}, { signal }),
  });

export function useCreateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => call(resourceRoutes.createCategory, { body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resourceKeys.categories }),
  });
}

export function useCreateResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateResourceBody) => call(resourceRoutes.create, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resourceKeys.all }),
  });
}

/** Uploads a file (with progress), then saves the name, details and categories typed beside it. */
export function useUploadResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      file: File;
      body: Omit<UpdateResourceBody, 'link'>;
      onProgress: (fraction: number) => void;
    }) => {
      const created = await uploadWithProgress(resourceRoutes.upload, { file: input.file }, input.onProgress);
      return call(resourceRoutes.update, { params: { id: created.id }, body: { ...input.body, link: null } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resourceKeys.all }),
  });
}

export function useUpdateResource(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateResourceBody) => call(resourceRoutes.update, { params: { id }, body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(resourceKeys.detail(id), saved);
      void queryClient.invalidateQueries({ queryKey: resourceKeys.all });
    },
  });
}

export function useDuplicateResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; link?: string }) =>
      call(resourceRoutes.duplicate, { params: { id: input.id }, body: input.link ? { link: input.link } : null }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resourceKeys.all }),
  });
}

export function useDeleteResources() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (selection: ResourceSelection) =>
      call(resourceRoutes.remove, { query: { filter: JSON.stringify(selection) } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resourceKeys.all }),
  });
}

export function exportResources(
  params: { search?: string; sort?: string; filter: ResourceFilter },
  format: 'csv' | 'xlsx',
) {
  return saveDownload(
    callRaw(resourceRoutes.export, { query: { ...params, filter: filterParam(params.filter), format } }),
    `resource-library.${format}`,
  );
}
