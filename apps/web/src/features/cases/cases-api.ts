import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CaseAnswer,
  CaseDocument,
  CaseForParticipant,
  CasePreview,
  CaseSelection,
  CaseStatusValue,
  CaseSummary,
  CreateCaseBody,
  Paged,
  RtfCaseFields,
  UpdateCaseBody,
} from '@pss/contract';
import { apiRequest, apiRequestRaw, apiUpload, buildPath } from '../../lib/api-client';

export interface CaseListParams {
  page: number;
  limit: number;
  search?: string;
  sort?: string;
  status?: CaseStatusValue;
}

export const caseKeys = {
  all: ['cases'] as const,
  list: (projectId: string, params: CaseListParams) => ['cases', 'list', projectId, params] as const,
  one: (caseId: string) => ['cases', 'one', caseId] as const,
  image: (caseId: string, updatedAt: string) => ['cases', 'image', caseId, updatedAt] as const,
  participantView: (caseId: string) => ['cases', 'participant-view', caseId] as const,
  previews: (caseId: string, params: object) => ['cases', 'previews', caseId, params] as const,
  preview: (previewId: string) => ['previews', previewId] as const,
};

/** A page of a project's or module's cases; `listPath` is the home's list call. */
export function caseListQueryOptions(listPath: string, params: CaseListParams) {
  const { status, ...rest } = params;
  return queryOptions({
    queryKey: caseKeys.list(listPath, params),
    queryFn: ({ signal }) =>
      apiRequest<Paged<CaseSummary>>(listPath, {
        query: { ...rest, filter: status ? JSON.stringify({ status }) : undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function caseQueryOptions(caseId: string) {
  return queryOptions({
    queryKey: caseKeys.one(caseId),
    queryFn: ({ signal }) => apiRequest<CaseDocument>(buildPath('/cases/{id}', { id: caseId }), { signal }),
  });
}

/** The patient image as an object URL (the image call needs the session's token). */
export function caseImageQueryOptions(caseId: string, updatedAt: string, enabled: boolean) {
  return queryOptions({
    queryKey: caseKeys.image(caseId, updatedAt),
    queryFn: async () => URL.createObjectURL(await (await apiRequestRaw(`/cases/${caseId}/image`)).blob()),
    enabled,
    staleTime: Infinity,
  });
}

export function participantViewQueryOptions(caseId: string) {
  return queryOptions({
    queryKey: caseKeys.participantView(caseId),
    queryFn: ({ signal }) =>
      apiRequest<CaseForParticipant>(buildPath('/cases/{id}/preview', { id: caseId }), { signal }),
    retry: false,
  });
}

export function previewListQueryOptions(
  caseId: string,
  params: { page: number; limit: number; search?: string; sort?: string },
) {
  return queryOptions({
    queryKey: caseKeys.previews(caseId, params),
    queryFn: ({ signal }) =>
      apiRequest<Paged<{ id: string; name: string; completed_at: string; score: number }>>(
        buildPath('/cases/{id}/previews', { id: caseId }),
        { query: params, signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export function previewQueryOptions(previewId: string) {
  return queryOptions({
    queryKey: caseKeys.preview(previewId),
    queryFn: ({ signal }) => apiRequest<CasePreview>(buildPath('/previews/{id}', { id: previewId }), { signal }),
  });
}

/** Every case mutation refreshes what shows cases: lists, the case, its status. */
function useCaseMutation<Input, Output>(run: (input: Input) => Promise<Output>, onDone?: (output: Output) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async (output) => {
      onDone?.(output);
      await queryClient.invalidateQueries({ queryKey: caseKeys.all });
    },
  });
}

export function useCreateCase() {
  return useCaseMutation((input: CreateCaseBody) =>
    apiRequest<CaseDocument>('/cases', { method: 'POST', body: input }),
  );
}

export function useSaveCase(caseId: string) {
  const queryClient = useQueryClient();
  return useCaseMutation(
    (body: UpdateCaseBody) =>
      apiRequest<CaseDocument>(buildPath('/cases/{id}', { id: caseId }), { method: 'PUT', body }),
    (saved) => queryClient.setQueryData(caseKeys.one(caseId), saved),
  );
}

export function useSetCaseStatus(caseId: string) {
  const queryClient = useQueryClient();
  return useCaseMutation(
    (status: 'DRAFT' | 'PUBLISHED') =>
      apiRequest<CaseDocument>(buildPath('/cases/{id}/status', { id: caseId }), { method: 'POST', body: { status } }),
    (saved) => queryClient.setQueryData(caseKeys.one(caseId), saved),
  );
}

export function useCaseImage(caseId: string) {
  const queryClient = useQueryClient();
  return useCaseMutation(
    (file: File | null) =>
      file
        ? apiUpload<CaseDocument>(buildPath('/cases/{id}/image', { id: caseId }), file)
        : apiRequest<CaseDocument>(buildPath('/cases/{id}/image', { id: caseId }), { method: 'DELETE' }),
    (saved) => queryClient.setQueryData(caseKeys.one(caseId), saved),
  );
}

export function useReadRtf() {
  return useMutation({ mutationFn: (file: File) => apiUpload<RtfCaseFields>('/cases/rtf', file) });
}

export function useDeleteCases() {
  return useCaseMutation((input: { caseId: string; selection?: CaseSelection }) =>
    apiRequest<{ ids: string[] }>(buildPath('/cases/{id}', { id: input.caseId }), {
      method: 'DELETE',
      query: { filter: input.selection ? JSON.stringify(input.selection) : undefined },
    }),
  );
}

export function useMoveCases() {
  return useCaseMutation((input: { caseId: string; projectId: string; selection?: CaseSelection }) =>
    apiRequest<{ ids: string[] }>(buildPath('/cases/{id}/move', { id: input.caseId }), {
      method: 'POST',
      body: { project_id: input.projectId, ...(input.selection ? { cases: input.selection } : {}) },
    }),
  );
}

export function useDuplicateCase() {
  return useCaseMutation((caseId: string) =>
    apiRequest<CaseDocument>(buildPath('/cases/{id}/duplicate', { id: caseId }), { method: 'POST', body: {} }),
  );
}

export function useCreatePreview() {
  return useCaseMutation((input: { case_id: string; answers: CaseAnswer[] }) =>
    apiRequest<CasePreview>('/previews', { method: 'POST', body: input }),
  );
}

export function useDeletePreview() {
  return useCaseMutation((previewId: string) =>
    apiRequest<void>(buildPath('/previews/{id}', { id: previewId }), { method: 'DELETE' }),
  );
}

/** Every case id a select-all stands for (module libraries hold tens of cases, not thousands). */
export async function allCaseIds(
  listPath: string,
  params: { search?: string; status?: CaseStatusValue; except: readonly string[] },
): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const result = await apiRequest<Paged<CaseSummary>>(listPath, {
      query: {
        page,
        limit: 200,
        search: params.search,
        filter: params.status ? JSON.stringify({ status: params.status }) : undefined,
      },
    });
    ids.push(...result.items.map((c) => c.id).filter((id) => !params.except.includes(id)));
    if (page * 200 >= result.total) return ids;
  }
}

/** Projects of every client, found by name, for copying module cases into one. */
export function projectSearchQueryOptions(search: string) {
  return queryOptions({
    queryKey: ['cases', 'copy-targets', search] as const,
    queryFn: ({ signal }) =>
      apiRequest<Paged<{ id: string; name: string; client_name: string }>>('/projects', {
        query: { limit: 50, sort: 'client_name:ASC,name:ASC', search: search || undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function moduleSearchQueryOptions() {
  return queryOptions({
    queryKey: ['cases', 'module-targets'] as const,
    queryFn: ({ signal }) =>
      apiRequest<Paged<{ id: string; name: string }>>('/module-library', { query: { limit: 200 }, signal }),
  });
}

export function useCopyModuleCases() {
  return useCaseMutation((input: { caseIds: string[]; target: { project_id: string } | { module_id: string } }) =>
    apiRequest<{ ids: string[] }>(
      'project_id' in input.target ? '/module-library/cases/to-project' : '/module-library/cases/modules',
      { method: 'POST', body: { ...input.target, case_ids: input.caseIds } },
    ),
  );
}

export function useRemoveModuleCases(moduleId: string) {
  return useCaseMutation((selection: CaseSelection) =>
    apiRequest<{ ids: string[] }>(buildPath('/module-library/{id}/remove-cases', { id: moduleId }), {
      method: 'DELETE',
      query: { filter: JSON.stringify(selection) },
    }),
  );
}

/** The client's other projects, for the move dialog. */
export function clientProjectsQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: ['cases', 'move-targets', clientId] as const,
    queryFn: ({ signal }) =>
      apiRequest<Paged<{ id: string; name: string }>>('/projects', {
        query: { limit: 200, sort: 'name:ASC', filter: JSON.stringify({ client_id: clientId }) },
        signal,
      }),
  });
}
