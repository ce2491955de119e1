import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AnswerTag, ImportJob, KeyTakeaway } from '@pss/contract';
import { apiRequest, apiUpload } from '../../lib/api-client';

export type ElementsKind = 'SUMMARY' | 'ANSWER_TAGS';

/** The upload and list calls of each kind, below a project's or module's API path. */
const paths: Record<ElementsKind, string> = { SUMMARY: 'key-takeaways', ANSWER_TAGS: 'answers-tags' };

export const elementKeys = {
  all: ['elements'] as const,
  list: (apiPath: string, kind: ElementsKind) => ['elements', apiPath, kind] as const,
  job: (apiPath: string, kind: ElementsKind) => ['elements', apiPath, kind, 'job'] as const,
};

export function isRunning(job: ImportJob | null | undefined): boolean {
  return job?.state === 'NOT_STARTED' || job?.state === 'RUNNING';
}

export function keyTakeawaysQueryOptions(apiPath: string) {
  return queryOptions({
    queryKey: elementKeys.list(apiPath, 'SUMMARY'),
    queryFn: ({ signal }) => apiRequest<{ items: KeyTakeaway[] }>(`${apiPath}/key-takeaways`, { signal }),
  });
}

export function answerTagsQueryOptions(apiPath: string) {
  return queryOptions({
    queryKey: elementKeys.list(apiPath, 'ANSWER_TAGS'),
    queryFn: ({ signal }) => apiRequest<{ items: AnswerTag[] }>(`${apiPath}/answers-tags`, { signal }),
  });
}

export function latestJobQueryOptions(apiPath: string, kind: ElementsKind) {
  return queryOptions({
    queryKey: elementKeys.job(apiPath, kind),
    queryFn: ({ signal }) => apiRequest<ImportJob | null>(`${apiPath}/import`, { query: { type: kind }, signal }),
    // Follow a running import.
    refetchInterval: (query) => (isRunning(query.state.data) ? 1000 : false),
  });
}

export function useUploadElements(apiPath: string, kind: ElementsKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => apiUpload<ImportJob>(`${apiPath}/${paths[kind]}`, file),
    onSuccess: (job) => queryClient.setQueryData(elementKeys.job(apiPath, kind), job),
  });
}
