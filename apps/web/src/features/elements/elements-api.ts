import { queryOptions } from '@tanstack/react-query';
import type { AnswerTag, ImportJob, KeyTakeaway } from '@pss/contract';
import { apiRequest, apiUpload } from '../../lib/api-client';
import type { ImportJobSource } from '../../lib/use-import-job';

export type ElementsKind = 'SUMMARY' | 'ANSWER_TAGS';

/** The upload and list calls of each kind, below a project's or module's API path. */
const paths: Record<ElementsKind, string> = { SUMMARY: 'key-takeaways', ANSWER_TAGS: 'answers-tags' };

export const elementKeys = {
  all: ['elements'] as const,
  list: (apiPath: string, kind: ElementsKind) => ['elements', apiPath, kind] as const,
  job: (apiPath: string, kind: ElementsKind) => ['elements', apiPath, kind, 'job'] as const,
};

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

/** One kind of elements import of a project or module, for the shared import panel. */
export function elementsImports(apiPath: string, kind: ElementsKind): ImportJobSource {
  return {
    queryKey: elementKeys.job(apiPath, kind),
    latest: (signal) => apiRequest<ImportJob | null>(`${apiPath}/import`, { query: { type: kind }, signal }),
    upload: (file) => apiUpload<ImportJob>(`${apiPath}/${paths[kind]}`, file),
    // The lists show what it wrote.
    refreshOnFinish: elementKeys.all,
  };
}
