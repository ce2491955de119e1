import type { FastifyInstance } from 'fastify';
import { serviceRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { AppError } from '../../lib/errors.js';
import type { TrailProtection } from '../../db/database-roles.js';

export interface HealthDeps {
  ping: () => Promise<boolean>;
  /** Whether every migration this build carries has run on the database. */
  migrationsApplied: () => Promise<boolean>;
  /** True from SIGTERM on: the process is finishing its work and wants no new traffic. */
  draining: () => boolean;
  /** Whether the audit trail is protected from the database role the app serves with (issue #46). */
  trailProtection: () => Promise<TrailProtection>;
  /** Whether the file storage answers (a writable folder, or a bucket that answers). */
  storage: { check: () => Promise<boolean> };
}

export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  const implement = contractRoutes(app);
  implement(
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
  implement(
    serviceRoutes.live,
    {
      tags: ['Health'],
      summary: 'Liveness: the process answers',
      description:
        'Checks nothing but the process itself, so that an orchestrator restarts a process that hangs, ' +
        'not every process when the database is down (a restart would not help).',
    },
    () => ({ status: 'ok' as const }),
  );
  implement(
    serviceRoutes.ready,
    {
      tags: ['Health'],
      summary: 'Readiness: send this process traffic',
      description:
        'Answers 200 only when the database answers, every migration has run, the file storage answers ' +
        '(a writable folder, or a bucket that answers), and the process is not ' +
        'draining for a shutdown; otherwise 503 NOT_READY with `details.checks`. `details.audit_trail` says ' +
        'whether the audit trail is protected from the database role the app serves with (it is when that ' +
        'role owns nothing and may only read and append to the trail; see DATABASE_OWNER_URL): a warning, ' +
        'not a reason to hold traffic back.',
    },
    async () => {
      const draining = deps.draining();
      const database = await deps.ping();
      const migrations = database && (await deps.migrationsApplied());
      const storage = await deps.storage.check().catch(() => false);
      if (draining || !database || !migrations || !storage) {
        throw new AppError('NOT_READY', { details: { checks: { database, migrations, storage, draining } } });
      }
      return {
        status: 'ok' as const,
        checks: {
          database: true as const,
          migrations: true as const,
          storage: true as const,
          draining: false as const,
        },
        details: { audit_trail: await deps.trailProtection() },
      };
    },
  );
}
