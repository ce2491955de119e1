import { z } from 'zod';
import { idParams } from '../clients.js';
import { answerBody, attempt, participantProgress } from '../participant-side.js';
import { route } from '../route.js';
import { dashboardRoute } from './first-screens.js';

const attemptParams = z.object({ userSeasonRoundCaseId: z.string().uuid() });
const caseParams = z.object({ caseId: z.string().uuid() });

export const attemptRoutes = {
  dashboard: dashboardRoute,
  get: route({
    method: 'GET',
    path: '/users/:userSeasonRoundCaseId/questions',
    access: 'participant',
    params: attemptParams,
    reply: attempt,
  }),
  /** The participant's own attempt at a case, found by the case's id (spec §7, Users: `/case/{caseId}`). */
  byCase: route({ method: 'GET', path: '/case/:caseId', access: 'participant', params: caseParams, reply: attempt }),
  /** The patient image of a case the participant is assigned and that has unlocked for them. */
  caseImage: route({ method: 'GET', path: '/case/:caseId/image', access: 'participant', params: caseParams }),
  start: route({
    method: 'POST',
    path: '/cases/:id/start',
    access: 'participant',
    audit: { kind: 'change', name: 'attempts.start' },
    params: idParams,
    reply: attempt,
  }),
  answer: route({
    method: 'POST',
    path: '/cases/:id/answer',
    access: 'participant',
    audit: { kind: 'change', name: 'attempts.answer' },
    params: idParams,
    body: answerBody,
    reply: z.object({ saved: z.literal(true) }),
  }),
  submit: route({
    method: 'POST',
    path: '/cases/:id/submit',
    access: 'participant',
    audit: { kind: 'change', name: 'attempts.submit' },
    params: idParams,
    reply: attempt,
  }),
  scoreAccessed: route({
    method: 'POST',
    path: '/cases/:id/score-accessed',
    access: 'participant',
    audit: { kind: 'change', name: 'attempts.scoreAccessed' },
    params: idParams,
    status: 204,
    reply: z.null(),
  }),
  finish: route({
    method: 'POST',
    path: '/cases/:id/finish',
    access: 'participant',
    audit: { kind: 'change', name: 'attempts.finish' },
    params: idParams,
    status: 204,
    reply: z.null(),
  }),
  progress: route({
    method: 'GET',
    path: '/users/:userId/project/:projectId',
    access: 'admin',
    params: z.object({ userId: z.string().uuid(), projectId: z.string().uuid() }),
    reply: participantProgress,
  }),
};
