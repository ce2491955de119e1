import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type CaseAnswer,
  type CaseSelection,
  type CaseStatusValue,
  type CreateCaseBody,
  type UpdateCaseBody,
  caseRoutes,
  moduleLibraryRoutes,
  projectRoutes,
} from '@pss/contract';
import { call, callRaw } from '../../lib/api-client';
import type { CaseHome } from '../../lib/case-home';

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

/** Where a list of cases lives: a project or a module library (the case home). */
export type CasesHome = Pick<CaseHome, 'kind' | 'id'>;

/** One page of a home's cases: a project's list call or a module library's. */
function casePage(home: CasesHome, query: CaseListQueryInput, signal?: AbortSignal) {
  const params = { id: home.id };
  return home.kind === 'project'
    ? call(caseRoutes.list, { params, query }, { signal })
    : call(moduleLibraryRoutes.cases, { params, query }, { signal });
}
type CaseListQueryInput = { page?: number; limit?: number; search?: string; sort?: string; filter?: string };

/** A page of a project's or module's cases. */
export function caseListQueryOptions(home: CasesHome, params: CaseListParams) {
  const { status, ...rest } = params;
  return queryOptions({
    queryKey: caseKeys.list(`${home.kind}:${home.id}`, params),
    queryFn: ({ signal }) =>
      casePage(home, { ...rest, filter: status ? JSON.stringify({ status }) : undefined }, signal),
    placeholderData: keepPreviousData,
  });
}

export function caseQueryOptions(caseId: string) {
  return queryOptions({
    queryKey: caseKeys.one(caseId),
    queryFn: ({ signal }) => call(caseRoutes.get, { params: { id: caseId } }, { signal }),
  });
}

/** The patient image as an object URL (the image call needs the session's token). */
export function caseImageQueryOptions(caseId: string, updatedAt: string, enabled: boolean) {
  return queryOptions({
    queryKey: caseKeys.image(caseId, updatedAt),
    queryFn: async () =>
      URL.createObjectURL(await (await callRaw(caseRoutes.image, { params: { id: caseId } })).blob()),
    enabled,
    staleTime: Infinity,
  });
}

export function participantViewQueryOptions(caseId: string) {
  return queryOptions({
    queryKey: caseKeys.participantView(caseId),
    queryFn: ({ signal }) => call(caseRoutes.preview, { params: { id: caseId } }, { signal }),
    retry: false,
  });
}

export function previewListQueryOptions(
  caseId: string,
  params: { page: number; limit: number; search?: string; sort?: string },
) {
  return queryOptions({
    queryKey: caseKeys.previews(caseId, params),
    queryFn: ({ signal }) => call(caseRoutes.listPreviews, { params: { id: caseId }, query: params }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function previewQueryOptions(previewId: string) {
  return queryOptions({
    queryKey: caseKeys.preview(previewId),
    queryFn: ({ signal }) => call(caseRoutes.getPreview, { params: { id: previewId } }, { signal }),
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
  return useCaseMutation((input: CreateCaseBody) => call(caseRoutes.create, { body: input }));
}

export function useSaveCase(caseId: string) {
  const queryClient = useQueryClient();
  return useCaseMutation(
    (body: UpdateCaseBody) => call(caseRoutes.update, { params: { id: caseId }, body }),
    (saved) => queryClient.setQueryData(caseKeys.one(caseId), saved),
  );
}

export function useSetCaseStatus(caseId: string) {
  const queryClient = useQueryClient();
  return useCaseMutation(
    (status: 'DRAFT' | 'PUBLISHED') => call(caseRoutes.setStatus, { params: { id: caseId }, body: { status } }),
    (saved) => queryClient.setQueryData(caseKeys.one(caseId), saved),
  );
}

export function useCaseImage(caseId: string) {
  const queryClient = useQueryClient();
  return useCaseMutation(
    (file: File | null) =>
      file
        ? call(caseRoutes.setImage, { params: { id: caseId }, file: file })
        : call(caseRoutes.removeImage, { params: { id: caseId } }),
    (saved) => queryClient.setQueryData(caseKeys.one(caseId), saved),
  );
}

export function useReadRtf() {
  return useMutation({ mutationFn: (file: File) => call(caseRoutes.readRtf, { file: file }) });
}

export function useDeleteCases() {
  return useCaseMutation((input: { caseId: string; selection?: CaseSelection }) =>
    call(caseRoutes.remove, {
      params: { id: input.caseId },
      query: { filter: input.selection ? JSON.stringify(input.selection) : undefined },
    }),
  );
}

export function useMoveCases() {
  return useCaseMutation((input: { caseId: string; projectId: string; selection?: CaseSelection }) =>
    call(caseRoutes.move, {
      params: { id: input.caseId },
      body: { project_id: input.projectId, ...(input.selection ? { cases: input.selection } : {}) },
    }),
  );
}

export function useDuplicateCase() {
  return useCaseMutation((caseId: string) => call(caseRoutes.duplicate, { params: { id: caseId }, body: {} }));
}

export function useCreatePreview() {
  return useCaseMutation((input: { case_id: string; answers: CaseAnswer[] }) =>
    call(caseRoutes.createPreview, { body: input }),
  );
}

export function useDeletePreview() {
  return useCaseMutation((previewId: string) => call(caseRoutes.deletePreview, { params: { id: previewId } }));
}

/** Every case id a select-all stands for (module libraries hold tens of cases, not thousands). */
export async function allCaseIds(
  home: CasesHome,
  params: { search?: string; status?: CaseStatusValue; except: readonly string[] },
): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const result = await casePage(home, {
      page,
      limit: 200,
      search: params.search,
      filter: params.status ? JSON.stringify({ status: params.status }) : undefined,
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
      call(
        projectRoutes.list,
        { query: { limit: 50, sort: 'client_name:ASC,name:ASC', search: search || undefined } },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export function moduleSearchQueryOptions() {
  return queryOptions({
    queryKey: ['cases', 'module-targets'] as const,
    queryFn: ({ signal }) => call(moduleLibraryRoutes.list, { query: { limit: 200 } }, { signal }),
  });
}

export function useCopyModuleCases() {
  return useCaseMutation((input: { caseIds: string[]; target: { project_id: string } | { module_id: string } }) =>
    'project_id' in input.target
      ? call(moduleLibraryRoutes.copyToProject, { body: { ...input.target, case_ids: input.caseIds } })
      : call(moduleLibraryRoutes.copyToModule, { body: { ...input.target, case_ids: input.caseIds } }),
  );
}

export function useRemoveModuleCases(moduleId: string) {
  return useCaseMutation((selection: CaseSelection) =>
    call(moduleLibraryRoutes.removeCases, { params: { id: moduleId }, query: { filter: JSON.stringify(selection) } }),
  );
}

/** The client's other projects, for the move dialog. */
export function clientProjectsQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: ['cases', 'move-targets', clientId] as const,
    queryFn: ({ signal }) =>
      call(
        projectRoutes.list,
        { query: { limit: 200, sort: 'name:ASC', filter: JSON.stringify({ client_id: clientId }) } },
        { signal },
      ),
  });
}
