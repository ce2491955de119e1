import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthResponse } from '@pss/contract';
import { AppError } from '../../lib/errors.js';

export function registerHealthRoutes(app: FastifyInstance, deps: { ping: () => Promise<boolean> }): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Health'],
        summary: 'Liveness and database check',
        description: 'Answers `{ "status": "ok" }` only when the database answers; otherwise 500 DATABASE_ERROR.',
        response: { 200: healthResponse },
      },
    },
    async () => {
      if (!(await deps.ping())) throw new AppError('DATABASE_ERROR');
      return { status: 'ok' as const };
    },
  );
}
