import type {
  CaseDocument,
  CaseForParticipant,
  CaseListQuery,
  CaseProject,
  CaseSelection,
  CaseStatusReport,
  CaseSummary,
  Paged,
  UpdateCaseBody,
} from '@pss/contract';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, validationError } from '../../lib/errors.js';
import type { FileStorage } from '../../lib/storage.js';
import { projectFitProblem, refuseIf, type CaseAccess, type Caller } from './case-access.js';
import { contentColumns, participantView, toCaseDocument } from './case-content.js';
import { savingCase } from './case-save-errors.js';
import { createCasesRepository, type CaseHome, type CaseInsert, type CaseRow } from './cases.repository.js';
import { auditChanges, auditRemovedRows } from '../audit/audit-scope.service.js';
import { cases as casesTable } from '../../db/schema/index.js';

export { checkAnswers, feedbackFor, isAnswered, missingRequired, scoreAnswers } from './case-answers.js';
export type { StoredAnswer } from './case-answers.js';

/**
 * A case's life in its home: listing, creating, saving, publishing and deleting. Moving and
 * copying are in `case-transfers.service.ts`, previews in `case-previews.service.ts`, the
 * patient image and RTF in `case-media.service.ts`; access and home in `case-access.ts`.
 */
export function createCasesService(deps: { db: Db; access: CaseAccess; storage: FileStorage; clock: Clock }) {
  const { access, storage } = deps;
  const cases = createCasesRepository(deps.db);
  const { today } = access;

  async function validateLinks(caller: Caller, row: CaseRow, input: UpdateCaseBody): Promise<void> {
    if (!row.projectId) {
      // A module case has no seasons; its catalogues are the module's.
      if (input.season_id || input.round_number) {
        throw validationError([
          { field: 'body.season_id', message: 'Module library cases are not placed in seasons.' },
        ]);
      }
      const fit = projectFitProblem(input, await access.moduleFacts(row.moduleId!));
      if (fit) throw new AppError(fit);
      return;
    }
    const home = await access.projectFacts(caller, row.projectId);
    const fit = projectFitProblem(input, home);
    if (fit) throw new AppError(fit);
    if (input.season_id && !(await cases.seasonOfProject(input.season_id, row.projectId))) {
      throw validationError([{ field: 'body.season_id', message: 'This season is not one of the project’s.' }]);
    }
    if (input.season_id && input.round_number && !(await cases.roundOfSeason(input.season_id, input.round_number))) {
      throw validationError([{ field: 'body.round_number', message: 'This season has no round of this number.' }]);
    }
  }

  /**
   * Deletes cases, all or none: the rules are checked in the delete's transaction, after
   * locking the rows, so an attempt or a publish cannot slip in between.
   */
  async function removeRows(ids: string[]): Promise<void> {
    const removed = await deps.db.transaction(async (tx) => {
      const inTx = createCasesRepository(tx);
      await inTx.lock(ids);
      const rows = await inTx.findMany(ids, today());
      const facts = new Map((await inTx.moveFacts(ids, today())).map((f) => [f.id, f]));
      await refuseIf(
        rows,
        'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN',
        (row) => (facts.get(row.id)?.participants ?? 0) > 0,
      );
      await refuseIf(rows, 'CHANGES_FORBIDDEN', (row) => row.effectiveStatus === 'ACTIVE');
      await auditRemovedRows(tx, casesTable, ids);
      await inTx.delete(ids);
      return rows;
    });
    // Files are not part of the transaction: they go once the rows are gone.
    for (const row of removed) if (row.imageKey) await storage.remove(row.imageKey);
  }

  return {
    requireCase: access.requireCase,

    /** For a participant's attempt (the clinician module checks it is theirs): the case, whole and as seen. */
    async caseForAttempt(caseId: string): Promise<{ doc: CaseDocument; view: CaseForParticipant }> {
      const row = await cases.findById(caseId, today());
      if (!row) throw new AppError('CASE_NOT_FOUND');
      return { doc: toCaseDocument(row), view: participantView(row) };
    },

    async list(caller: Caller, home: CaseHome, query: CaseListQuery): Promise<Paged<CaseSummary>> {
      if ('projectId' in home) await access.requireProject(caller, home.projectId);
      else {
        access.requireSuperadmin(caller);
        await access.moduleFacts(home.moduleId);
      }
      const page = await cases.list(home, query, today());
      return {
        ...page,
        items: page.items.map((row) => ({
          id: row.id,
          project_id: row.projectId,
          origin: row.origin,
          status: row.effectiveStatus,
          name: row.name,
          patient_name: row.patientName,
          disease_type_name: row.diseaseTypeName,
          season_name: row.seasonName,
          round_number: row.roundNumber,
          question_count: row.questionCount,
          created_at: row.createdAt.toISOString(),
          updated_at: row.updatedAt.toISOString(),
        })),
      };
    },

    async get(caller: Caller, id: string): Promise<CaseDocument> {
      return toCaseDocument(await access.requireCase(caller, id));
    },

    async create(caller: Caller, home: CaseHome, name: string, diseaseTypeId: string | null): Promise<CaseDocument> {
      let place: Pick<CaseInsert, 'origin' | 'clientId' | 'projectId' | 'moduleId'>;
      let facts: CaseProject;
      if ('projectId' in home) {
        const project = await access.projectFacts(caller, home.projectId);
        facts = project;
        place = { origin: 'CUSTOM', clientId: project.clientId, projectId: home.projectId };
      } else {
        access.requireSuperadmin(caller);
        facts = await access.moduleFacts(home.moduleId);
        place = { origin: 'MODULE_LIBRARY', moduleId: home.moduleId };
      }
      if (diseaseTypeId && !facts.disease_type_ids.includes(diseaseTypeId)) throw new AppError('WRONG_DISEASE_TYPE');
      const id = await cases.insert({
        ...place,
        name: name.trim(),
        diseaseTypeId,
        body: { details_sections: [], groupers: [], questions: [] },
      });
      return access.read(id);
    },

    async update(caller: Caller, id: string, input: UpdateCaseBody): Promise<CaseDocument> {
      const row = await access.requireDraft(caller, id);
      await validateLinks(caller, row, input);
      // Conditional: a publish between the check above and this write keeps the case frozen.
      const saved = await savingCase(() => cases.updateDraft(id, contentColumns(input), deps.clock.now()));
      if (!saved) {
        throw new AppError('CHANGES_FORBIDDEN', { message: 'Published and active cases cannot be edited.' });
      }
      const after = await access.read(id);
      auditChanges(toCaseDocument(row), after);
      return after;
    },

    async remove(caller: Caller, id: string, selection: CaseSelection | undefined): Promise<{ ids: string[] }> {
      const rows = await access.resolveSelection(caller, id, selection, 'CASES_FROM_WRONG_PROJECT');
      await removeRows(rows.map((r) => r.id));
      return { ids: rows.map((r) => r.id) };
    },

    /** Takes a case out of its project (how a copied module case is undone): the delete rules apply. */
    async removeFromProject(caller: Caller, id: string): Promise<void> {
      const row = await access.requireCase(caller, id);
      if (!row.projectId) throw new AppError('CASES_FROM_WRONG_PROJECT');
      await removeRows([row.id]);
    },

    /** Removes a selection of a module's cases (copies already in projects stay). */
    async removeFromModule(caller: Caller, moduleId: string, selection: CaseSelection): Promise<{ ids: string[] }> {
      access.requireSuperadmin(caller);
      await access.moduleFacts(moduleId);
      const ids =
        'ids' in selection
          ? selection.ids
          : await cases.idsMatching({ moduleId }, today(), {
              search: selection.search,
              status: selection.filter?.status,
              except: selection.except,
            });
      const rows = await cases.findMany([...new Set(ids)], today());
      if (rows.length !== new Set(ids).size || rows.some((r) => r.moduleId !== moduleId || r.projectId)) {
        throw new AppError('CASES_FROM_WRONG_PROJECT');
      }
      const removed = rows.map((r) => r.id);
      await auditRemovedRows(deps.db, casesTable, removed);
      await cases.delete(removed);
      for (const row of rows) if (row.imageKey) await storage.remove(row.imageKey);
      return { ids: removed };
    },

    async status(caller: Caller, id: string): Promise<CaseStatusReport> {
      const row = await access.requireCase(caller, id);
      const problems = await access.problemsOf(caller, row);
      return { id, status: row.effectiveStatus, valid: problems.length === 0, problems };
    },

    async setStatus(caller: Caller, id: string, status: 'DRAFT' | 'PUBLISHED'): Promise<CaseDocument> {
      const row = await access.requireCase(caller, id);
      if (status === 'PUBLISHED' && row.status === 'DRAFT') {
        const problems = await access.problemsOf(caller, row);
        if (problems.length) throw new AppError('CASE_INVALID_FOR_PUBLISH', { details: { fields: problems } });
      }
      if (status === 'DRAFT' && row.effectiveStatus === 'ACTIVE') {
        throw new AppError('CHANGES_FORBIDDEN', { message: 'An active case cannot go back to draft.' });
      }
      // Each change is a conditional write: the rule is checked again in the statement.
      if (status === 'PUBLISHED' && row.status === 'DRAFT') {
        if (!(await cases.publish(id, row.updatedAt, deps.clock.now()))) {
          throw new AppError('CHANGES_FORBIDDEN', {
            message: 'The case changed while it was being published: check it and publish it again.',
          });
        }
      }
      if (status === 'DRAFT' && row.status === 'PUBLISHED') {
        const done = await deps.db.transaction(async (tx) => {
          const inTx = createCasesRepository(tx);
          await inTx.lock([id]);
          return inTx.unpublish(id, today(), deps.clock.now());
        });
        if (!done) {
          const now = await cases.findById(id, today());
          throw new AppError('CHANGES_FORBIDDEN', {
            message:
              now?.effectiveStatus === 'ACTIVE'
                ? 'An active case cannot go back to draft.'
                : 'Participants have this case: it stays published.',
          });
        }
      }
      return access.read(id);
    },

    async counts(caller: Caller, id: string) {
      const row = await access.requireCase(caller, id);
      return { ...(await cases.counts(id)), questions: row.questionCount };
    },
  };
}
export type CasesService = ReturnType<typeof createCasesService>;
