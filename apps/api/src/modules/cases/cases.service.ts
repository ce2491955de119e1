import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  caseProblems,
  MAX_CASE_NAME,
  type CaseDocument,
  type CaseFeedbackQuery,
  type CaseForParticipant,
  type CaseListQuery,
  type CasePreview,
  type CasePreviewListQuery,
  type CaseProject,
  type CaseSelection,
  type CaseStatusReport,
  type CaseSummary,
  type CreatePreviewBody,
  type ErrorCode,
  type Paged,
  type RtfCaseFields,
  type UpdateCaseBody,
} from '@pss/contract';
import type { Clock } from '../../lib/clock.js';
import { AppError, validationError } from '../../lib/errors.js';
import { imageTypeOf } from '../../lib/image-type.js';
import { caseFieldsFromRtf, isRtf } from '../../lib/rtf.js';
import { sanitizeRichText } from '../../lib/rich-text.js';
import type { FileStorage } from '../../lib/storage.js';
import type { StoredUpload } from '../../lib/uploads.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { checkAnswers, feedbackFor, missingRequired, scoreAnswers, type StoredAnswer } from './case-answers.js';
import { contentColumns, renewIds, toCaseDocument } from './case-content.js';
import type { CaseHome, CaseInsert, CaseRow, CasesRepository } from './cases.repository.js';

type Caller = AccessClaims;
type Projects = Pick<ProjectsService, 'requireVisible' | 'get'>;

/**
 * Whether a case may live in a project: its disease type must be one of the project's and
 * the project must have every question category its questions use. The one rule for moving
 * a case and for copying a module case into a project.
 */
export function projectFitProblem(
  content: { disease_type_id: string | null; questions: { category_id: string | null }[] },
  project: CaseProject,
): ErrorCode | null {
  const categories = new Set(project.question_category_ids);
  const missingCategories = content.questions.some((q) => q.category_id && !categories.has(q.category_id));
  const wrongDisease = Boolean(content.disease_type_id && !project.disease_type_ids.includes(content.disease_type_id));
  if (wrongDisease && missingCategories) return 'PROJECT_MISSING_QUESTION_CATEGORIES_AND_DISEASE_TYPES';
  if (wrongDisease) return 'WRONG_DISEASE_TYPE';
  if (missingCategories) return 'PROJECT_MISSING_QUESTION_CATEGORIES';
  return null;
}

function copyName(name: string): string {
  const suffix = ' (copy)';
  return name.slice(0, MAX_CASE_NAME - suffix.length) + suffix;
}

/** A case as a participant sees it: no marks on its choices. */
export function participantView(row: CaseRow): CaseForParticipant {
  return {
    id: row.id,
    name: row.name,
    patient_name: row.patientName,
    patient_age: row.patientAge,
    has_image: Boolean(row.imageKey),
    reason_for_encounter: row.reasonForEncounter,
    details_sections: row.body.details_sections,
    groupers: row.body.groupers,
    questions: row.body.questions.map((q) => ({
      id: q.id,
      grouper_id: q.grouper_id,
      type: q.type,
      text: q.text,
      text_before: q.text_before,
      required: q.required,
      choices: q.choices.map((c) => ({ id: c.id, text: c.text })),
      allow_other: q.allow_other,
      allow_none_of_below: q.allow_none_of_below,
    })),
  };
}

export { checkAnswers, feedbackFor, isAnswered, missingRequired, scoreAnswers } from './case-answers.js';
export type { StoredAnswer } from './case-answers.js';

export function createCasesService(deps: {
  cases: CasesRepository;
  projects: Projects;
  storage: FileStorage;
  clock: Clock;
}) {
  const { cases, storage } = deps;
  const today = () => deps.clock.now().toISOString().slice(0, 10);

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

  function requireSuperadmin(caller: Caller): void {
    if (caller.role !== 'SUPERADMIN') throw new AppError('FORBIDDEN');
  }

  /** Copies of cases, as new drafts wherever they go, remembering their original. */
  function copyValues(row: CaseRow, name: string, detach: boolean): CaseInsert {
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

  /** Module cases by id, all of one module, for copying out of it. */
  async function requireModuleCases(caller: Caller, ids: string[]): Promise<CaseRow[]> {
    requireSuperadmin(caller);
    const rows = await cases.findMany([...new Set(ids)], today());
    const missing = ids.filter((id) => !rows.some((r) => r.id === id && r.moduleId && !r.projectId));
    if (missing.length) throw new AppError('CASE_NOT_FOUND', { details: { case_ids: missing } });
    if (new Set(rows.map((r) => r.moduleId)).size > 1) throw new AppError('CASES_FROM_DIFFERENT_PROJECTS');
    return rows;
  }

  async function insertCopies(rows: CaseRow[], place: Partial<CaseInsert>): Promise<string[]> {
    const values: CaseInsert[] = [];
    for (const row of rows) {
      values.push({
        ...copyValues(row, row.name, false),
        origin: 'MODULE_LIBRARY',
        imageKey: await copyImage(row.imageKey),
        ...place,
      });
    }
    const ids = await cases.insertMany(values);
    // Copies carry their case's key takeaways and answer tags, still owned as they were.
    for (const [i, row] of rows.entries()) await cases.copyElements(row, { id: ids[i]!, body: values[i]!.body! });
    return ids;
  }

  function problemsOf(row: CaseRow, home: CaseProject) {
    return caseProblems(toCaseDocument(row), home);
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

  async function refuseIf(rows: CaseRow[], code: ErrorCode, test: (row: CaseRow) => boolean | Promise<boolean>) {
    const refused: string[] = [];
    for (const row of rows) if (await test(row)) refused.push(row.id);
    if (refused.length) throw new AppError(code, { details: { case_ids: refused } });
  }

  async function validateLinks(caller: Caller, row: CaseRow, input: UpdateCaseBody): Promise<void> {
    if (!row.projectId) {
      // A module case has no seasons; its catalogues are the module's.
      if (input.season_id || input.round_number) {
        throw validationError([
          { field: 'body.season_id', message: 'Module library cases are not placed in seasons.' },
        ]);
      }
      const fit = projectFitProblem(input, await moduleFacts(row.moduleId!));
      if (fit) throw new AppError(fit);
      return;
    }
    const home = await projectFacts(caller, row.projectId);
    const fit = projectFitProblem(input, home);
    if (fit) throw new AppError(fit);
    if (input.season_id && !(await cases.seasonOfProject(input.season_id, row.projectId))) {
      throw validationError([{ field: 'body.season_id', message: 'This season is not one of the project’s.' }]);
    }
    if (input.season_id && input.round_number && !(await cases.roundOfSeason(input.season_id, input.round_number))) {
      throw validationError([{ field: 'body.round_number', message: 'This season has no round of this number.' }]);
    }
  }

  async function read(id: string): Promise<CaseDocument> {
    return toCaseDocument((await cases.findById(id, today()))!);
  }

  async function removeRows(rows: CaseRow[]): Promise<void> {
    const facts = new Map(
      (
        await cases.moveFacts(
          rows.map((r) => r.id),
          today(),
        )
      ).map((f) => [f.id, f]),
    );
    await refuseIf(rows, 'CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN', (row) => (facts.get(row.id)?.participants ?? 0) > 0);
    await refuseIf(rows, 'CHANGES_FORBIDDEN', (row) => row.effectiveStatus === 'ACTIVE');
    await cases.delete(rows.map((r) => r.id));
    for (const row of rows) if (row.imageKey) await storage.remove(row.imageKey);
  }

  async function copyImage(key: string | null): Promise<string | null> {
    if (!key) return null;
    const copy = `case-images/${randomUUID()}`;
    await storage.put(copy, await storage.get(key));
    return copy;
  }

  async function duplicate(caller: Caller, id: string, name: string | undefined, detach: boolean) {
    const row = await requireCase(caller, id);
    const values = { ...copyValues(row, name ?? copyName(row.name), detach), imageKey: await copyImage(row.imageKey) };
    const copyId = await cases.insert(values);
    // A detached copy owns what it carries: its elements become the project's own.
    await cases.copyElements(
      row,
      { id: copyId, body: values.body! },
      values.origin === 'CUSTOM' ? 'CUSTOM' : undefined,
    );
    return read(copyId);
  }

  async function getPreview(caller: Caller, previewId: string): Promise<CasePreview> {
    const found = await cases.findPreview(previewId);
    if (!found) throw new AppError('NOT_FOUND');
    await requireCase(caller, found.preview.caseId).catch(() => {
      throw new AppError('NOT_FOUND');
    });
    const doc = found.preview.snapshot as CaseDocument;
    const answers = new Map((found.preview.answers as StoredAnswer[]).map((a) => [a.question_id, a]));
    const score = scoreAnswers(doc.questions, answers);
    return {
      id: found.preview.id,
      case_id: found.preview.caseId,
      case_name: doc.name,
      taken_by: { id: found.preview.takenBy, name: `${found.takerFirst} ${found.takerLast}`.trim() },
      score: found.preview.score,
      feedback_type: doc.feedback_type ?? 'PERSONALIZED_FEEDBACK',
      questions: feedbackFor(doc, answers, score),
      explanation: doc.explanation,
      references: doc.references,
      test_results: doc.test_results,
      completed_at: found.preview.completedAt.toISOString(),
    };
  }

  return {
    requireCase,

    /** For a participant's attempt (the attempts module checks it is theirs): the case, whole and as seen. */
    async caseForAttempt(caseId: string): Promise<{ doc: CaseDocument; view: CaseForParticipant }> {
      const row = await cases.findById(caseId, today());
      if (!row) throw new AppError('CASE_NOT_FOUND');
      return { doc: toCaseDocument(row), view: participantView(row) };
    },

    async list(caller: Caller, home: CaseHome, query: CaseListQuery): Promise<Paged<CaseSummary>> {
      if ('projectId' in home) await deps.projects.requireVisible(caller, home.projectId);
      else {
        requireSuperadmin(caller);
        await moduleFacts(home.moduleId);
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
      return toCaseDocument(await requireCase(caller, id));
    },

    async create(caller: Caller, home: CaseHome, name: string, diseaseTypeId: string | null): Promise<CaseDocument> {
      let place: Pick<CaseInsert, 'origin' | 'clientId' | 'projectId' | 'moduleId'>;
      let facts: CaseProject;
      if ('projectId' in home) {
        const project = await projectFacts(caller, home.projectId);
        facts = project;
        place = { origin: 'CUSTOM', clientId: project.clientId, projectId: home.projectId };
      } else {
        requireSuperadmin(caller);
        facts = await moduleFacts(home.moduleId);
        place = { origin: 'MODULE_LIBRARY', moduleId: home.moduleId };
      }
      if (diseaseTypeId && !facts.disease_type_ids.includes(diseaseTypeId)) throw new AppError('WRONG_DISEASE_TYPE');
      const id = await cases.insert({
        ...place,
        name: name.trim(),
        diseaseTypeId,
        body: { details_sections: [], groupers: [], questions: [] },
      });
      return read(id);
    },

    async update(caller: Caller, id: string, input: UpdateCaseBody): Promise<CaseDocument> {
      const row = await requireDraft(caller, id);
      await validateLinks(caller, row, input);
      // Conditional: a publish between the check above and this write keeps the case frozen.
      if (!(await cases.updateDraft(id, contentColumns(input), deps.clock.now()))) {
        throw new AppError('CHANGES_FORBIDDEN', { message: 'Published and active cases cannot be edited.' });
      }
      return read(id);
    },

    async remove(caller: Caller, id: string, selection: CaseSelection | undefined): Promise<{ ids: string[] }> {
      const rows = await resolveSelection(caller, id, selection, 'CASES_FROM_WRONG_PROJECT');
      await removeRows(rows);
      return { ids: rows.map((r) => r.id) };
    },

    /** Takes a case out of its project (how a copied module case is undone): the delete rules apply. */
    async removeFromProject(caller: Caller, id: string): Promise<void> {
      const row = await requireCase(caller, id);
      if (!row.projectId) throw new AppError('CASES_FROM_WRONG_PROJECT');
      await removeRows([row]);
    },

    async status(caller: Caller, id: string): Promise<CaseStatusReport> {
      const row = await requireCase(caller, id);
      const problems = problemsOf(row, await homeOf(caller, row));
      return { id, status: row.effectiveStatus, valid: problems.length === 0, problems };
    },

    async setStatus(caller: Caller, id: string, status: 'DRAFT' | 'PUBLISHED'): Promise<CaseDocument> {
      const row = await requireCase(caller, id);
      if (status === 'PUBLISHED' && row.status === 'DRAFT') {
        const problems = problemsOf(row, await homeOf(caller, row));
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
        if (!(await cases.unpublish(id, today(), deps.clock.now()))) {
          const now = await cases.findById(id, today());
          throw new AppError('CHANGES_FORBIDDEN', {
            message:
              now?.effectiveStatus === 'ACTIVE'
                ? 'An active case cannot go back to draft.'
                : 'Participants have this case: it stays published.',
          });
        }
      }
      return read(id);
    },

    async counts(caller: Caller, id: string) {
      const row = await requireCase(caller, id);
      return { ...(await cases.counts(id)), questions: row.questionCount };
    },

    async move(caller: Caller, id: string, targetProjectId: string, selection: CaseSelection | undefined) {
      const rows = await resolveSelection(caller, id, selection, 'CASES_FROM_DIFFERENT_PROJECTS');
      const source = rows[0]!;
      if (!source.projectId) throw new AppError('CASES_FROM_WRONG_PROJECT');
      const target = await projectFacts(caller, targetProjectId);
      // Cases move between projects of one client only.
      if (target.clientId !== source.clientId) throw new AppError('PROJECT_NOT_FOUND');
      if (targetProjectId === source.projectId) {
        throw validationError([{ field: 'body.project_id', message: 'The cases are already in this project.' }]);
      }
      await refuseIf(rows, 'CASE_IS_ACTIVE', (row) => row.effectiveStatus === 'ACTIVE');
      const facts = new Map(
        (
          await cases.moveFacts(
            rows.map((r) => r.id),
            today(),
          )
        ).map((f) => [f.id, f]),
      );
      await refuseIf(rows, 'CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON', (row) =>
        Boolean(facts.get(row.id)?.seasonCurrentOrFuture),
      );
      for (const row of rows) {
        const fit = projectFitProblem({ disease_type_id: row.diseaseTypeId, questions: row.body.questions }, target);
        if (fit) throw new AppError(fit, { details: { case_ids: [row.id] } });
      }
      await cases.moveToProject(
        rows.map((r) => r.id),
        { projectId: targetProjectId, clientId: target.clientId },
        deps.clock.now(),
      );
      return { ids: rows.map((r) => r.id) };
    },

    /** Moves a project's case into a module library (the move rules apply; it leaves its season). */
    async moveToModule(caller: Caller, id: string, moduleId: string): Promise<CaseDocument> {
      requireSuperadmin(caller);
      const row = await requireCase(caller, id);
      if (!row.projectId) throw new AppError('CASES_FROM_WRONG_PROJECT');
      const target = await moduleFacts(moduleId);
      if (row.effectiveStatus === 'ACTIVE') throw new AppError('CASE_IS_ACTIVE');
      const [facts] = await cases.moveFacts([row.id], today());
      if (facts?.seasonCurrentOrFuture) throw new AppError('CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON');
      if ((facts?.participants ?? 0) > 0) throw new AppError('CASE_HAS_PARTICIPANTS_DELETE_FORBIDDEN');
      const fit = projectFitProblem({ disease_type_id: row.diseaseTypeId, questions: row.body.questions }, target);
      if (fit) throw new AppError(fit);
      await cases.moveToModule(id, moduleId, deps.clock.now());
      return read(id);
    },

    /** Copies module cases into a client's project: all or nothing, each must fit the project. */
    async copyToProject(caller: Caller, caseIds: string[], projectId: string): Promise<{ ids: string[] }> {
      const rows = await requireModuleCases(caller, caseIds);
      const target = await projectFacts(caller, projectId);
      for (const row of rows) {
        const fit = projectFitProblem({ disease_type_id: row.diseaseTypeId, questions: row.body.questions }, target);
        if (fit) throw new AppError(fit, { details: { case_ids: [row.id] } });
      }
      return { ids: await insertCopies(rows, { projectId, clientId: target.clientId, moduleId: null }) };
    },

    /** Copies module cases into another module library. */
    async copyToModule(caller: Caller, caseIds: string[], moduleId: string): Promise<{ ids: string[] }> {
      const rows = await requireModuleCases(caller, caseIds);
      const target = await moduleFacts(moduleId);
      for (const row of rows) {
        const fit = projectFitProblem({ disease_type_id: row.diseaseTypeId, questions: row.body.questions }, target);
        if (fit) throw new AppError(fit, { details: { case_ids: [row.id] } });
      }
      return { ids: await insertCopies(rows, { moduleId, projectId: null, clientId: null }) };
    },

    /** Removes a selection of a module's cases (copies already in projects stay). */
    async removeFromModule(caller: Caller, moduleId: string, selection: CaseSelection): Promise<{ ids: string[] }> {
      requireSuperadmin(caller);
      await moduleFacts(moduleId);
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
      await cases.delete(rows.map((r) => r.id));
      for (const row of rows) if (row.imageKey) await storage.remove(row.imageKey);
      return { ids: rows.map((r) => r.id) };
    },

    duplicate: (caller: Caller, id: string, name?: string) => duplicate(caller, id, name, false),
    duplicateDetached: (caller: Caller, id: string, name?: string) => duplicate(caller, id, name, true),

    /* ---------- patient image and RTF ---------- */

    async setImage(caller: Caller, id: string, upload: StoredUpload): Promise<CaseDocument> {
      const row = await requireDraft(caller, id);
      const head = (await storage.get(upload.key)).subarray(0, 16);
      const type = imageTypeOf(head);
      if (!type) {
        throw validationError([{ field: 'body.file', message: 'The patient image must be a JPEG or PNG file.' }]);
      }
      await cases.update(id, { imageKey: upload.key, imageType: type }, deps.clock.now());
      if (row.imageKey) await storage.remove(row.imageKey);
      return read(id);
    },

    async removeImage(caller: Caller, id: string): Promise<CaseDocument> {
      const row = await requireDraft(caller, id);
      await cases.update(id, { imageKey: null, imageType: null }, deps.clock.now());
      if (row.imageKey) await storage.remove(row.imageKey);
      return read(id);
    },

    async image(caller: Caller, id: string): Promise<{ stream: Readable; type: string }> {
      const row = await requireCase(caller, id);
      if (!row.imageKey || !row.imageType) throw new AppError('NOT_FOUND', { message: 'This case has no image.' });
      return { stream: storage.stream(row.imageKey), type: row.imageType };
    },

    /** Reads an RTF file into case text fields; the editor merges them into its unsaved form. */
    async readRtf(upload: StoredUpload): Promise<RtfCaseFields> {
      const bytes = await storage.get(upload.key);
      if (!isRtf(bytes)) {
        throw validationError([{ field: 'body.file', message: 'The file is not an RTF document.' }]);
      }
      const fields = caseFieldsFromRtf(bytes.toString('latin1'));
      const rich = (html: string | undefined) => (html === undefined ? undefined : sanitizeRichText(html));
      return {
        ...fields,
        reason_for_encounter: rich(fields.reason_for_encounter),
        references: rich(fields.references),
        test_results: rich(fields.test_results),
        explanation: rich(fields.explanation),
        details_sections: fields.details_sections.map((s) => ({ name: s.name, text: sanitizeRichText(s.text) })),
      };
    },

    /* ---------- previews ---------- */

    async forParticipant(caller: Caller, id: string): Promise<CaseForParticipant> {
      const row = await requireCase(caller, id);
      const problems = problemsOf(row, await homeOf(caller, row));
      if (problems.length) throw new AppError('CASE_INVALID_FOR_PREVIEW', { details: { fields: problems } });
      return participantView(row);
    },

    async feedback(caller: Caller, id: string, query: CaseFeedbackQuery) {
      await requireCase(caller, id);
      const page = await cases.feedbackPage(id, query);
      const texts = (q: (typeof page.items)[number]['question'], mark: string) =>
        q.choices.filter((c) => c.marked_as === mark).map((c) => c.text);
      return {
        items: page.items.map(({ question, position }) => ({
          question_id: question.id,
          position,
          text: question.text,
          type: question.type,
          necessary: texts(question, 'NECESSARY'),
          appropriate: texts(question, 'APPROPRIATE'),
          unnecessary: texts(question, 'UNNECESSARY'),
        })),
        total: page.total,
        page: query.page,
        limit: query.limit,
      };
    },

    async createPreview(caller: Caller, body: CreatePreviewBody): Promise<CasePreview> {
      const row = await requireCase(caller, body.case_id);
      const problems = problemsOf(row, await homeOf(caller, row));
      if (problems.length) throw new AppError('CASE_INVALID_FOR_PREVIEW', { details: { fields: problems } });
      const doc = toCaseDocument(row);
      const checked = checkAnswers(doc.questions, body.answers);
      const missing = missingRequired(doc.questions, checked.answers);
      const issues = [...checked.problems, ...missing].map((p) => ({ ...p, field: `body.${p.field}` }));
      if (issues.length) throw validationError(issues);
      const score = scoreAnswers(doc.questions, checked.answers);
      const previewId = await cases.insertPreview({
        caseId: row.id,
        takenBy: caller.userId,
        snapshot: doc,
        answers: [...checked.answers.values()],
        score: score.score,
        completedAt: deps.clock.now(),
      });
      return getPreview(caller, previewId);
    },

    getPreview,

    /** An administrator deletes the previews they took; a superadmin any preview. */
    async deletePreview(caller: Caller, previewId: string): Promise<void> {
      const found = await cases.findPreview(previewId);
      if (!found) throw new AppError('NOT_FOUND');
      await requireCase(caller, found.preview.caseId).catch(() => {
        throw new AppError('NOT_FOUND');
      });
      if (caller.role !== 'SUPERADMIN' && found.preview.takenBy !== caller.userId) {
        throw new AppError('PREVIEW_DELETE_FORBIDDEN', {
          message: 'Only the person who took a preview can delete it.',
        });
      }
      await cases.deletePreview(previewId);
    },

    async listPreviews(caller: Caller, id: string, query: CasePreviewListQuery) {
      await requireCase(caller, id);
      const page = await cases.listPreviews(id, query, query.filter.mine ? caller.userId : undefined);
      return {
        ...page,
        items: page.items.map((p) => ({
          id: p.id,
          name: p.name || p.email,
          completed_at: p.completedAt.toISOString(),
          score: p.score,
        })),
      };
    },
  };
}
export type CasesService = ReturnType<typeof createCasesService>;
