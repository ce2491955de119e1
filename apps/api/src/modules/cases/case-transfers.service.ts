import { randomUUID } from 'node:crypto';
import { MAX_CASE_NAME, type CaseDocument, type CaseProject, type CaseSelection } from '@pss/contract';
import type { Db, Tx } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, validationError } from '../../lib/errors.js';
import type { FileStorage } from '../../lib/storage.js';
import type { ElementsService } from '../elements/elements.service.js';
import type { copyCaseResources } from '../resources/resources.service.js';
import { projectFitProblem, refuseIf, type CaseAccess, type Caller } from './case-access.js';
import { renewIds } from './case-content.js';
import { createCasesRepository, type CaseInsert, type CaseRecord, type CaseRow } from './cases.repository.js';

function copyName(name: string): string {
  const suffix = ' (copy)';
  return name.slice(0, MAX_CASE_NAME - suffix.length) + suffix;
}

/**
 * The one fit check of every transfer: each case must fit where it goes (its disease type
 * and question categories, `projectFitProblem`), else nothing is moved or copied.
 */
function assertFits(rows: CaseRow[], target: CaseProject): void {
  for (const row of rows) {
    const fit = projectFitProblem(
      { disease_type_id: row.diseaseTypeId, questions: row.body.questions },
      target,
      'transfer',
    );
    if (fit) throw new AppError(fit, { details: { case_ids: [row.id] } });
  }
}

/** Copies of cases, as new drafts wherever they go, remembering their original (the demo's module copies too). */
export function copyValues(row: CaseRecord, name: string, detach: boolean): CaseInsert {
  return {
    // A module library holds module cases only: a detached copy made there stays one.
    origin: detach && row.projectId ? 'CUSTOM' : row.origin,
    clientId: row.clientId,
    projectId: row.projectId,
    moduleId: row.moduleId,
    status: 'DRAFT',
    name,
    diseaseTypeId: row.diseaseTypeId,
    patientName: row.patientName,
    patientAge: row.patientAge,
    imageKey: null,
    imageType: row.imageType,
    imageAlt: row.imageAlt,
    reasonForEncounter: row.reasonForEncounter,
    feedbackType: row.feedbackType,
    references: row.references,
    testResults: row.testResults,
    explanation: row.explanation,
    body: renewIds(row.body),
    questionCount: row.questionCount,
    sourceCaseId: detach ? null : row.id,
  };
}

/**
 * Cases changing place: moved to another project of the client or into a module library,
 * duplicated, copied out of a module library. Each is all or nothing: the checks that can
 * change under it and every write (the cases, then their elements through the elements
 * service) run in one transaction opened here.
 */
export function createCaseTransfersService(deps: {
  db: Db;
  access: CaseAccess;
  elements: Pick<ElementsService, 'copyElements'>;
  /** Copies carry their original's resources (the resources module's attachment rows). */
  resources: { copyCaseResources: typeof copyCaseResources };
  storage: FileStorage;
  clock: Clock;
}) {
  const { access, storage } = deps;
  const { today } = access;

  /** Module cases by id, all of one module, for copying out of it. */
  async function requireModuleCases(caller: Caller, ids: string[]): Promise<CaseRow[]> {
    access.requireSuperadmin(caller);
    const rows = await createCasesRepository(deps.db).findMany([...new Set(ids)], today());
    const missing = ids.filter((id) => !rows.some((r) => r.id === id && r.moduleId && !r.projectId));
    if (missing.length) throw new AppError('CASE_NOT_FOUND', { details: { case_ids: missing } });
    if (new Set(rows.map((r) => r.moduleId)).size > 1) throw new AppError('CASES_FROM_DIFFERENT_PROJECTS');
    return rows;
  }

  /**
   * Writes copies of these cases in one transaction, the copies' images made first (files
   * are not part of it) and removed again when the transaction fails.
   */
  async function writeCopies(rows: CaseRow[], values: (row: CaseRow) => CaseInsert): Promise<string[]> {
    const images: (string | null)[] = [];
    try {
      for (const row of rows) images.push(row.imageKey ? await copyImage(row.imageKey) : null);
      return await deps.db.transaction(async (tx) => {
        const inserts = rows.map((row, i) => ({ ...values(row), imageKey: images[i] ?? null }));
        const ids = await createCasesRepository(tx).insertMany(inserts);
        await copyElements(tx, rows, ids, inserts);
        await deps.resources.copyCaseResources(
          tx,
          rows.map((row, i) => ({ from: row.id, to: ids[i]! })),
        );
        return ids;
      });
    } catch (error) {
      for (const key of images) if (key) await storage.remove(key);
      throw error;
    }
  }

  /** Copies carry their case's key takeaways and answer tags (a detached duplicate's become CUSTOM). */
  function copyElements(tx: Tx, rows: CaseRow[], ids: string[], inserts: CaseInsert[]): Promise<void> {
    return deps.elements.copyElements(
      tx,
      rows.map((row, i) => ({
        from: row,
        to: { id: ids[i]!, body: inserts[i]!.body },
        ...(inserts[i]!.origin === 'CUSTOM' ? { origin: 'CUSTOM' as const } : {}),
      })),
    );
  }

  async function copyImage(key: string): Promise<string> {
    const copy = `case-images/${randomUUID()}`;
    await storage.put(copy, await storage.get(key));
    return copy;
  }

  /** Locks the cases and reads them again: what the transfer checks holds until it commits. */
  async function lockedRows(tx: Tx, ids: string[]) {
    const inTx = createCasesRepository(tx);
    await inTx.lock(ids);
    const rows = await inTx.findMany(ids, today());
    const facts = new Map((await inTx.moveFacts(ids, today())).map((f) => [f.id, f]));
    return { inTx, rows, facts };
  }

  async function duplicate(caller: Caller, id: string, name: string | undefined, detach: boolean) {
    const row = await access.requireCase(caller, id);
    const [copyId] = await writeCopies([row], (r) => copyValues(r, name ?? copyName(r.name), detach));
    return access.read(copyId!);
  }

  /** Copies module cases to another home as drafts that remember their module case. */
  async function copyModuleCases(rows: CaseRow[], place: Partial<CaseInsert>): Promise<{ ids: string[] }> {
    const ids = await writeCopies(rows, (row) => ({
      ...copyValues(row, row.name, false),
      origin: 'MODULE_LIBRARY',
      ...place,
    }));
    return { ids };
  }

  return {
    async move(caller: Caller, id: string, targetProjectId: string, selection: CaseSelection | undefined) {
      const selected = await access.resolveSelection(caller, id, selection, 'CASES_FROM_DIFFERENT_PROJECTS');
      const source = selected[0]!;
      if (!source.projectId) throw new AppError('CASES_FROM_WRONG_PROJECT');
      const target = await access.projectFacts(caller, targetProjectId);
      // Cases move between projects of one client only.
      if (target.clientId !== source.clientId) throw new AppError('PROJECT_NOT_FOUND');
      if (targetProjectId === source.projectId) {
        throw validationError([{ field: 'body.project_id', message: 'The cases are already in this project.' }]);
      }
      const ids = selected.map((r) => r.id);
      await deps.db.transaction(async (tx) => {
        const { inTx, rows, facts } = await lockedRows(tx, ids);
        await refuseIf(rows, 'CASE_IS_ACTIVE', (row) => row.effectiveStatus === 'ACTIVE');
        await refuseIf(rows, 'CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON', (row) =>
          Boolean(facts.get(row.id)?.seasonCurrentOrFuture),
        );
        assertFits(rows, target);
        await inTx.moveToProject(ids, { projectId: targetProjectId, clientId: target.clientId }, deps.clock.now());
      });
      return { ids };
    },

    /** Moves a project's case into a module library (the move rules apply; it leaves its season). */
    async moveToModule(caller: Caller, id: string, moduleId: string): Promise<CaseDocument> {
      access.requireSuperadmin(caller);
      const found = await access.requireCase(caller, id);
      if (!found.projectId) throw new AppError('CASES_FROM_WRONG_PROJECT');
      const target = await access.moduleFacts(moduleId);
      await deps.db.transaction(async (tx) => {
        const { inTx, rows, facts } = await lockedRows(tx, [id]);
        const row = rows[0];
        if (!row?.projectId) throw new AppError('CASES_FROM_WRONG_PROJECT');
        if (row.effectiveStatus === 'ACTIVE') throw new AppError('CASE_IS_ACTIVE');
        if (facts.get(id)?.seasonCurrentOrFuture) throw new AppError('CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON');
        if ((facts.get(id)?.participants ?? 0) > 0) throw new AppError('CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN');
        assertFits(rows, target);
        await inTx.moveToModule(id, moduleId, deps.clock.now());
      });
      return access.read(id);
    },

    /** Copies module cases into a client's project: all or nothing, each must fit the project. */
    async copyToProject(caller: Caller, caseIds: string[], projectId: string): Promise<{ ids: string[] }> {
      const rows = await requireModuleCases(caller, caseIds);
      const target = await access.projectFacts(caller, projectId);
      assertFits(rows, target);
      return copyModuleCases(rows, { projectId, clientId: target.clientId, moduleId: null });
    },

    /** Copies module cases into another module library: all or nothing, each must fit it. */
    async copyToModule(caller: Caller, caseIds: string[], moduleId: string): Promise<{ ids: string[] }> {
      const rows = await requireModuleCases(caller, caseIds);
      assertFits(rows, await access.moduleFacts(moduleId));
      return copyModuleCases(rows, { moduleId, projectId: null, clientId: null });
    },

    duplicate: (caller: Caller, id: string, name?: string) => duplicate(caller, id, name, false),
    duplicateDetached: (caller: Caller, id: string, name?: string) => duplicate(caller, id, name, true),
  };
}
export type CaseTransfersService = ReturnType<typeof createCaseTransfersService>;
