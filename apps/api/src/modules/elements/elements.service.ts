import type { AnswerTag, CaseElementsQuery, ImportJob, KeyTakeaway } from '@pss/contract';
import type { Db, Tx } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import type { AccessClaims } from '../../lib/tokens.js';
import type { StoredUpload } from '../../lib/uploads.js';
import type { ImportOutcome, ImportRunContext, ImportsService } from '../imports/imports.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { checkAnswerTags, checkKeyTakeaways } from './elements-import.js';
import { createElementsRepository, type ElementsCopy, type ElementsScope } from './elements.repository.js';

type Caller = AccessClaims;
type ImportKind = 'ANSWER_TAGS' | 'SUMMARY';

/**
 * Key takeaways and answer tags of a project's or module library's cases: read, and
 * replaced by CSV uploads that run as import jobs (all or nothing, row errors listed).
 */
export function createElementsService(deps: {
  db: Db;
  projects: Pick<ProjectsService, 'requireVisible'>;
  imports: Pick<ImportsService, 'enqueue' | 'latest'>;
}) {
  const elements = createElementsRepository(deps.db);

  /** A project the caller may see, or a module library (superadmins only). */
  async function requireScope(caller: Caller, scope: ElementsScope): Promise<void> {
    if ('projectId' in scope) {
      await deps.projects.requireVisible(caller, scope.projectId);
      return;
    }
    if (caller.role !== 'SUPERADMIN') throw new AppError('FORBIDDEN');
    const found = await elements.scopeOf(scope.moduleId);
    if (!found || !('moduleId' in found))
      throw new AppError('NOT_FOUND', { message: 'The module library does not exist.' });
  }

  const scopeId = (scope: ElementsScope) => ('projectId' in scope ? scope.projectId : scope.moduleId);
  const originOf = (scope: ElementsScope): 'CUSTOM' | 'MODULE_LIBRARY' =>
    'projectId' in scope ? 'CUSTOM' : 'MODULE_LIBRARY';

  async function run(kind: ImportKind, context: ImportRunContext): Promise<ImportOutcome> {
    const scope = context.job.scopeId ? await elements.scopeOf(context.job.scopeId) : undefined;
    if (!scope) {
      return {
        total: 0,
        errors: [{ line: 0, errorCode: 'NOT_FOUND', message: 'The project or module no longer exists.' }],
      };
    }
    const cases = await elements.casesOf(scope);
    const customElements =
      'moduleId' in scope
        ? await elements.casesWithElementsOf(
            cases.map((c) => c.id),
            'CUSTOM',
          )
        : new Set<string>();
    if (kind === 'SUMMARY') {
      const checked = await checkKeyTakeaways(context.openStream, scope, cases, customElements);
      if (checked.errors.length) return { total: checked.total, errors: checked.errors };
      await deps.db.transaction((tx) =>
        createElementsRepository(tx).replaceKeyTakeaways(checked.caseIds, checked.rows, originOf(scope)),
      );
      await context.reportProgress(checked.total, checked.total);
      return { total: checked.total, errors: [] };
    }
    const checked = await checkAnswerTags(context.openStream, scope, cases, customElements);
    if (checked.errors.length) return { total: checked.total, errors: checked.errors };
    await deps.db.transaction((tx) =>
      createElementsRepository(tx).replaceAnswerTags(checked.caseIds, checked.rows, originOf(scope)),
    );
    await context.reportProgress(checked.total, checked.total);
    return { total: checked.total, errors: [] };
  }

  return {
    /**
     * Gives copies of cases their originals' key takeaways and answer tags, in the copying
     * service's transaction (the case transfers): the copy is written whole or not at all.
     * No access check: the caller has checked the cases it copies.
     */
    async copyElements(tx: Tx, copies: ElementsCopy[]): Promise<void> {
      const inTransaction = createElementsRepository(tx);
      for (const copy of copies) await inTransaction.copyElements(copy);
    },

    runKeyTakeawaysImport: (context: ImportRunContext) => run('SUMMARY', context),
    runAnswerTagsImport: (context: ImportRunContext) => run('ANSWER_TAGS', context),

    async upload(caller: Caller, scope: ElementsScope, kind: ImportKind, upload: StoredUpload): Promise<ImportJob> {
      await requireScope(caller, scope);
      return deps.imports.enqueue({
        kind,
        scopeId: scopeId(scope),
        createdBy: caller.userId,
        fileName: upload.fileName,
        file: { key: upload.key },
      });
    },

    async latestImport(caller: Caller, scope: ElementsScope, kind: ImportKind): Promise<ImportJob | null> {
      await requireScope(caller, scope);
      return deps.imports.latest(kind, scopeId(scope));
    },

    async keyTakeaways(caller: Caller, scope: ElementsScope, caseId?: string): Promise<{ items: KeyTakeaway[] }> {
      await requireScope(caller, scope);
      return { items: await elements.keyTakeaways(scope, caseId) };
    },

    async answerTags(caller: Caller, scope: ElementsScope, caseId?: string): Promise<{ items: AnswerTag[] }> {
      await requireScope(caller, scope);
      const rows = await elements.answerTagRows(scope, caseId);
      return {
        items: rows.map(({ body, ...row }) => {
          const question = body.questions.find((q) => q.id === row.question_id);
          return {
            ...row,
            question: question?.text ?? '',
            answer: question?.choices.find((c) => c.id === row.choice_id)?.text ?? '',
          };
        }),
      };
    },

    async caseElements(caller: Caller, scope: ElementsScope, query: CaseElementsQuery) {
      await requireScope(caller, scope);
      return elements.caseElements(scope, query);
    },
  };
}
export type ElementsService = ReturnType<typeof createElementsService>;
