import type {
  AssociatedProjectQuery,
  CaseListQuery,
  CaseSelection,
  CatalogueListQuery,
  ModuleBody,
  ModuleLibrary,
  ModuleListQuery,
  ModuleSummary,
  Paged,
} from '@pss/contract';
import type { CatalogueKind } from '../../db/catalogues.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, validationError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { CaseTransfersService } from '../cases/case-transfers.service.js';
import type { CasesService } from '../cases/cases.service.js';
import { createModuleLibraryRepository, type ModuleRow } from './module-library.repository.js';

type Caller = AccessClaims;

function toSummary(row: ModuleRow): ModuleSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    case_count: row.caseCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Module libraries belong to the provider: every call is for superadmins (the routes say so;
 * the service keeps to it too). Their cases are handled by the cases services: listing and
 * removing by the cases service, copying (one transaction each) by the case transfers service.
 */
export function createModuleLibraryService(deps: {
  db: Db;
  cases: Pick<CasesService, 'list' | 'removeFromModule'>;
  transfers: Pick<CaseTransfersService, 'copyToProject' | 'copyToModule'>;
  clock: Clock;
}) {
  const modules = createModuleLibraryRepository(deps.db);
  /** A module and its catalogue links are written together. */
  const inTransaction = <T>(work: (repository: typeof modules) => Promise<T>) =>
    deps.db.transaction((tx) => work(createModuleLibraryRepository(tx)));

  async function requireModule(id: string): Promise<ModuleRow> {
    const row = await modules.findById(id);
    if (!row) throw new AppError('NOT_FOUND', { message: 'The module library does not exist.' });
    return row;
  }

  async function toModule(row: ModuleRow): Promise<ModuleLibrary> {
    const [diseaseTypes, questionCategories] = await Promise.all([
      modules.catalogueOf('disease_types', row.id),
      modules.catalogueOf('question_categories', row.id),
    ]);
    return { ...toSummary(row), disease_types: diseaseTypes, question_categories: questionCategories };
  }

  async function refuseDuplicateName(name: string, except?: string): Promise<void> {
    const existing = await modules.findByName(name);
    if (existing && existing.id !== except) {
      throw validationError([{ field: 'body.name', message: 'A module library with this name already exists.' }]);
    }
  }

  const input = (body: ModuleBody) => ({
    name: body.name.trim(),
    description: body.description?.trim() || null,
    diseaseTypes: body.disease_types,
    questionCategories: body.question_categories,
  });

  return {
    async list(query: ModuleListQuery): Promise<Paged<ModuleSummary>> {
      const page = await modules.list(query);
      return { ...page, items: page.items.map(toSummary) };
    },
    async get(id: string): Promise<ModuleLibrary> {
      return toModule(await requireModule(id));
    },
    async create(body: ModuleBody): Promise<ModuleLibrary> {
      await refuseDuplicateName(body.name);
      const id = await inTransaction((repository) => repository.create(input(body)));
      return toModule((await modules.findById(id))!);
    },
    async update(id: string, body: ModuleBody): Promise<ModuleLibrary> {
      await requireModule(id);
      await refuseDuplicateName(body.name, id);
      await inTransaction((repository) => repository.update(id, input(body), deps.clock.now()));
      return toModule((await modules.findById(id))!);
    },
    /** A module with cases is emptied first (its copies in projects stay where they are). */
    async remove(id: string): Promise<void> {
      const row = await requireModule(id);
      if (row.caseCount > 0) {
        throw new AppError('ASSOCIATED_ITEMS_DELETE_FORBIDDEN', {
          message: 'This module library still has cases: remove them first.',
        });
      }
      await modules.delete(id);
    },
    async catalogue(id: string, kind: CatalogueKind, query: CatalogueListQuery) {
      await requireModule(id);
      return modules.pageCatalogue(kind, id, query);
    },
    async associatedProjects(id: string, query: AssociatedProjectQuery) {
      await requireModule(id);
      return modules.associatedProjects(id, query);
    },
    cases: (caller: Caller, id: string, query: CaseListQuery) => deps.cases.list(caller, { moduleId: id }, query),
    removeCases: (caller: Caller, id: string, selection: CaseSelection) =>
      deps.cases.removeFromModule(caller, id, selection),
    copyToProject: (caller: Caller, caseIds: string[], projectId: string) =>
      deps.transfers.copyToProject(caller, caseIds, projectId),
    copyToModule: (caller: Caller, caseIds: string[], moduleId: string) =>
      deps.transfers.copyToModule(caller, caseIds, moduleId),
  };
}
export type ModuleLibraryService = ReturnType<typeof createModuleLibraryService>;
