import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  caseFeedbackPage,
  caseFeedbackQuery,
  caseForParticipant,
  casePreview,
  casePreviewListQuery,
  casePreviewPage,
  createPreviewBody,
  idParams,
} from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import type { CasePreviewsService } from './case-previews.service.js';

const tags = ['Cases'];

/** A case as a participant sees it, its answer key, and staff previews. */
export function registerCasePreviewsRoutes(app: FastifyInstance, service: CasePreviewsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { access: 'admin' as const };

  r.get(
    '/cases/:id/preview',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The case as a participant sees it (no answer marks)',
        description: 'The case must be valid: CASE_INVALID_FOR_PREVIEW lists what is wrong.',
        params: idParams,
        response: { 200: caseForParticipant },
      },
    },
    async (request) => service.forParticipant(caller(request), request.params.id),
  );

  r.get(
    '/cases/:id/feedback',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The answer key: per scored question, its necessary, appropriate and unnecessary choices (paged)',
        description: 'Sortable: position. Filter: `{"type":"MULTI_ONE"}`.',
        params: idParams,
        querystring: caseFeedbackQuery,
        response: { 200: caseFeedbackPage },
      },
    },
    async (request) => service.feedback(caller(request), request.params.id, request.query),
  );

  r.get(
    '/cases/:id/previews',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Previews taken of a case (paged)',
        description: 'Search: the taker’s name or email. Sortable: completed_at, score, name. Filter: `{"mine":true}`.',
        params: idParams,
        querystring: casePreviewListQuery,
        response: { 200: casePreviewPage },
      },
    },
    async (request) => service.listPreviews(caller(request), request.params.id, request.query),
  );

  r.post(
    '/previews',
    {
      config: admin,
      schema: {
        tags: ['Previews'],
        summary: 'Take a case as a participant would: answers are checked, scored and stored',
        description:
          'The case must be valid (CASE_INVALID_FOR_PREVIEW). Every required question needs an answer; each missing ' +
          'one is listed as a field `questions.N`. The answer carries the score and the feedback.',
        body: createPreviewBody,
        response: { 201: casePreview },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createPreview(caller(request), request.body)),
  );

  r.get(
    '/previews/:id',
    {
      config: admin,
      schema: {
        tags: ['Previews'],
        summary: 'A preview: answers, score, feedback',
        params: idParams,
        response: { 200: casePreview },
      },
    },
    async (request) => service.getPreview(caller(request), request.params.id),
  );

  r.delete(
    '/previews/:id',
    {
      config: admin,
      schema: {
        tags: ['Previews'],
        summary: 'Delete a preview (yours; a superadmin may delete any: else PREVIEW_DELETE_FORBIDDEN)',
        params: idParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.deletePreview(caller(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
