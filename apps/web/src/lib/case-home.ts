import { useOutletContext } from './screen-router';
import type { CatalogueEntry, ModuleLibrary, Project, Season } from '@pss/contract';

/**
 * Where the cases (and their elements) on screen live: a client's project or a module library. The project and
 * module layouts hand theirs down as outlet context; the case screens serve both.
 */
export interface CaseHome {
  kind: 'project' | 'module';
  id: string;
  clientId: string | null;
  /** The path of the cases list; a case's pages are below it. */
  casesPath: string;
  disease_types: CatalogueEntry[];
  question_categories: CatalogueEntry[];
  seasons: Season[];
}

export function caseHomeOf(context: { project?: Project; module?: ModuleLibrary }): CaseHome {
  if (context.project) {
    const p = context.project;
    return {
      kind: 'project',
      id: p.id,
      clientId: p.client_id,
      casesPath: `/project-management/clients/${p.client_id}/projects/${p.id}/cases`,
      disease_types: p.disease_types,
      question_categories: p.question_categories,
      seasons: p.seasons,
    };
  }
  const m = context.module!;
  return {
    kind: 'module',
    id: m.id,
    clientId: null,
    casesPath: `/module-library/${m.id}/cases`,
    disease_types: m.disease_types,
    question_categories: m.question_categories,
    seasons: [],
  };
}

export function useCaseHome(): CaseHome {
  return caseHomeOf(useOutletContext<{ project?: Project; module?: ModuleLibrary }>());
}
