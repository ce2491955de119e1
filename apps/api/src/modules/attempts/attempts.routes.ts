import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answerBody, attempt, dashboard, idParams, participantProgress } from '@pss/contract';
import { caller } from '../../lib/access-control.js';
import type { AttemptsService } from './attempts.service.js';

const tags = ['Participants’ cases'];
const participant = { access: 'participant' as const };
const attemptParams = z.object({ userSeasonRoundCaseId: z.string().uuid() });

/**
 * The participant's calls. In `/cases/{id}/start|answer|submit|finish|score-accessed` the id
 * is the participant's UserSeasonRoundCase, not the case.
 */
export function registerAttemptsRoutes(app: FastifyInstance, service: AttemptsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/dashboard',
    {
      config: participant,
      schema: {
        tags,
        summary: 'The participant’s dashboard: per project, the running round, cases, scores, takeaways, CME progress',
        response: { 200: dashboard },
      },
    },
    async (request) => service.dashboard(caller(request)),
  );

  r.get(
    '/users/:userSeasonRoundCaseId/questions',
    {
      config: participant,
      schema: {
        tags,
        summary:
          'One of the participant’s cases: the vignette, the questions, the answers saved, and the result once submitted',
        description:
          'A case whose round has not begun is not shown yet (CHANGES_FORBIDDEN); another participant’s: 404.',
        params: attemptParams,
        response: { 200: attempt },
      },
    },
    async (request) => service.get(caller(request), request.params.userSeasonRoundCaseId),
  );

  r.post(
    '/cases/:id/start',
    {
      config: participant,
      schema: {
        tags,
        summary: 'Start a case (NOT_STARTED → STARTED); a case whose round has not begun is refused',
        description:
          'A case that is not published (any more) is refused with CHANGES_FORBIDDEN, as are answers and submits.',
        params: idParams,
        response: { 200: attempt },
      },
    },
    async (request) => service.start(caller(request), request.params.id),
  );

  r.post(
    '/cases/:id/answer',
    {
      config: participant,
      schema: {
        tags,
        summary: 'Save one answer as it is given (→ IN_PROGRESS); a submitted case is final (CHANGES_FORBIDDEN)',
        params: idParams,
        body: answerBody,
        response: { 200: z.object({ saved: z.literal(true) }) },
      },
    },
    async (request) => service.answer(caller(request), request.params.id, request.body),
  );

  r.post(
    '/cases/:id/submit',
    {
      config: participant,
      schema: {
        tags,
        summary: 'Submit a case for its score and feedback (→ COMPLETE); scored once',
        description:
          'Every required question must be answered: CASES_NOT_COMPLETED lists those missing as `questions.N`. The ' +
          'answers are read and scored under a lock on the attempt: an answer sent meanwhile is either in the score or ' +
          'refused (CHANGES_FORBIDDEN).',
        params: idParams,
        response: { 200: attempt },
      },
    },
    async (request) => service.submit(caller(request), request.params.id),
  );

  for (const [path, field, summary] of [
    ['score-accessed', 'scoreAccessedAt', 'Note that the participant has seen their score'],
    ['finish', 'finishedAt', 'Finish a submitted case (after reading the feedback)'],
  ] as const) {
    r.post(
      `/cases/:id/${path}`,
      { config: participant, schema: { tags, summary, params: idParams, response: { 204: z.null() } } },
      async (request, reply) => {
        await service.stamp(caller(request), request.params.id, field);
        return reply.status(204).send(null);
      },
    );
  }

  r.get(
    '/users/:userId/project/:projectId',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'A participant’s progress in a project: each of their cases with its status and score',
        params: z.object({ userId: z.string().uuid(), projectId: z.string().uuid() }),
        response: { 200: participantProgress },
      },
    },
    async (request) => service.progress(caller(request), request.params.userId, request.params.projectId),
  );
}
