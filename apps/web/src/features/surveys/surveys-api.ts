import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  clientRoutes,
  projectRoutes,
  reportRoutes,
  surveyRoutes,
  type ReportFormat,
  type SurveyTemplateTypeValue,
  type ProjectSurveyBody,
  type SurveyTemplateFilter,
  type SurveyTemplateSelection,
  type UpdateSurveyTemplateBody,
} from '@pss/contract';
import { call, callRaw } from '../../lib/api-client';
import { saveDownload } from '../../lib/download';

export const surveyKeys = {
  all: ['survey-templates'] as const,
  list: (params: object) => ['survey-templates', 'list', params] as const,
  detail: (id: string) => ['survey-templates', 'detail', id] as const,
  projects: (id: string) => ['survey-templates', 'projects', id] as const,
  projectSurvey: (projectId: string) => ['survey-templates', 'project', projectId] as const,
};

export function surveyListQueryOptions(params: {
  page: number;
  limit: number;
  search?: string;
  sort?: string;
  filter?: SurveyTemplateFilter;
}) {
  const { filter, ...rest } = params;
  const query = { ...rest, filter: filter && Object.keys(filter).length ? JSON.stringify(filter) : undefined };
  return queryOptions({
    queryKey: surveyKeys.list(params),
    queryFn: ({ signal }) => call(surveyRoutes.list, { query }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** The clients the list's client filter offers (the caller's own only, for a client administrator). */
export const filterClientOptions = () =>
  queryOptions({
    queryKey: ['survey-template-filters', 'clients'] as const,
    queryFn: ({ signal }) => call(clientRoutes.list, { query: { limit: 200, sort: 'name:ASC' } }, { signal }),
  });

/** The projects the list's project filter offers: the chosen client's, or every client's. */
export const filterProjectOptions = (clientId: string | null) =>
  queryOptions({
    queryKey: ['survey-template-filters', 'projects', clientId] as const,
    queryFn: ({ signal }) =>
      call(
        projectRoutes.list,
        {
          query: {
            limit: 200,
            sort: 'client_name:ASC,name:ASC',
            ...(clientId ? { filter: JSON.stringify({ client_id: clientId }) } : {}),
          },
        },
        { signal },
      ),
  });

export const surveyQueryOptions = (id: string) =>
  queryOptions({
    queryKey: surveyKeys.detail(id),
    queryFn: ({ signal }) => call(surveyRoutes.get, { params: { id } }, { signal }),
  });

export const linkedProjectsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: surveyKeys.projects(id),
    queryFn: ({ signal }) => call(surveyRoutes.projects, { params: { id } }, { signal }),
  });

export const projectSurveyQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: surveyKeys.projectSurvey(projectId),
    queryFn: ({ signal }) => call(surveyRoutes.getProjectSurvey, { params: { id: projectId } }, { signal }),
  });

/** Creates (no id) or saves a template whole. */
export function useSaveSurvey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id?: string; body: UpdateSurveyTemplateBody }) =>
      input.id
        ? call(surveyRoutes.update, { params: { id: input.id }, body: input.body })
        : call(surveyRoutes.create, { body: input.body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(surveyKeys.detail(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: surveyKeys.all });
    },
  });
}

export function useDuplicateSurvey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(surveyRoutes.duplicate, { params: { id }, body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: surveyKeys.all }),
  });
}

export function useDeleteSurveys() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (selection: SurveyTemplateSelection) =>
      call(surveyRoutes.remove, { query: { filter: JSON.stringify(selection) } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: surveyKeys.all }),
  });
}

export function useSaveProjectSurvey(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProjectSurveyBody) => call(surveyRoutes.setProjectSurvey, { params: { id: projectId }, body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(surveyKeys.projectSurvey(projectId), saved);
      void queryClient.invalidateQueries({ queryKey: surveyKeys.all });
    },
  });
}

/** Downloads the project's survey responses of one type (a row per participant and survey, a column per question). */
export function downloadSurveyResponses(projectId: string, type: SurveyTemplateTypeValue, format: ReportFormat) {
  return saveDownload(
    callRaw(reportRoutes.projectSurveyResponse, { params: { projectId, type }, query: { format } }),
    `survey-responses-${type.toLowerCase()}.${format}`,
  );
}
