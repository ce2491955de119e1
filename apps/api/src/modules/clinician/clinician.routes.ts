import type { FastifyInstance } from 'fastify';
import { attemptRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { caller } from '../../lib/access-control.js';
import type { ClinicianService } from './clinician.service.js';

const tags = ['Participants’ cases'];

/**
 * The participant's calls. In `/cases/{id}/start|answer|submit|finish|score-accessed` the id
 * is the participant's UserSeasonRoundCase, not the case.
 */
export function registerClinicianRoutes(app: FastifyInstance, service: ClinicianService): void {
  const implement = contractRoutes(app);

  implement(
    attemptRoutes.dashboard,
    {
      tags,
      summary: 'The participant’s dashboard: per project, the running round, cases, scores, takeaways, CME progress',
    },
    async (request) => service.dashboard(caller(request)),
  );

  implement(
    attemptRoutes.get,
    {
      tags,
      summary:
        'One of the participant’s cases: the vignette, the questions, the answers saved, and the result once submitted',
      description: 'A case whose round has not begun is not shown yet (CHANGES_FORBIDDEN); another participant’s: 404.',
    },
    async (request) => service.get(caller(request), request.params.userSeasonRoundCaseId),
  );

  implement(
    attemptRoutes.byCase,
    {
      tags,
      summary: 'One of the participant’s cases, found by the case’s id',
      description:
        'The same view as `/users/{userSeasonRoundCaseId}/questions`. A case the participant is not assigned, ' +
        'or one whose round has not begun for them, answers 404 CASE_NOT_FOUND.',
    },
    async (request) => service.byCase(caller(request), request.params.caseId),
  );

  implement(
    attemptRoutes.caseImage,
    {
      tags,
      summary: 'The patient image of one of the participant’s unlocked cases',
      description:
        'Sent with its true type (JPEG or PNG, read from the file when it was uploaded) and `nosniff`. Another ' +
        'participant’s case, a locked one, or a case without an image: 404.',
    },
    async (request, reply) => {
      const image = await service.caseImage(caller(request), request.params.caseId);
      return reply
        .header('content-type', image.type)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(image.stream);
    },
  );

  implement(
    attemptRoutes.start,
    {
      tags,
      summary: 'Start a case (NOT_STARTED → STARTED); a case whose round has not begun is refused',
      description:
        'A case that is not published (any more) is refused with CHANGES_FORBIDDEN, as are answers and submits.',
    },
    async (request) => service.start(caller(request), request.params.id),
  );

  implement(
    attemptRoutes.answer,
    {
      tags,
      summary: 'Save one answer as it is given (→ IN_PROGRESS); a submitted case is final (CHANGES_FORBIDDEN)',
      // The statement that saves the answer writes its audit event too (attempts.service.ts).
      eventInStatement: true,
    },
    async (request) => service.answer(caller(request), request.params.id, request.body),
  );

  implement(
    attemptRoutes.submit,
    {
      tags,
      summary: 'Submit a case for its score and feedback (→ COMPLETE); scored once',
      description:
        'Every required question must be answered: CASES_NOT_COMPLETED lists those missing as `questions.N`. The ' +
        'answers are read and scored under a lock on the attempt: an answer sent meanwhile is either in the score or ' +
        'refused (CHANGES_FORBIDDEN).',
    },
    async (request) => service.submit(caller(request), request.params.id),
  );

  for (const [route, field, summary] of [
    [attemptRoutes.scoreAccessed, 'scoreAccessedAt', 'Note that the participant has seen their score'],
    [attemptRoutes.finish, 'finishedAt', 'Finish a submitted case (after reading the feedback)'],
  ] as const) {
    implement(route, { tags, summary }, async (request) => {
      await service.stamp(caller(request), request.params.id, field);
      return null;
    });
  }

  implement(
    attemptRoutes.progress,
    { tags, summary: 'A participant’s progress in a project: each of their cases with its status and score' },
    async (request) => service.progress(caller(request), request.params.userId, request.params.projectId),
  );
}
