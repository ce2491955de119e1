import type { FastifyInstance } from 'fastify';
import { serviceRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { AppError } from '../../lib/errors.js';

export function registerHealthRoutes(app: FastifyInstance, deps: { ping: () => Promise<boolean> }): void {
  contractRoutes(app)(
    serviceRoutes.health,
    {
      tags: ['Health'],
      summary: 'Liveness and database check',
      description: 'Answers `{ "status": "ok" }` only when the database answers; otherwise 500 DATABASE_ERROR.',
    },
    async () => {
      if (!(await deps.ping())) throw new AppError('DATABASE_ERROR');
      return { status: 'ok' as const };
    },
  );
}
