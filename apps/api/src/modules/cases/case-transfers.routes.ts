import type { FastifyInstance } from 'fastify';
import { caseRoutes } from '@pss/contract';
import { contractRoutes } from '../../lib/contract-routes.js';
import { caller } from '../../lib/access-control.js';
import type { CaseTransfersService } from './case-transfers.service.js';

const tags = ['Cases'];

/** Cases changing place: moved, moved into a module library, duplicated. */
export function registerCaseTransfersRoutes(app: FastifyInstance, service: CaseTransfersService): void {
  const implement = contractRoutes(app);

  implement(
    caseRoutes.move,
    {
      tags,
      summary: 'Move a case (and optionally a selection of its project’s cases) to another project of the client',
      description:
        'Refused for an active case (CASE_IS_ACTIVE), one in a current or future season ' +
        '(CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON), cases from different projects ' +
        '(CASES_FROM_DIFFERENT_PROJECTS), and where the target lacks the case’s disease type (PROJECT_MISSING_DISEASE_TYPES) ' +
        'or question categories (PROJECT_MISSING_*). Moved cases leave their season round.',
    },
    async (request) => service.move(caller(request), request.params.id, request.body.project_id, request.body.cases),
  );

  implement(
    caseRoutes.moveToModule,
    {
      tags,
      summary: 'Move a project’s case into a module library',
      description:
        'The case becomes a module case (origin MODULE_LIBRARY) and leaves its project and season. Refused as a ' +
        'move is (CASE_IS_ACTIVE, CASE_ASSIGNED_TO_CURRENT_OR_FUTURE_SEASON), for a case with participants, and ' +
        'where the module lacks the case’s disease type or question categories.',
    },
    async (request) => service.moveToModule(caller(request), request.params.id, request.body.module_id),
  );

  implement(
    caseRoutes.duplicate,
    { tags, summary: 'Copy a case as a new draft that remembers its original' },
    async (request) => service.duplicate(caller(request), request.params.id, request.body?.name),
  );

  implement(
    caseRoutes.duplicateDetached,
    { tags, summary: 'Copy a case as a new, independent custom draft (no link to where it came from)' },
    async (request) => service.duplicateDetached(caller(request), request.params.id, request.body?.name),
  );
}
