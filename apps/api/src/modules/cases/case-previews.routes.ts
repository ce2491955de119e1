import type { FastifyInstance } from 'fastify';
import { caseRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { caller } from '../../lib/access-control.js';
import type { CasePreviewsService } from './case-previews.service.js';

const tags = ['Cases'];

/** A case as a participant sees it, its answer key, and staff previews. */
export function registerCasePreviewsRoutes(app: FastifyInstance, service: CasePreviewsService): void {
  const implement = contractRoutes(app);

  implement(
    caseRoutes.preview,
    {
      tags,
      summary: 'The case as a participant sees it (no answer marks)',
      description: 'The case must be valid: CASE_INVALID_FOR_PREVIEW lists what is wrong.',
    },
    async (request) => service.forParticipant(caller(request), request.params.id),
  );

  implement(
    caseRoutes.feedback,
    {
      tags,
      summary: 'The answer key: per scored question, its necessary, appropriate and unnecessary choices (paged)',
      description: 'Sortable: position. Filter: `{"type":"MULTI_ONE"}`.',
    },
    async (request) => service.feedback(caller(request), request.params.id, request.query),
  );

  implement(
    caseRoutes.listPreviews,
    {
      tags,
      summary: 'Previews taken of a case (paged)',
      description: 'Search: the taker’s name or email. Sortable: completed_at, score, name. Filter: `{"mine":true}`.',
    },
    async (request) => service.listPreviews(caller(request), request.params.id, request.query),
  );

  implement(
    caseRoutes.createPreview,
    {
      tags: ['Previews'],
      summary: 'Take a case as a participant would: answers are checked, scored and stored',
      description:
        'The case must be valid (CASE_INVALID_FOR_PREVIEW). Every required question needs an answer; each missing ' +
        'one is listed as a field `questions.N`. The answer carries the score and the feedback.',
    },
    async (request) => await service.createPreview(caller(request), request.body),
  );

  implement(
    caseRoutes.getPreview,
    { tags: ['Previews'], summary: 'A preview: answers, score, feedback' },
    async (request) => service.getPreview(caller(request), request.params.id),
  );

  implement(
    caseRoutes.deletePreview,
    {
      tags: ['Previews'],
      summary: 'Delete a preview (yours; a superadmin may delete any: else PREVIEW_DELETE_FORBIDDEN)',
    },
    async (request) => {
      await service.deletePreview(caller(request), request.params.id);
      return null;
    },
  );
}
