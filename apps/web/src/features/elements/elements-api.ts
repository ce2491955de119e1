import { queryOptions } from '@tanstack/react-query';
import { moduleElementRoutes, participantRoutes, projectElementRoutes } from '@pss/contract';
import { call } from '../../lib/api-client';
import type { CaseHome } from '../../lib/case-home';
import type { ImportJobSource } from '../../lib/use-import-job';

export type ElementsKind = 'SUMMARY' | 'ANSWER_TAGS';

/** Where elements live: a project's cases or a module library's (the case home). */
export type ElementsHome = Pick<CaseHome, 'kind' | 'id'>;

const routesOf = (home: ElementsHome) => (home.kind === 'project' ? projectElementRoutes : moduleElementRoutes);

export const elementKeys = {
  all: ['elements'] as const,
  list: (home: ElementsHome, kind: ElementsKind) => ['elements', home.kind, home.id, kind] as const,
  job: (home: ElementsHome, kind: ElementsKind) => ['elements', home.kind, home.id, kind, 'job'] as const,
};

export function keyTakeawaysQueryOptions(home: ElementsHome) {
  return queryOptions({
    queryKey: elementKeys.list(home, 'SUMMARY'),
    queryFn: ({ signal }) => call(routesOf(home).keyTakeaways, { params: { id: home.id } }, { signal }),
  });
}

export function answerTagsQueryOptions(home: ElementsHome) {
  return queryOptions({
    queryKey: elementKeys.list(home, 'ANSWER_TAGS'),
    queryFn: ({ signal }) => call(routesOf(home).answerTags, { params: { id: home.id } }, { signal }),
  });
}

/** The latest import of one kind: a project's imports are read with the participants', a module's on its own. */
function latestImport(home: ElementsHome, kind: ElementsKind, signal: AbortSignal) {
  const params = { id: home.id };
  return home.kind === 'project'
    ? call(participantRoutes.latestImport, { params, query: { type: kind } }, { signal })
    : call(moduleElementRoutes.latestImport, { params, query: { type: kind } }, { signal });
}

/** One kind of elements import of a project or module, for the shared import panel. */
export function elementsImports(home: ElementsHome, kind: ElementsKind): ImportJobSource {
  const routes = routesOf(home);
  return {
    queryKey: elementKeys.job(home, kind),
    latest: (signal) => latestImport(home, kind, signal),
    upload: (file) =>
      call(kind === 'SUMMARY' ? routes.uploadKeyTakeaways : routes.uploadAnswerTags, { params: { id: home.id }, file }),
    // The lists show what it wrote.
    refreshOnFinish: elementKeys.all,
  };
}
