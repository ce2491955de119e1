import { caseProblems, type CaseDocument, type CaseProject, type CaseSelection, type ErrorCode } from '@pss/contract';
import type { Db } from '../../db/client.js';
import { dayIn, type Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { toCaseDocument } from './case-content.js';
import { createCasesRepository, type CaseHome, type CaseRow } from './cases.repository.js';

export type Caller = AccessClaims;
type Projects = Pick<ProjectsService, 'requireVisible' | 'get'>;

/**
 * Whether a case may live in a project or module library: its disease type must be one of
 * the home's and the home must have every question category its questions use. The one rule
 * for saving, moving and copying a case. A disease type the author picks when saving is
 * WRONG_DISEASE_TYPE; a case brought into a home that lacks its disease type (moved or
 * copied) is PROJECT_MISSING_DISEASE_TYPES, the home's shortfall.
 */
export function projectFitProblem(
  content: { disease_type_id: string | null; questions: { category_id: string | null }[] },
  project: CaseProject,
  purpose: 'save' | 'transfer' = 'save',
): ErrorCode | null {
  const categories = new Set(project.question_category_ids);
  const missingCategories = content.questions.some((q) => q.category_id && !categories.has(q.category_id));
  const wrongDisease = Boolean(content.disease_type_id && !project.disease_type_ids.includes(content.disease_type_id));
  if (wrongDisease && missingCategories) return 'PROJECT_MISSING_QUESTION_CATEGORIES_AND_DISEASE_TYPES';
  if (wrongDisease) return purpose === 'save' ? 'WRONG_DISEASE_TYPE' : 'PROJECT_MISSING_DISEASE_TYPES';
  if (missingCategories) return 'PROJECT_MISSING_QUESTION_CATEGORIES';
  return null;
}

/** Refuses the whole call, naming every case the test holds for. */
export async function refuseIf(
  rows: CaseRow[],
  code: ErrorCode,
  test: (row: CaseRow) => boolean | Promise<boolean>,
): Promise<void> {
  const refused: string[] = [];
  for (const row of rows) if (await test(row)) refused.push(row.id);
  if (refused.length) throw new AppError(code, { details: { case_ids: refused } });
}

/**
 * Who may reach a case, and the home it answers to: its project (catalogues, seasons) or its
 * module library. Shared by the cases, transfers, previews and media services.
 */
export function createCaseAccess(deps: {
  db: Db;
  projects: Projects;
  clock: Clock;
  /** The schedule's time zone (SCHEDULE_TIME_ZONE): whether a case's season is current is judged by a day there. */
  timeZone: string;
}) {
  const cases = createCasesRepository(deps.db);
  const today = () => dayIn(deps.timeZone, deps.clock.now());

  /** The case, if the caller may see it; another client's case is "not found". */
  async function requireCase(caller: Caller, id: string): Promise<CaseRow> {
    const row = await cases.findById(id, today());
    if (!row) throw new AppError('CASE_NOT_FOUND');
    if (row.projectId) {
      await deps.projects.requireVisible(caller, row.projectId).catch(() => {
        throw new AppError('CASE_NOT_FOUND');
      });
    } else if (caller.role !== 'SUPERADMIN') {
      // Module library cases belong to the provider's staff.
      throw new AppError('CASE_NOT_FOUND');
    }
    return row;
  }

  async function requireDraft(caller: Caller, id: string): Promise<CaseRow> {
    const row = await requireCase(caller, id);
    if (row.effectiveStatus !== 'DRAFT') {
      throw new AppError('CHANGES_FORBIDDEN', { message: 'Published and active cases cannot be edited.' });
    }
    return row;
  }

  function requireSuperadmin(caller: Caller): void {
    if (caller.role !== 'SUPERADMIN') throw new AppError('FORBIDDEN');
  }

  /** A project the caller may see (PROJECT_NOT_FOUND otherwise). */
  async function requireProject(caller: Caller, projectId: string): Promise<void> {
    await deps.projects.requireVisible(caller, projectId);
  }

  async function projectFacts(caller: Caller, projectId: string): Promise<CaseProject & { clientId: string }> {
    const project = await deps.projects.get(caller, projectId);
    return {
      clientId: project.client_id,
      disease_type_ids: project.disease_types.map((d) => d.id),
      question_category_ids: project.question_categories.map((c) => c.id),
      season_rounds: Object.fromEntries(project.seasons.map((s) => [s.id, s.rounds.map((r) => r.number)])),
    };
  }

  async function moduleFacts(moduleId: string): Promise<CaseProject> {
    const facts = await cases.moduleFacts(moduleId);
    if (!facts) throw new AppError('NOT_FOUND', { message: 'The module library does not exist.' });
    return facts;
  }

  /** What the case must answer to: its project's catalogues, or its module library's. */
  async function homeOf(caller: Caller, row: CaseRow): Promise<CaseProject> {
    if (row.projectId) return projectFacts(caller, row.projectId);
    return moduleFacts(row.moduleId!);
  }

  function homeKey(row: CaseRow): CaseHome {
    return row.projectId ? { projectId: row.projectId } : { moduleId: row.moduleId! };
  }

  /** Everything that stops the case being published or previewed in its home. */
  async function problemsOf(caller: Caller, row: CaseRow) {
    return caseProblems(toCaseDocument(row), await homeOf(caller, row));
  }

  /** The case in the path and the cases a selection adds, all from the same project. */
  async function resolveSelection(
    caller: Caller,
    id: string,
    selection: CaseSelection | undefined,
    mismatch: 'CASES_FROM_DIFFERENT_PROJECTS' | 'CASES_FROM_WRONG_PROJECT',
  ): Promise<CaseRow[]> {
    const first = await requireCase(caller, id);
    if (!selection) return [first];
    let ids: string[];
    if ('ids' in selection) {
      ids = selection.ids;
    } else {
      ids = await cases.idsMatching(homeKey(first), today(), {
        search: selection.search,
        status: selection.filter?.status,
        except: selection.except,
      });
    }
    const rows = await cases.findMany([...new Set([id, ...ids])], today());
    const foreign = rows.filter((r) => r.projectId !== first.projectId || r.moduleId !== first.moduleId);
    if (rows.length !== new Set([id, ...ids]).size || foreign.length) {
      throw new AppError(mismatch, {
        details: { case_ids: [...foreign.map((r) => r.id), ...ids.filter((x) => !rows.some((r) => r.id === x))] },
      });
    }
    return rows;
  }

  /** A case as stored now (after a write), whole. */
  async function read(id: string): Promise<CaseDocument> {
    return toCaseDocument((await cases.findById(id, today()))!);
  }

  return {
    today,
    requireCase,
    requireDraft,
    requireSuperadmin,
    requireProject,
    projectFacts,
    moduleFacts,
    homeOf,
    problemsOf,
    resolveSelection,
    read,
  };
}
export type CaseAccess = ReturnType<typeof createCaseAccess>;
