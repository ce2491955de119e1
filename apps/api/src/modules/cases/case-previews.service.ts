import type {
  CaseDocument,
  CaseFeedbackQuery,
  CaseForParticipant,
  CasePreview,
  CasePreviewListQuery,
  CreatePreviewBody,
} from '@pss/contract';
import { choiceTagsOf } from '../../db/choice-tags.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, validationError } from '../../lib/errors.js';
import type { CaseAccess, Caller } from './case-access.js';
import { checkAnswers, feedbackFor, missingRequired, scoreAnswers, type StoredAnswer } from './case-answers.js';
import { participantView, toCaseDocument } from './case-content.js';
import { createCasePreviewsRepository } from './case-previews.repository.js';

/**
 * Staff taking a case as a participant would: the case as seen, its answer key, and stored
 * previews (a copy of the case as it was taken, the answers and the score; feedback is
 * recomputed from that copy when read).
 */
export function createCasePreviewsService(deps: { db: Db; access: CaseAccess; clock: Clock }) {
  const { access } = deps;
  const previews = createCasePreviewsRepository(deps.db);

  /** A preview of a case the caller may see; anything else is "not found". */
  async function requirePreview(caller: Caller, previewId: string) {
    const found = await previews.findPreview(previewId);
    if (!found) throw new AppError('NOT_FOUND');
    await access.requireCase(caller, found.preview.caseId).catch(() => {
      throw new AppError('NOT_FOUND');
    });
    return found;
  }

  async function getPreview(caller: Caller, previewId: string): Promise<CasePreview> {
    const found = await requirePreview(caller, previewId);
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
      questions: feedbackFor(doc, answers, score, await choiceTagsOf(deps.db, found.preview.caseId)),
      explanation: doc.explanation,
      references: doc.references,
      test_results: doc.test_results,
      completed_at: found.preview.completedAt.toISOString(),
    };
  }

  return {
    async forParticipant(caller: Caller, id: string): Promise<CaseForParticipant> {
      const row = await access.requireCase(caller, id);
      const problems = await access.problemsOf(caller, row);
      if (problems.length) throw new AppError('CASE_INVALID_FOR_PREVIEW', { details: { fields: problems } });
      return participantView(row);
    },

    async feedback(caller: Caller, id: string, query: CaseFeedbackQuery) {
      await access.requireCase(caller, id);
      const page = await previews.feedbackPage(id, query);
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
      const row = await access.requireCase(caller, body.case_id);
      const problems = await access.problemsOf(caller, row);
      if (problems.length) throw new AppError('CASE_INVALID_FOR_PREVIEW', { details: { fields: problems } });
      const doc = toCaseDocument(row);
      const checked = checkAnswers(doc.questions, body.answers);
      const missing = missingRequired(doc.questions, checked.answers);
      const issues = [...checked.problems, ...missing].map((p) => ({ ...p, field: `body.${p.field}` }));
      if (issues.length) throw validationError(issues);
      const score = scoreAnswers(doc.questions, checked.answers);
      const previewId = await previews.insertPreview({
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
      const found = await requirePreview(caller, previewId);
      if (caller.role !== 'SUPERADMIN' && found.preview.takenBy !== caller.userId) {
        throw new AppError('PREVIEW_DELETE_FORBIDDEN', {
          message: 'Only the person who took a preview can delete it.',
        });
      }
      await previews.deletePreview(previewId);
    },

    async listPreviews(caller: Caller, id: string, query: CasePreviewListQuery) {
      await access.requireCase(caller, id);
      const page = await previews.listPreviews(id, query, query.filter.mine ? caller.userId : undefined);
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
export type CasePreviewsService = ReturnType<typeof createCasePreviewsService>;
